package exact_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// flLimitChooser returns the choice of seat 0's table of lineup mu under the fluctuating capacity
// and turn limit of m (exact.FluctLimitTables), read by the capacity drawn and the turns left.
func flLimitChooser(t *testing.T, m exact.Model, mu exact.Lineup, n int) func(rules.State, int, int, bool) rules.Choice {
	t.Helper()
	lo, layers, err := exact.FluctLimitTables(context.Background(), field.Float{}, m, mu, n)
	if err != nil {
		t.Fatal(err)
	}
	return func(st rules.State, c, left int, afterPass bool) rules.Choice {
		i := min(max(c-lo, 0), len(layers)-1)
		ch, ok := layers[i][left-1].Lookup(st, afterPass)
		if !ok {
			t.Fatalf("%s: no choice in %v with capacity %d and %d turns left", m.Memory, st, c, left)
		}
		return ch
	}
}

// TestFluctLimitMatchesCardPlay plays every deal of 2 and 3 pairs card by card under a
// fluctuating capacity (lru(3) and handover-uniform(3), σ 1) cut after the turn limit, 1 to 5
// turns, and compares seat 0's lead and pairs with the exact model's: the optimum's self-play and
// best-response found card by card (each role choosing the choice of largest lead for itself in
// every position), fixed policies, and the optimum's table against a fixed policy; under pass
// rules never and two-known.
func TestFluctLimitMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	limits := []int{1, 2, 3, 4, 5}
	sizes := []int{2, 3}
	if testing.Short() {
		limits, sizes = []int{4}, []int{3}
	}
	type pairT = [2]rules.Policy
	lineups := []pairT{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicySafe}, {rules.PolicyDaring, rules.PolicyBestResponse},
		{rules.PolicyOptimal, rules.PolicySafe}, {rules.PolicyBestResponse, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicyParity},
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
			for _, n := range sizes {
				for _, limit := range limits {
					mem := rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 1}
					m := exact.Model{Memory: mem, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
					for _, lu := range lineups {
						if pass != rules.PassNever && lu[0] == rules.PolicySafe {
							continue // a fixed policy never passes: as under never
						}
						name := fmt.Sprintf("%s/%s/%s-%s/n=%d/limit=%d", mem, pass, lu[0], lu[1], n, limit)
						mu := exact.Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
						want, err := exact.Evaluate(ctx, field.Float{}, m, mu, rules.State{N: n, J: n})
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						pols := func(byTable bool) (*flPlayer, error) {
							pl := &flPlayer{lru: forget == rules.ForgetLRU, m: 3, sigma: 1, pass: pass, memo: map[string][2]float64{}}
							for r, p := range lu {
								switch {
								case p.Fixed():
									pl.chooseLeft[r] = func(st rules.State, _, _ int, _ bool) rules.Choice { return p.Decide(st) }
								case !byTable && (p == rules.PolicyBestResponse || lu[1-r] == rules.PolicyOptimal):
									pl.maximise[r] = true // self-play optimum or the best reply, card by card
								default:
									seen := exact.Lineup{Players: 2, Policy: p, Opponent: lu[1-r]}
									pl.chooseLeft[r] = flLimitChooser(t, m, seen, n)
								}
							}
							return pl, nil
						}
						g := func() *flGame { return newFlDeal(n, nil) }
						pl, _ := pols(false)
						lead, _ := pl.value(g(), 0, limit)
						if d := math.Abs(lead - want.ExpectedLead); d > 1e-9 {
							t.Errorf("%s: card play lead %.12f, exact %.12f", name, lead, want.ExpectedLead)
						}
						pl, _ = pols(true)
						pl.seat0 = true
						pairs, _ := pl.value(g(), 0, limit)
						if d := math.Abs(pairs - want.ExpectedPairs); d > 1e-9 {
							t.Errorf("%s: card play pairs of seat 0 %.12f, exact %.12f", name, pairs, want.ExpectedPairs)
						}
					}
				}
			}
		}
	}
}
