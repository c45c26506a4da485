package exact_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctuationWinDistributionMatchesCardPlay plays deals of three pairs card by card (fwPlayer,
// fluctwin_cardlevel_test.go) under a fluctuating capacity, every turn drawing its capacity, both
// forgetting rules and every pass rule, the policies reading their choices off the solver's tables
// by the state, the capacity drawn, their own lead and the pass flag, and compares the probability
// of every final lead of seat 0 with the exact score distribution. The card play gives the
// probability that the final lead is t as the probability of a draw in the game started t lower,
// the tables read at the leads t higher (seat 0) and t lower (seat 1).
func TestFluctuationWinDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
	}
	type memCase struct {
		forget  rules.Forgetting
		pass    rules.PassRule
		lineups []int // the lineups played, by index (nil: every one)
	}
	var cases []memCase
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			cases = append(cases, memCase{forget, pass, nil})
		}
	}
	leads := []int{-1, 0, 1}
	if testing.Short() {
		// Every pass rule, both forgetting rules, three lineups, from a lead at which the
		// policies that play to win choose otherwise than level.
		cases = []memCase{
			{rules.ForgetHandoverUniform, rules.PassNever, []int{1}},
			{rules.ForgetLRU, rules.PassTwoKnown, []int{3}},
			{rules.ForgetLRU, rules.PassAlways, []int{0}},
		}
		leads = []int{-1}
	}
	const n, m, sigma, depth = 3, 2, 1, 18
	for _, tc := range cases {
		mem := rules.Memory{Capacity: m, Forget: tc.forget, Fluctuation: sigma}
		model := exact.Model{Memory: mem, Pass: tc.pass}
		for i, mu := range lineups {
			if tc.lineups != nil && !slices.Contains(tc.lineups, i) {
				continue
			}
			choose := fwRoles(t, model, mu, n, false, nil)
			for _, lead := range leads {
				st := rules.State{N: n, J: n, Lead: lead}
				name := fmt.Sprintf("%s pass %s/%s-%s/%v", mem, tc.pass, mu.Policy, mu.Opponent, st)
				want, err := exact.Distribution(ctx, field.Float{}, model, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for l := -n; l <= n; l++ {
					to := lead + l // seat 0's final lead
					shifted := [2]func(rules.State, int, bool) rules.Choice{
						func(s rules.State, c int, afterPass bool) rules.Choice {
							s.Lead += to
							return choose[0](s, c, afterPass)
						},
						func(s rules.State, c int, afterPass bool) rules.Choice {
							s.Lead -= to
							return choose[1](s, c, afterPass)
						},
					}
					play := &fwPlayer{lru: tc.forget == rules.ForgetLRU, m: m, sigma: sigma, pass: tc.pass,
						choose: shifted, memo: map[string]fwVal{}}
					got := play.value(flPosition(n, 0), 0, lead-to, depth)
					if p := want.Prob[l+n]; math.Abs(got.draw-p) > got.tail+1e-9 || got.tail > 1e-2 {
						t.Errorf("%s: P(final lead %d): card play %.12f (unfinished %.2g), exact %.12f", name, to, got.draw, got.tail, p)
					}
				}
			}
		}
	}
}
