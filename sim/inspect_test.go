package sim_test

import (
	"fmt"
	"slices"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// memoryWatcher plays greedyRandom at seat 0 and checks, at every event, that Remembered gives
// seat 1's perfect memory as the events make it (every card flipped and still on the table), and
// at every flip it is asked for, that Remembered gives its own memory as its View does.
type memoryWatcher struct {
	t      *testing.T
	g      *sim.Game
	seen   map[int]int // the face of every card flipped and still on the table
	events int
}

func (w *memoryWatcher) BeginGame(sim.GameInfo) error { clear(w.seen); return nil }
func (w *memoryWatcher) EndGame(*sim.Outcome) error   { return nil }

func (w *memoryWatcher) Observe(e sim.Event) {
	switch e.Kind {
	case sim.EventFlip:
		w.seen[e.Pos] = e.Face
	case sim.EventPair:
		delete(w.seen, e.Pos)
		delete(w.seen, e.Pos2)
	}
	var want []sim.Card
	for pos, face := range w.seen {
		want = append(want, sim.Card{Pos: pos, Face: face})
	}
	slices.SortFunc(want, func(a, b sim.Card) int { return a.Pos - b.Pos })
	if got := w.g.Remembered(1, nil); !slices.Equal(got, want) {
		w.t.Fatalf("after %+v: seat 1 remembers %v, want %v", e, got, want)
	}
	w.events++
}

func (w *memoryWatcher) Flip(v *sim.View) sim.Move {
	var want []sim.Card
	for pos := range v.Cards() {
		if face, ok := v.Remembers(pos); ok && v.OnTable(pos) {
			want = append(want, sim.Card{Pos: pos, Face: face})
		}
	}
	if got := w.g.Remembered(0, nil); !slices.Equal(got, want) {
		w.t.Fatalf("seat 0 remembers %v by Remembered, %v by its View", got, want)
	}
	return greedyRandom(v)
}

// Remembered gives what a seat's memory holds at every event: a perfect memory, every card
// flipped and not taken; a limited one, what its View says it remembers.
func TestRememberedIsTheSeatsMemory(t *testing.T) {
	for _, mem := range []rules.Memory{
		{},
		{Capacity: 3, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate},
		{Capacity: 4, Forget: rules.ForgetHandoverUniform, Scope: rules.ScopePrivate},
	} {
		t.Run(fmt.Sprint(mem), func(t *testing.T) {
			w := &memoryWatcher{t: t, seen: map[int]int{}}
			s := sim.Setup{Pairs: 6, Singletons: 2, Pass: rules.PassTwoKnown, Players: []sim.Player{
				{Name: "watcher", Memory: mem, NewStrategy: func() sim.Strategy { return w }},
				tablePlayer("daring", rules.Memory{}, fixedTable(t, rules.PolicyDaring, 6, 2)),
			}}
			g, err := sim.NewGame(s)
			if err != nil {
				t.Fatal(err)
			}
			w.g = g
			for i := range 20 {
				if err := g.Play(sim.GameID{Seed: 5, DealStream: 1, PlayStream: 2, Index: uint64(i)}, nil); err != nil {
					t.Fatal(err)
				}
			}
			if w.events == 0 {
				t.Fatal("no event observed")
			}
		})
	}
}

// A game of table players played without a log keeps its memories on a lean path: Remembered
// then gives nothing, and a seat out of range nothing either.
func TestRememberedOnTheLeanPathGivesNothing(t *testing.T) {
	table := fixedTable(t, rules.PolicyDaring, 4, 0)
	g, err := sim.NewGame(sim.Setup{Pairs: 4, Players: []sim.Player{
		tablePlayer("a", rules.Memory{}, table), tablePlayer("b", rules.Memory{}, table)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(sim.GameID{Seed: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if got := g.Remembered(0, nil); got != nil {
		t.Errorf("lean path: Remembered(0) = %v, want nil", got)
	}
	if got := g.Remembered(2, nil); got != nil {
		t.Errorf("Remembered(2) of two seats = %v, want nil", got)
	}
}
