package sim_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

// tableChooser plays a policy table as a strategy: it takes a pair it remembers whole, and
// otherwise answers Choose with the table's choice for its state.
type tableChooser struct{ t *rules.ChoiceTable }

func (c tableChooser) Flip(v *sim.View) sim.Move {
	if v.Second {
		if p, ok := v.PartnerOf(v.First.Pos); ok {
			return sim.FlipAt(p)
		}
		return sim.Fail(fmt.Errorf("asked for a second card after a choice"))
	}
	if a, _, ok := v.KnownPair(); ok {
		return sim.FlipAt(a)
	}
	ch, _ := c.t.Lookup(v.State, v.AfterPass)
	return sim.Choose(ch)
}

// mixedChoices returns a table that varies its legal choice over the states, so that every choice
// is played somewhere.
func mixedChoices(tb testing.TB, pairs, singletons int, pass rules.PassRule) *rules.ChoiceTable {
	return customTable(tb, pairs, singletons, func(st rules.State, afterPass bool) rules.Choice {
		order := []rules.Choice{rules.KnownFirst, rules.Safe, rules.Pass, rules.Daring}
		k := (st.N*7 + st.J*3 + st.F + map[bool]int{false: 0, true: 1}[afterPass]) % len(order)
		for i := range order {
			if c := order[(k+i)%len(order)]; rules.Legal(st, c, pass) {
				return c
			}
		}
		return rules.Daring
	})
}

// TestChooseMovePlaysAsTheTableDoes checks that a strategy answering Choose with a table's choices
// plays every game exactly as the table player does: the same flips, the same draws, the same
// outcome, in every memory model and pass rule.
func TestChooseMovePlaysAsTheTableDoes(t *testing.T) {
	memories := []rules.Memory{
		{},
		{Capacity: 4, Forget: rules.ForgetLRU, Scope: rules.ScopeShared},
		{Capacity: 4, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate},
		{Capacity: 6, Forget: rules.ForgetHandoverUniform, Scope: rules.ScopeShared},
	}
	for _, mem := range memories {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			for _, singles := range []int{0, 2} {
				name := fmt.Sprintf("%v/%s/singletons=%d", mem, pass, singles)
				t.Run(name, func(t *testing.T) {
					const pairs = 6
					tb := mixedChoices(t, pairs, singles, pass)
					other := fixedTable(t, rules.PolicyDaring, pairs, singles)
					table := sim.Setup{Pairs: pairs, Singletons: singles, Pass: pass, Players: []sim.Player{
						tablePlayer("mixed", mem, tb), tablePlayer("daring", mem, other)}}
					chooser := table
					chooser.Players = []sim.Player{
						{Name: "mixed", Memory: mem, NewStrategy: func() sim.Strategy { return tableChooser{tb} }},
						table.Players[1]}
					a, b := newGame(t, table), newGame(t, chooser)
					for d := range uint64(200) {
						id := sim.GameID{Seed: 7, DealStream: 1, PlayStream: 2, Index: d}
						var la, lb sim.Log
						errA, errB := a.Play(id, &la), b.Play(id, &lb)
						if (errA == nil) != (errB == nil) {
							t.Fatalf("game %d: table error %v, chooser error %v", d, errA, errB)
						}
						if errA != nil {
							continue // both stalled alike (a table that never ends the game)
						}
						if !reflect.DeepEqual(la.Turns, lb.Turns) || !reflect.DeepEqual(a.Outcome(), b.Outcome()) {
							t.Fatalf("game %d: the chooser played otherwise than the table:\ntable   %+v\nchooser %+v", d, la.Turns, lb.Turns)
						}
					}
				})
			}
		}
	}
}

func newGame(tb testing.TB, s sim.Setup) *sim.Game {
	tb.Helper()
	g, err := sim.NewGame(s)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// recorder plays greedy-random and records what it is told of its games.
type recorder struct {
	infos    []sim.GameInfo
	events   []sim.Event
	outcomes []sim.Outcome
	closed   *int
}

func (r *recorder) Flip(v *sim.View) sim.Move { return greedyRandom(v) }
func (r *recorder) BeginGame(info sim.GameInfo) error {
	r.infos = append(r.infos, info)
	r.events = r.events[:0]
	return nil
}
func (r *recorder) Observe(e sim.Event) { r.events = append(r.events, e) }
func (r *recorder) EndGame(o *sim.Outcome) error {
	r.outcomes = append(r.outcomes, *o)
	return nil
}
func (r *recorder) Close() error {
	*r.closed++
	return nil
}

// eventsOfLog derives the events every seat is told from a game's log: each flip; the pair at the
// end of a pair turn; a pass at the end of a pass turn; and after a turn without a pair, a
// hand-over to the next seat unless the game ended there.
func eventsOfLog(lg *sim.Log, seats int) []sim.Event {
	var out []sim.Event
	for i, t := range lg.Turns {
		for _, c := range t.Flips {
			out = append(out, sim.Event{Kind: sim.EventFlip, Seat: t.Seat, Pos: c.Pos, Face: c.Face})
		}
		switch t.End {
		case "pair":
			a, b := t.Flips[0], t.Flips[1]
			out = append(out, sim.Event{Kind: sim.EventPair, Seat: t.Seat, Pos: a.Pos, Pos2: b.Pos, Face: a.Face})
			continue
		case "pass":
			out = append(out, sim.Event{Kind: sim.EventPass, Seat: t.Seat})
		}
		if i < len(lg.Turns)-1 {
			out = append(out, sim.Event{Kind: sim.EventHandover, Seat: (t.Seat + 1) % seats})
		}
	}
	return out
}

// TestObserverSeesEveryEvent checks that an observing strategy is told of every game's start, its
// events in order (as derived from the game's log) and its end, and that the match closes it.
func TestObserverSeesEveryEvent(t *testing.T) {
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
		t.Run(pass.String(), func(t *testing.T) {
			closed := 0
			rec := &recorder{closed: &closed}
			s := sim.Setup{Pairs: 5, Singletons: 1, Pass: pass, Players: []sim.Player{
				tablePlayer("daring", rules.Memory{}, fixedTable(t, rules.PolicyDaring, 5, 1)),
				{Name: "observer", NewStrategy: func() sim.Strategy { return rec }},
				strategyPlayer("random", rules.Memory{}, (&randomStrategy{r: rand.New(rand.NewPCG(3, 4))}).Flip),
			}}
			g := newGame(t, s)
			for d := range uint64(100) {
				var lg sim.Log
				id := sim.GameID{Seed: 1, DealStream: 2, PlayStream: 3, Index: d}
				if err := g.Play(id, &lg); err != nil {
					t.Fatal(err)
				}
				want := sim.GameInfo{ID: id, Seat: 1, Players: 3, Pairs: 5, Singletons: 1, Pass: pass}
				if got := rec.infos[len(rec.infos)-1]; got != want {
					t.Fatalf("game %d: begun with %+v, want %+v", d, got, want)
				}
				if ev := eventsOfLog(&lg, 3); !reflect.DeepEqual(rec.events, ev) {
					t.Fatalf("game %d: events\n%+v\nwant\n%+v", d, rec.events, ev)
				}
				if o := rec.outcomes[len(rec.outcomes)-1]; !reflect.DeepEqual(o.Pairs, g.Outcome().Pairs) {
					t.Fatalf("game %d: ended with %v, the game with %v", d, o.Pairs, g.Outcome().Pairs)
				}
			}
			if len(rec.infos) != 100 || len(rec.outcomes) != 100 {
				t.Fatalf("%d games begun and %d ended, want 100", len(rec.infos), len(rec.outcomes))
			}
			if err := g.Close(); err != nil || closed != 1 {
				t.Fatalf("Close: %v, the strategy closed %d times, want once", err, closed)
			}
		})
	}
}

// TestMatchClosesItsStrategies checks that a match closes every strategy its engines made, when
// it ends and when a game fails.
func TestMatchClosesItsStrategies(t *testing.T) {
	for _, fail := range []bool{false, true} {
		made, closed := 0, 0
		s := sim.Setup{Pairs: 3, Players: []sim.Player{
			{Name: "observer", NewStrategy: func() sim.Strategy { made++; return &recorder{closed: &closed} }},
			strategyPlayer("failing", rules.Memory{}, func(v *sim.View) sim.Move {
				if fail {
					return sim.Fail(fmt.Errorf("process exited"))
				}
				return greedyRandom(v)
			}),
		}}
		m := sim.Match{Setup: s, Orders: [][]int{{0, 1}}, Deals: 3000, Seed: 1}
		_, err := m.Play(t.Context(), 2, nil)
		if (err != nil) != fail {
			t.Fatalf("fail=%v: %v", fail, err)
		}
		if made == 0 || made != closed {
			t.Fatalf("fail=%v: %d strategies made, %d closed", fail, made, closed)
		}
	}
}

// TestChoiceAndFailMovesAreChecked checks the errors of the moves a strategy over count states
// and a player process answer: an illegal choice, a choice as the second flip, and a failure.
func TestChoiceAndFailMovesAreChecked(t *testing.T) {
	cases := []struct {
		name string
		move func(v *sim.View) sim.Move
		want string
	}{
		{"safe with nothing known", func(v *sim.View) sim.Move { return sim.Choose(rules.Safe) },
			`player "p" (seat 0), game 0 (seed 1, deal stream 0, play stream 0), turn 1: illegal move: choose safe: not legal in`},
		{"pass under never", func(v *sim.View) sim.Move { return sim.Choose(rules.Pass) }, "illegal move: choose pass: not legal"},
		{"choice second", func(v *sim.View) sim.Move {
			if v.Second {
				return sim.Choose(rules.Daring)
			}
			return sim.FlipUnknown()
		}, "illegal move: choose daring as the second flip: a choice is a first move"},
		{"failure", func(v *sim.View) sim.Move { return sim.Fail(fmt.Errorf("reply after its deadline")) },
			`player "p" (seat 0), game 0 (seed 1, deal stream 0, play stream 0), turn 1: reply after its deadline`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, sim.Setup{Pairs: 3, Players: []sim.Player{strategyPlayer("p", rules.Memory{}, c.move)}})
			err := g.Play(sim.GameID{Seed: 1}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}
