package sim_test

// Illegal moves and panics in a strategy end the game with an error that wraps sim.ErrIllegal
// and names the player, the game and the seed; they never panic out of Play.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

const illegalSeed, illegalIndex = 9137, 77

// playNoPanic plays a game, turning a panic out of PlayDeal into a test failure.
func playNoPanic(t *testing.T, g *sim.Game, deal []int) (err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("PlayDeal panicked: %v", r)
			err = nil
		}
	}()
	return g.PlayDeal(sim.GameID{Seed: illegalSeed, DealStream: 1, PlayStream: 2, Index: illegalIndex}, deal, &sim.Log{})
}

// wantIllegal checks that err reports an illegal move of player name in game illegalIndex with
// seed illegalSeed.
func wantIllegal(t *testing.T, err error, name string, also ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want an illegal move of %s", name)
	}
	if !errors.Is(err, sim.ErrIllegal) {
		t.Errorf("error %q does not wrap sim.ErrIllegal", err)
	}
	msg := err.Error()
	for _, w := range append([]string{name, fmt.Sprintf("game %d", illegalIndex), fmt.Sprintf("seed %d", illegalSeed)}, also...) {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not mention %q", msg, w)
		}
	}
}

func TestIllegalMoves(t *testing.T) {
	d0101 := []int{0, 1, 0, 1}
	type illegalCase struct {
		name              string
		pairs, singletons int
		pass              rules.PassRule
		mem               rules.Memory
		deal              []int
		steps             []step
		culprit           string // name of the player at fault
	}
	// Players are named "ann" (seat 0) and "bob" (seat 1).
	cases := []illegalCase{
		{name: "position past the end", pairs: 2, deal: d0101, steps: []step{at(0, 4)}, culprit: "ann"},
		{name: "negative position", pairs: 2, deal: d0101, steps: []step{at(0, 0), at(0, -1)}, culprit: "ann"},
		{
			// Seat 0 takes the pair 0-1 and moves again, flipping card 0 again.
			name: "removed card", pairs: 2, deal: []int{0, 0, 1, 1},
			steps: []step{at(0, 0), at(0, 1), at(0, 0)}, culprit: "ann",
		},
		{
			name: "removed card as second flip", pairs: 2, deal: []int{0, 0, 1, 1},
			steps: []step{at(0, 0), at(0, 1), at(0, 2), at(0, 1)}, culprit: "ann",
		},
		{name: "same card twice", pairs: 2, deal: d0101, steps: []step{at(0, 0), at(0, 0).with(wantFirst(0, 0))}, culprit: "ann"},
		{name: "pass under never", pairs: 2, deal: d0101, steps: []step{at(0, 0), at(0, 1), passStep(1)}, culprit: "bob"},
		{
			// Two-known: nothing is known yet, so no pass.
			name: "pass under two-known with nothing known", pairs: 2, pass: rules.PassTwoKnown, deal: d0101,
			steps: []step{passStep(0)}, culprit: "ann",
		},
		{
			// Two-known with one remembered card: seat 0 shows the pair card 1 and the singleton
			// 0 (face 2); seat 1 takes the pair 2-1 and, moving again, remembers only the singleton.
			name: "pass under two-known with one card known", pairs: 2, singletons: 1, pass: rules.PassTwoKnown,
			deal:    []int{2, 0, 0, 1, 1},
			steps:   []step{at(0, 1), at(0, 0), at(1, 2), at(1, 1), passStep(1).with(wantState(1, 1, 1, 0))},
			culprit: "bob",
		},
		{name: "pass as second flip", pairs: 2, pass: rules.PassAlways, deal: d0101, steps: []step{at(0, 0), passStep(0)}, culprit: "ann"},
		{
			name: "two remembered cards under never", pairs: 2, deal: d0101,
			steps: []step{at(0, 0), at(0, 1), at(1, 1), at(1, 0)}, culprit: "bob",
		},
		{
			// One pair and a singleton (face 1 at 2): after seat 0 shows 0 and 2 and seat 1
			// shows 1 and 2, seat 0 remembers every card on the table.
			name: "FlipUnknown with every card remembered", pairs: 1, singletons: 1, deal: []int{0, 0, 1},
			steps: []step{
				at(0, 0), at(0, 2), at(1, 1), at(1, 2),
				{seat: 0, move: sim.FlipUnknown(), check: wantMemory([]int{0, 0, 1}, []int{0, 1, 2}, nil)},
			},
			culprit: "ann",
		},
		{
			// Seat 1's first card is the last one it did not remember.
			name: "FlipUnknown as second flip with every card remembered", pairs: 1, singletons: 1, deal: []int{0, 0, 1},
			steps:   []step{at(0, 0), at(0, 2), at(1, 1), {seat: 1, move: sim.FlipUnknown()}},
			culprit: "bob",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := &director{t: t, steps: c.steps}
			setup := sim.Setup{Pairs: c.pairs, Singletons: c.singletons, Pass: c.pass, Players: []sim.Player{
				scripted("ann", c.mem, d, 0), scripted("bob", c.mem, d, 1),
			}}
			g, err := sim.NewGame(setup)
			if err != nil {
				t.Fatal(err)
			}
			err = playNoPanic(t, g, c.deal)
			wantIllegal(t, err, `"`+c.culprit+`"`)
			if d.next != len(d.steps) {
				t.Errorf("the game stopped after %d of %d steps", d.next, len(d.steps))
			}
		})
	}
}

// reusable fails (panics) on the second flip of its first game; in the next game it plays
// greedily and checks, on its first flip, that nothing of the failed game is left.
type reusable struct {
	t           *testing.T
	fail, fresh bool
}

func (r *reusable) Flip(v *sim.View) sim.Move {
	if r.fail && v.Second {
		panic("boom")
	}
	if r.fresh {
		r.fresh = false
		if v.Remembered() != 0 || v.State != (rules.State{N: 3, J: 3}) || v.Second {
			r.t.Errorf("the game after an error starts with %d remembered cards in %v (second flip: %v)", v.Remembered(), v.State, v.Second)
		}
		for pos := range v.Cards() {
			if !v.OnTable(pos) {
				r.t.Errorf("card %d is not on the table at the start of the game after an error", pos)
			}
		}
	}
	return greedyRandom(v)
}

// TestIllegalEngineReusable checks that an engine whose game ended with an error in the middle of
// a turn plays the next game from a clean table.
func TestIllegalEngineReusable(t *testing.T) {
	st := &reusable{t: t, fail: true}
	setup := sim.Setup{Pairs: 3, Players: []sim.Player{{Name: "solo", NewStrategy: func() sim.Strategy { return st }}}}
	g, err := sim.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	wantIllegal(t, playNoPanic(t, g, []int{0, 1, 2, 0, 1, 2}), `"solo"`, "boom")
	st.fail, st.fresh = false, true
	lg := &sim.Log{}
	if err := g.PlayDeal(sim.GameID{Seed: 1, Index: 2}, []int{0, 1, 2, 0, 1, 2}, lg); err != nil {
		t.Fatalf("next game: %v", err)
	}
	if st.fresh {
		t.Errorf("the strategy was not asked to move")
	}
	o := g.Outcome()
	checkLog(t, setup, lg, o, true, []bool{false})
	if o.Pairs[0] != 3 || o.Stalemate {
		t.Errorf("next game: outcome %+v", o)
	}
}

func TestIllegalPanic(t *testing.T) {
	for _, second := range []bool{false, true} {
		t.Run(fmt.Sprintf("second=%v", second), func(t *testing.T) {
			st := funcStrategy(func(v *sim.View) sim.Move {
				if v.Second == second {
					panic("strategy exploded")
				}
				return sim.FlipAt(0)
			})
			// Ann misses first (0 and 1 differ), then the bomb moves.
			d := &director{t: t, steps: []step{at(0, 0), at(0, 1)}}
			setup := sim.Setup{Pairs: 2, Players: []sim.Player{
				scripted("ann", perfect, d, 0),
				{Name: "bomb", NewStrategy: func() sim.Strategy { return st }},
			}}
			g, err := sim.NewGame(setup)
			if err != nil {
				t.Fatal(err)
			}
			wantIllegal(t, playNoPanic(t, g, []int{0, 1, 0, 1}), `"bomb"`, "strategy exploded")
		})
	}
}

// TestIllegalTables: a policy table without a choice for a state the game reaches, or with a
// choice the rules do not allow there, is an error, not a panic.
func TestIllegalTables(t *testing.T) {
	empty, err := rules.NewChoiceTable(2, 0)
	if err != nil {
		t.Fatal(err)
	}
	safeEverywhere := customTable(t, 2, 0, func(rules.State, bool) rules.Choice { return rules.Safe })
	passEverywhere := customTable(t, 2, 0, func(rules.State, bool) rules.Choice { return rules.Pass })
	for _, c := range []struct {
		name  string
		table *rules.ChoiceTable
	}{{"empty table", empty}, {"safe with nothing known", safeEverywhere}, {"pass under never", passEverywhere}} {
		t.Run(c.name, func(t *testing.T) {
			setup := sim.Setup{Pairs: 2, Players: []sim.Player{tablePlayer("tab", perfect, c.table)}}
			g, err := sim.NewGame(setup)
			if err != nil {
				t.Fatal(err)
			}
			wantIllegal(t, playNoPanic(t, g, []int{0, 1, 0, 1}), `"tab"`)
		})
	}
	// A table for fewer pairs, or other singletons, is refused up front.
	for _, s := range []sim.Setup{
		{Pairs: 3, Players: []sim.Player{tablePlayer("tab", perfect, fixedTable(t, rules.PolicySafe, 2, 0))}},
		{Pairs: 2, Singletons: 1, Players: []sim.Player{tablePlayer("tab", perfect, fixedTable(t, rules.PolicySafe, 2, 0))}},
	} {
		if _, err := sim.NewGame(s); err == nil {
			t.Errorf("NewGame accepts a table that does not cover %d pairs and %d singletons", s.Pairs, s.Singletons)
		}
	}
}

// TestIllegalEndlessGame: a strategy that never lets the game end (with memory decaying to
// nothing at every hand-over it may flip the same two cards forever under pass rule never) gets
// an error naming it, not a hang.
func TestIllegalEndlessGame(t *testing.T) {
	st := funcStrategy(func(v *sim.View) sim.Move {
		if v.Second {
			return sim.FlipAt(1)
		}
		return sim.FlipAt(0)
	})
	setup := sim.Setup{Pairs: 2, Players: []sim.Player{{Name: "loop", Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 1}, NewStrategy: func() sim.Strategy { return st }}}}
	g, err := sim.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	err = playNoPanic(t, g, []int{0, 1, 0, 1})
	if err == nil {
		t.Fatal("an endless game ended without an error")
	}
	for _, w := range []string{`"loop"`, fmt.Sprintf("game %d", illegalIndex), fmt.Sprintf("seed %d", illegalSeed)} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

// TestIllegalInMatch: an illegal move inside a match stops it with the error of the game of
// lowest index, whatever the number of workers.
func TestIllegalInMatch(t *testing.T) {
	bad := funcStrategy(func(v *sim.View) sim.Move { return sim.FlipAt(v.Cards()) })
	for _, workers := range []int{1, 2, 3} {
		m := &sim.Match{
			Setup: sim.Setup{Pairs: 3, Players: []sim.Player{
				tablePlayer("parity", perfect, fixedTable(t, rules.PolicyParity, 3, 0)),
				{Name: "bad", NewStrategy: func() sim.Strategy { return bad }},
			}},
			Orders: [][]int{{0, 1}, {1, 0}}, Deals: 3000, Seed: illegalSeed, DealStream: 1, PlayStream: 2,
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Match.Play panicked: %v", r)
				}
			}()
			res, err := m.Play(context.Background(), workers, nil)
			if err == nil {
				t.Fatalf("workers %d: no error (result %+v)", workers, res)
			}
			if !errors.Is(err, sim.ErrIllegal) || !strings.Contains(err.Error(), `"bad"`) ||
				!strings.Contains(err.Error(), "game 0 ") || !strings.Contains(err.Error(), fmt.Sprintf("seed %d", illegalSeed)) {
				t.Errorf("workers %d: error %q", workers, err)
			}
		}()
	}
}

// TestMatchValidate: a match that cannot be played is refused before any game.
func TestMatchValidate(t *testing.T) {
	p := tablePlayer("parity", perfect, fixedTable(t, rules.PolicyParity, 2, 0))
	for _, m := range []sim.Match{
		{Setup: sim.Setup{Pairs: 2, Players: []sim.Player{p, p}}, Orders: [][]int{{0, 1}}, Deals: 0},
		{Setup: sim.Setup{Pairs: 2, Players: []sim.Player{p, p}}, Deals: 10},
		{Setup: sim.Setup{Pairs: 2, Players: []sim.Player{p, p}}, Orders: [][]int{{0, 2}}, Deals: 10},
		{Setup: sim.Setup{Pairs: 2, Players: []sim.Player{p, p}}, Orders: [][]int{{0, 1}, {0}}, Deals: 10},
		{Setup: sim.Setup{Pairs: 0, Players: []sim.Player{p, p}}, Orders: [][]int{{0, 1}}, Deals: 10},
		{Setup: sim.Setup{Pairs: 2, Players: []sim.Player{{Name: "nobody"}}}, Orders: [][]int{{0}}, Deals: 10},
	} {
		if err := m.Validate(); err == nil {
			t.Errorf("match %+v validates", m)
		}
		if _, err := m.Play(context.Background(), 1, nil); err == nil {
			t.Errorf("match %+v plays", m)
		}
	}
}

// TestFlipRandomDeadEnd: under pass rule never, a player who remembers every card on the table
// (here: a pair card known on both sides and a singleton, left by scripted turns) may only take
// the remembered pair. FlipRandom is documented to flip "a card the player may legally flip now";
// a first FlipRandom that drew the singleton would leave no legal second card, so FlipRandom must
// never draw it.
func TestFlipRandomDeadEnd(t *testing.T) {
	deal := []int{0, 0, 1} // the pair at 0 and 1, the singleton at 2
	var failures []error
	for ps := range uint64(30) {
		d := &director{t: t, steps: []step{
			at(0, 0), at(0, 2), at(1, 1), at(1, 2),
			{seat: 0, move: sim.FlipRandom(), check: wantMemory(deal, []int{0, 1, 2}, nil)},
			{seat: 0, move: sim.FlipRandom()},
		}}
		setup := sim.Setup{Pairs: 1, Singletons: 1, Players: []sim.Player{scripted("ann", perfect, d, 0), scripted("bob", perfect, d, 1)}}
		g, err := sim.NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		lg := &sim.Log{}
		if err := g.PlayDeal(sim.GameID{Seed: 1, PlayStream: ps}, deal, lg); err != nil {
			if !errors.Is(err, sim.ErrIllegal) {
				t.Fatalf("play stream %d: %v", ps, err)
			}
			failures = append(failures, err)
			continue
		}
		checkLog(t, setup, lg, g.Outcome(), true, []bool{false, false})
		if o := g.Outcome(); o.Pairs[0] != 1 || o.Turns != 3 {
			t.Errorf("play stream %d: ann remembers the pair and must take it in turn 3: %+v", ps, o)
		}
	}
	if len(failures) > 0 {
		t.Errorf("in %d of 30 games FlipRandom drew a first card with no legal second card under pass rule never; first error: %v", len(failures), failures[0])
	}
}
