package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctBlindPassIdentities checks, in exact rationals, the fluctuating capacity under blind
// flips and the pass rules two-known and always (docs/models.md §4.4, §4.17) against two other
// models under the same pass rule, for the lineups whose values do not depend on how the
// optimum breaks a tie (the optimum itself, fixed policies, best-response; the optimum against
// a fixed policy may pass or play where both are worth the same to it, and the two solvers need
// not choose alike): with σ = 0 the fluctuating model's sweep gives the fixed
// capacity's blind values, and a capacity that never binds (m - σ >= n + 2) gives blind perfect
// memory's, for the values and, where no seat chooses among equal values (fixed policies: the
// optimum's choices on a tie, a pass or a turn worth the same, are the solver's own), the score
// distribution; float64 agrees with the rationals.
func TestFluctBlindPassIdentities(t *testing.T) {
	ctx := context.Background()
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
	}
	type idCase struct {
		forget      rules.Forgetting
		m, sigma, n int
		pass        rules.PassRule
		want        rules.Memory // the memory whose blind values the fluctuating one must equal
	}
	cases := []idCase{
		{rules.ForgetLRU, 3, 0, 5, rules.PassAlways, rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}},
		{rules.ForgetHandoverUniform, 8, 1, 5, rules.PassTwoKnown, rules.Memory{}}, // m - σ = n + 2: never binds
	}
	if testing.Short() {
		lineups = lineups[:2]
	} else {
		lineups = append(lineups, Lineup{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicySafe}, Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring})
		cases = append(cases,
			idCase{rules.ForgetHandoverUniform, 3, 0, 6, rules.PassAlways, rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}},
			idCase{rules.ForgetLRU, 2, 0, 5, rules.PassTwoKnown, rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}},
			idCase{rules.ForgetHandoverUniform, 4, 0, 7, rules.PassTwoKnown, rules.Memory{Capacity: 4, Forget: rules.ForgetHandoverUniform}},
			idCase{rules.ForgetLRU, 9, 2, 5, rules.PassAlways, rules.Memory{}})
	}
	blind := rules.Variant{Flips: rules.FlipsBlind}
	for _, mu := range lineups {
		for _, tc := range cases {
			mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
			name := fmt.Sprintf("%s σ=%d pass %s/%s-%s/n=%d", mem, tc.sigma, tc.pass, mu.Policy, mu.Opponent, tc.n)
			st := rules.State{N: tc.n, J: tc.n}
			m := Model{Memory: mem, Variant: blind, Pass: tc.pass}
			ref := Model{Memory: tc.want, Variant: blind, Pass: tc.pass}
			got, err := evaluateFluct(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := Evaluate(ctx, field.Rat{}, ref, mu, st)
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
			if !mu.Policy.Fixed() || !mu.Opponent.Fixed() {
				continue
			}
			gotD, err := fluctDistribution(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatalf("%s: distribution: %v", name, err)
			}
			wantD, err := Distribution(ctx, field.Rat{}, ref, mu, st)
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
