package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctBlindIdentities checks, in exact rationals, the fluctuating capacity under blind flips
// (docs/models.md §4.4, §4.17) against two other models: with σ = 0 the fluctuating model's sweep
// gives the fixed capacity's blind values, and a capacity that never binds (m - σ >= n + 2) gives
// blind perfect memory's, both for the values and the score distribution; float64 agrees with the
// rationals.
func TestFluctBlindIdentities(t *testing.T) {
	ctx := context.Background()
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
	}
	blind := rules.Variant{Flips: rules.FlipsBlind}
	type idCase struct {
		m, sigma, n int
		want        rules.Memory // the memory whose blind values the fluctuating one must equal
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		cases := []idCase{
			{3, 0, 6, rules.Memory{Capacity: 3, Forget: forget}},
			{10, 2, 6, rules.Memory{}}, // m - σ = n + 2: never binds
		}
		if forget == rules.ForgetLRU {
			cases = append(cases, idCase{2, 0, 5, rules.Memory{Capacity: 2, Forget: forget}})
		}
		if !testing.Short() {
			cases = append(cases, idCase{4, 0, 8, rules.Memory{Capacity: 4, Forget: forget}}, idCase{12, 3, 7, rules.Memory{}})
		}
		for _, mu := range lineups {
			for _, tc := range cases {
				mem := rules.Memory{Capacity: tc.m, Forget: forget, Fluctuation: tc.sigma}
				name := fmt.Sprintf("%s σ=%d/%s-%s/n=%d", mem, tc.sigma, mu.Policy, mu.Opponent, tc.n)
				st := rules.State{N: tc.n, J: tc.n}
				m := Model{Memory: mem, Variant: blind}
				got, err := evaluateFluct(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := Evaluate(ctx, field.Rat{}, Model{Memory: tc.want, Variant: blind}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
					t.Errorf("%s: lead %s, blind %s gives %s", name, got.ExpectedLead.FloatString(12), tc.want, want.ExpectedLead.FloatString(12))
				}
				fl, err := evaluateFluct(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if r, _ := got.ExpectedLead.Float64(); math.Abs(fl.ExpectedLead-r) > 1e-12 {
					t.Errorf("%s: float64 lead %.15f, rational %.15f", name, fl.ExpectedLead, r)
				}
				// The score distribution, every score's probability.
				gotD, err := fluctDistribution(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: distribution: %v", name, err)
				}
				wantD, err := Distribution(ctx, field.Rat{}, Model{Memory: tc.want, Variant: blind}, mu, st)
				if err != nil {
					t.Fatalf("%s: distribution: %v", name, err)
				}
				for i := range wantD.Prob {
					if gotD.Prob[i].Cmp(wantD.Prob[i]) != 0 {
						t.Errorf("%s: P(score %d/2) = %s, blind %s gives %s", name, i, gotD.Prob[i].RatString(), tc.want, wantD.Prob[i].RatString())
					}
				}
			}
		}
	}
}
