package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctuationPassIdentities checks, in exact rationals, that under the pass rules two-known
// and always the fluctuating capacity's model with σ = 0 gives the fixed capacity's values under
// the same pass rule, that a capacity that never binds gives perfect memory's, and that float64
// and the score distribution agree with them.
func TestFluctuationPassIdentities(t *testing.T) {
	ctx := context.Background()
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			for _, mu := range lineups {
				for _, tc := range []struct {
					m, sigma, n int
					want        rules.Memory // the memory whose values the fluctuating one must equal
				}{
					{2, 0, 5, rules.Memory{Capacity: 2, Forget: forget}},
					{3, 0, 5, rules.Memory{Capacity: 3, Forget: forget}},
					{8, 2, 5, rules.Memory{}}, // m - σ = n + 1: never binds
				} {
					mem := rules.Memory{Capacity: tc.m, Forget: forget, Fluctuation: tc.sigma}
					name := fmt.Sprintf("%s σ=%d pass %s/%s-%s/n=%d", mem, tc.sigma, pass, mu.Policy, mu.Opponent, tc.n)
					st := rules.State{N: tc.n, J: tc.n}
					m := Model{Memory: mem, Pass: pass}
					got, err := evaluateFluct(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					want, err := Evaluate(ctx, field.Rat{}, Model{Memory: tc.want, Pass: pass}, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
						t.Errorf("%s: lead %s, %s gives %s", name, got.ExpectedLead.FloatString(12), tc.want, want.ExpectedLead.FloatString(12))
					}
					fl, err := evaluateFluct(ctx, field.Float{}, m, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if r, _ := got.ExpectedLead.Float64(); math.Abs(fl.ExpectedLead-r) > 1e-12 {
						t.Errorf("%s: float64 lead %.15f, rational %.15f", name, fl.ExpectedLead, r)
					}
					d, err := Distribution(ctx, field.Float{}, m, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					wd, err := Distribution(ctx, field.Float{}, Model{Memory: tc.want, Pass: pass}, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for i := range wd.Prob {
						if math.Abs(d.Prob[i]-wd.Prob[i]) > 1e-12 {
							t.Errorf("%s: P(lead %d) = %.15f, %s gives %.15f", name, i-tc.n, d.Prob[i], tc.want, wd.Prob[i])
						}
					}
				}
			}
		}
	}
}

// TestFluctuationPassRefusals checks that what the fluctuating capacity does not solve under a
// pass rule is refused with an error, not computed under another rule, and that a state just
// after a pass is refused under pass rule never.
func TestFluctuationPassRefusals(t *testing.T) {
	ctx := context.Background()
	m := Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}, Pass: rules.PassAlways}
	st := rules.State{N: 3, J: 3}
	two := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	m.Pass = rules.PassNever
	if _, err := FluctChoiceValuesAfterPass(ctx, field.Float{}, m, two, st, 3); err == nil {
		t.Error("choice values just after a pass under pass rule never: no error")
	}
}
