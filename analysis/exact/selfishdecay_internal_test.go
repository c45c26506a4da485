package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// selfDecayRowOf returns the equations of the row of n pairs of every seat for itself at players
// seats under decay memory mem, the rows below solved.
func selfDecayRowOf(t *testing.T, mem rules.Memory, players, n int) *selfRow[float64] {
	t.Helper()
	f := field.Float{}
	m := Model{Memory: mem}
	mu := Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep[float64](f, m, mu, rules.State{N: n, J: n})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.run(context.Background(), n-1, nil); err != nil {
		t.Fatal(err)
	}
	h, err := newDecayHand[float64](f, mem, n)
	if err != nil {
		t.Fatal(err)
	}
	cells := w.decayCells(h, n)
	r := &selfRow[float64]{p: players, eqs: make([][rules.NumChoices]*selfEq[float64], len(cells))}
	for k := range cells {
		for _, ch := range rules.Choices() {
			if cells[k].legal[ch] && ch != rules.Pass {
				r.eqs[k][ch] = w.selfEquation(&cells[k], ch, n)
			}
		}
	}
	return r
}

// TestSelfDecayRowLeastGain solves rows of every seat for itself under decay forgetting and
// compares them with every profile of choices of the row, each solved and measured: the row's
// profile has no gain where some profile has none, and otherwise the smallest largest gain of
// all. Four seats with q = 1/8 and 7 pairs is a row without a stationary equilibrium in pure
// choices.
func TestSelfDecayRowLeastGain(t *testing.T) {
	cases := []struct {
		mem         rules.Memory
		players, n  int
		equilibrium bool
	}{
		{rules.Memory{Forget: rules.ForgetDecay, Decay: 0.125}, 4, 7, false},
		{rules.Memory{Forget: rules.ForgetDecay, Decay: 0.125}, 4, 6, true},
		{rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25, Capacity: 3}, 3, 6, true},
	}
	f := field.Float{}
	for _, tc := range cases {
		if raceEnabled && tc.n > 6 {
			continue // every profile of the row of 7 pairs: left to the runs without the detector
		}
		t.Run(fmt.Sprintf("%v/p=%d/n=%d", tc.mem, tc.players, tc.n), func(t *testing.T) {
			r := selfDecayRowOf(t, tc.mem, tc.players, tc.n)
			got, err := r.solve(f)
			if err != nil {
				t.Fatal(err)
			}
			least := -1.0
			ch := make([]rules.Choice, len(r.eqs))
			var all func(k int)
			all = func(k int) {
				if k == len(ch) {
					s, err := r.evaluate(f, ch)
					if err != nil {
						t.Fatal(err)
					}
					if least < 0 || s.eps < least {
						least = s.eps
					}
					return
				}
				for _, c := range rules.Choices() {
					if r.eqs[k][c] != nil {
						ch[k] = c
						all(k + 1)
					}
				}
			}
			all(0)
			if (least == 0) != tc.equilibrium {
				t.Fatalf("least gain over every profile %g: want an equilibrium %v", least, tc.equilibrium)
			}
			if f.Cmp(got.eps, least) != 0 {
				t.Errorf("the row's profile %v gains %g, the least over every profile %g", got.ch, got.eps, least)
			}
		})
	}
}
