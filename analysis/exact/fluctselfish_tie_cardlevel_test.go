package exact_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSelfishTakesTheMoversBetterEquilibrium checks §4.7's rule for a state with two
// equilibria, every seat for itself at three seats under lru(4) with σ = 1, card by card
// (fsPlayer): in the row of five pairs with capacity 4 drawn, every seat playing daring in (5, 1)
// and (5, 2) and every seat playing safe there (the table elsewhere) are both equilibria at (5, 2)
// (no choice made once at its first turn gives the mover more), and the solver must take the one
// that gives (5, 2)'s mover more.
func TestFluctSelfishTakesTheMoversBetterEquilibrium(t *testing.T) {
	if testing.Short() {
		t.Skip("five pairs card by card: about 15 s")
	}
	ctx := context.Background()
	const n, m, sigma, c0, depth = 5, 4, 1, 4, 14
	model := exact.Model{Memory: rules.Memory{Capacity: m, Forget: rules.ForgetLRU, Fluctuation: sigma}}
	tab, err := exact.FluctSelfishTable(ctx, field.Float{}, model, 3, n)
	if err != nil {
		t.Fatal(err)
	}
	start := rules.State{N: n, J: 2}
	moved := func(st rules.State, c int) bool {
		return st.N == n && (st.J == 1 || st.J == 2) && min(c, n+1) == c0
	}
	type candidate struct {
		ch          rules.Choice
		value, unf  float64
		equilibrium bool
	}
	var cands []candidate
	for _, alt := range []rules.Choice{rules.Daring, rules.Safe} {
		profile := func(st rules.State, c int, _ bool) rules.Choice {
			if moved(st, c) {
				return alt
			}
			ch, ok := tab.LookupCapacity(st, false, c)
			if !ok {
				t.Fatalf("no choice in %v with capacity %d", st, c)
			}
			return ch
		}
		cd := candidate{ch: alt, equilibrium: true}
		vals := map[rules.Choice]vec{}
		for _, first := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
			once := func(st rules.State, c int, top bool) rules.Choice {
				if top {
					return first
				}
				return profile(st, c, top)
			}
			pl := &fsPlayer{lru: true, m: m, sigma: sigma, p: 3, top: depth, choose: []func(rules.State, int, bool) rules.Choice{once, profile, profile}, memo: map[string][]float64{}}
			vals[first] = pl.turn(newFlDeal(n, []int{0, 2, 4}), 0, depth, c0)
		}
		cd.value, cd.unf = vals[alt][0], vals[alt][3]
		for ch, v := range vals {
			if v[0] > cd.value+float64(n)*(v[3]+cd.unf)+1e-9 {
				cd.equilibrium = false
				t.Logf("every seat %s: %s once gives the mover %.6f, %.6f", alt, ch, v[0], cd.value)
			}
		}
		cands = append(cands, cd)
	}
	for _, cd := range cands {
		if !cd.equilibrium {
			t.Fatalf("every seat playing %s in %v with capacity %d is not an equilibrium card by card: the case has one equilibrium", cd.ch, start, c0)
		}
	}
	d, s := cands[0], cands[1]
	tol := float64(n)*(d.unf+s.unf) + 1e-9
	want := s.ch
	switch {
	case d.value > s.value+tol:
		want = d.ch
	case s.value <= d.value+tol:
		t.Fatalf("the two equilibria give the mover %.6f and %.6f, closer than the card play's bound %.2g", d.value, s.value, tol)
	}
	got, ok := tab.LookupCapacity(start, false, c0)
	if !ok || got != want {
		t.Errorf("%v with capacity %d: the solver plays %s; the equilibrium that gives the mover more is %s (daring %.6f, safe %.6f)", start, c0, got, want, d.value, s.value)
	}
}
