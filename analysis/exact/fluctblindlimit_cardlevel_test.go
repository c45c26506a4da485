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

// TestFluctBlindLimitMatchesCardPlay plays every deal of 3 pairs card by card under a fluctuating
// capacity and blind flips (flPlayer with blind set: both positions named before either card is
// turned up, every turn drawing its capacity, a pair known whole taken one a turn) cut after the
// turn limit, and compares seat 0's lead and pairs with the exact model's: the optimum's
// self-play and best-response found card by card (each role choosing the choice of largest lead
// for itself in every position), fixed policies, and the tables read by capacity and turns left
// against a fixed policy; under pass rules never and two-known. handover-uniform(2),
// σ 1, hand two pairs known whole over after a daring turn; handover-uniform(4), σ 1, draws a
// capacity of n + 2.
func TestFluctBlindLimitMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	type fcase struct {
		forget   rules.Forgetting
		m        int
		pass     rules.PassRule
		limits   []int
		newest   bool
		lineupsN int
	}
	cases := []fcase{{rules.ForgetHandoverUniform, 2, rules.PassNever, []int{3}, false, 1}}
	if !testing.Short() {
		cases = []fcase{
			{rules.ForgetHandoverUniform, 2, rules.PassNever, []int{1, 2, 4, 6}, false, 7},
			{rules.ForgetHandoverUniform, 2, rules.PassTwoKnown, []int{3, 5}, false, 7},
			{rules.ForgetHandoverUniform, 4, rules.PassAlways, []int{4}, false, 7},
		}
	}
	type pairT = [2]rules.Policy
	lineups := []pairT{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicyBestResponse, rules.PolicySafe},
		{rules.PolicySafe, rules.PolicyDaring}, {rules.PolicyDaring, rules.PolicyBestResponse},
		{rules.PolicyOptimal, rules.PolicySafe}, {rules.PolicyBestResponse, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicyParity},
	}
	const n = 3
	for _, tc := range cases {
		for _, limit := range tc.limits {
			mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: 1}
			m := exact.Model{Memory: mem, Pass: tc.pass, Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}}
			for _, lu := range lineups[:tc.lineupsN] {
				if tc.pass != rules.PassNever && lu[0] == rules.PolicySafe {
					continue // a fixed policy never passes: as under never
				}
				name := fmt.Sprintf("%s/%s/%s-%s/limit=%d/newest=%t", mem, tc.pass, lu[0], lu[1], limit, tc.newest)
				mu := exact.Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
				want, err := exact.Evaluate(ctx, field.Float{}, m, mu, rules.State{N: n, J: n})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				player := func(byTable bool) *flPlayer {
					pl := &flPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: 1, pass: tc.pass, blind: true,
						pickNewest: tc.newest, memo: map[string][2]float64{}}
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
					return pl
				}
				lead, _ := player(false).value(newFlDeal(n, nil), 0, limit)
				if d := math.Abs(lead - want.ExpectedLead); d > 1e-9 {
					t.Errorf("%s: card play lead %.12f, exact %.12f", name, lead, want.ExpectedLead)
				}
				pl := player(true)
				pl.seat0 = true
				pairs, _ := pl.value(newFlDeal(n, nil), 0, limit)
				if d := math.Abs(pairs - want.ExpectedPairs); d > 1e-9 {
					t.Errorf("%s: card play pairs of seat 0 %.12f, exact %.12f", name, pairs, want.ExpectedPairs)
				}
			}
		}
	}
}
