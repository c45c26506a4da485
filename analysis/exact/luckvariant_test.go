package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestVariantLuckTableValues checks the luck tables of the rule variants against the solver's
// exact values, computed in rationals by Evaluate (the copies model, alone, under a turn limit and
// under blind flips, and the turn limit's induction from the start of a game): every seat's value at the start of games of every size; and, in every
// state with the turns left, that the optimum's choice has advantage zero and no legal choice a
// positive one, in what the optimum maximises: with two seats the mover's lead (under a turn limit
// not the mover's pairs, since the pairs left count for nobody), with three the mover's pairs.
func TestVariantLuckTableValues(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		m          exact.Model
		players, n int
	}{
		{exact.Model{Variant: rules.Variant{Copies: 4}}, 2, 8},
		{exact.Model{Variant: rules.Variant{Copies: 6}}, 3, 6},
		{exact.Model{Variant: rules.Variant{Copies: 4, TurnLimit: 5}}, 2, 8},
		{exact.Model{Variant: rules.Variant{Copies: 4, TurnLimit: 4}}, 3, 6},
		{exact.Model{Variant: rules.Variant{Copies: 4, Flips: rules.FlipsBlind}}, 2, 8},
		{exact.Model{Variant: rules.Variant{Copies: 6, Flips: rules.FlipsBlind}}, 3, 6},
		{exact.Model{Variant: rules.Variant{Copies: 4, Flips: rules.FlipsBlind, TurnLimit: 5}}, 2, 8},
		{exact.Model{Variant: rules.Variant{TurnLimit: 7}}, 2, 6},
		{exact.Model{Pass: rules.PassAlways, Variant: rules.Variant{TurnLimit: 5}}, 2, 5},
		{exact.Model{Variant: rules.Variant{TurnLimit: 6, Flips: rules.FlipsBlind}}, 3, 5},
		{exact.Model{Pass: rules.PassTwoKnown, Variant: rules.Variant{Flips: rules.FlipsBlind}}, 2, 6},
	} {
		t.Run(fmt.Sprintf("%s/pass=%s/players=%d", c.m.Variant, c.m.Pass, c.players), func(t *testing.T) {
			lt, err := exact.LuckTable(ctx, c.m, c.players, c.n)
			if err != nil {
				t.Fatal(err)
			}
			if got := lt.Variant(); got != c.m.Variant.Normal() {
				t.Errorf("table of %s, want %s", got, c.m.Variant)
			}
			k := c.m.Variant.CopiesOf()
			mu := exact.Lineup{Players: c.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			for n := k / 2; n <= c.n; n += k / 2 {
				res, err := exact.Evaluate(ctx, field.Rat{}, c.m, mu, rules.State{N: n, J: n})
				if err != nil {
					t.Fatal(err)
				}
				got := startValues(lt, c.m.Variant, n)
				for s, want := range res.PairsBySeat {
					w, _ := new(big.Rat).Set(want).Float64()
					if math.Abs(got[s]-w) > 1e-12 {
						t.Errorf("n=%d seat %d: value %.15g at the start, exact %.15g", n, s, got[s], w)
					}
				}
			}
			checkAdvantages(t, lt, c.m.Variant, c.n)
		})
	}
}

// startValues returns every seat's value at the start of a game of n pairs.
func startValues(lt *rules.LuckTable, v rules.Variant, n int) []float64 {
	st := rules.State{N: n, J: n}
	switch k := v.CopiesOf(); {
	case k != rules.DefaultCopies:
		counts := make([]int, k)
		counts[k-2] = v.Faces(n)
		return lt.CopiesTurnValues(rules.AppendCopiesKey(nil, counts), v.TurnLimit)
	case v.TurnLimit > 0:
		return lt.TurnValues(st, false, v.TurnLimit)
	}
	return lt.Values(st, false)
}

// checkAdvantages checks that in every count state (and every number of turns left) of at most n
// pairs the largest advantage of the mover's lead (two seats) or pairs (more) is zero.
func checkAdvantages(t *testing.T, lt *rules.LuckTable, v rules.Variant, n int) {
	t.Helper()
	if v.CopiesOf() != rules.DefaultCopies {
		return // indexed by the state of faces: checked through the engine's games
	}
	layers := max(v.TurnLimit, 1)
	checked := 0
	for left := 1; left <= layers; left++ {
		for nn := 1; nn <= n; nn++ {
			for j := 0; j <= nn; j++ {
				for _, afterPass := range []bool{false, true} {
					st := rules.State{N: nn, J: j}
					best, any := math.Inf(-1), false
					for _, c := range rules.Choices() {
						a := lt.Advantages(st, afterPass, c)
						if v.TurnLimit > 0 {
							a = lt.TurnAdvantages(st, afterPass, left, c)
						}
						if a == nil || math.IsNaN(a[0]) {
							continue
						}
						gain := a[0]
						if len(a) == 2 {
							gain -= a[1] // the lead
						}
						best, any = max(best, gain), true
					}
					if !any {
						continue
					}
					checked++
					if math.Abs(best) > 1e-12 {
						t.Errorf("%v after a pass %v, %d turns left: the best advantage %.3g, want 0", st, afterPass, left, best)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no state has an advantage")
	}
}
