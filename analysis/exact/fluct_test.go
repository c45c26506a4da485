package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctuationIdentities checks, in exact rationals, that the fluctuating capacity's model with
// σ = 0 gives the fixed capacity's values (docs/models.md §4.4), that a capacity that never binds
// gives perfect memory's, and that float64 agrees with the rationals.
func TestFluctuationIdentities(t *testing.T) {
	ctx := context.Background()
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, mu := range lineups {
			for _, tc := range []struct {
				m, sigma, n int
				want        rules.Memory // the memory whose values the fluctuating one must equal
			}{
				{2, 0, 6, rules.Memory{Capacity: 2, Forget: forget}},
				{4, 0, 7, rules.Memory{Capacity: 4, Forget: forget}},
				{9, 2, 6, rules.Memory{}}, // m - σ = n + 1: never binds
				{12, 3, 5, rules.Memory{}},
			} {
				mem := rules.Memory{Capacity: tc.m, Forget: forget, Fluctuation: tc.sigma}
				name := fmt.Sprintf("%s σ=%d/%s-%s/n=%d", mem, tc.sigma, mu.Policy, mu.Opponent, tc.n)
				st := rules.State{N: tc.n, J: tc.n}
				got, err := evaluateFluct(ctx, field.Rat{}, Model{Memory: mem}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := Evaluate(ctx, field.Rat{}, Model{Memory: tc.want}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
					t.Errorf("%s: lead %s, %s gives %s", name, got.ExpectedLead.FloatString(12), tc.want, want.ExpectedLead.FloatString(12))
				}
				fl, err := evaluateFluct(ctx, field.Float{}, Model{Memory: mem}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if r, _ := got.ExpectedLead.Float64(); math.Abs(fl.ExpectedLead-r) > 1e-12 {
					t.Errorf("%s: float64 lead %.15f, rational %.15f", name, fl.ExpectedLead, r)
				}
			}
		}
	}
}

// TestFluctuationCapacities checks the distribution of the capacity drawn in a row against a count
// of every d in -σ .. σ.
func TestFluctuationCapacities(t *testing.T) {
	for _, tc := range []struct{ m, sigma, n int }{{5, 2, 10}, {3, 4, 10}, {5, 2, 4}, {2, 1, 1}, {7, 0, 3}} {
		want := map[int]int64{}
		for d := -tc.sigma; d <= tc.sigma; d++ {
			want[min(max(2, tc.m+d), tc.n+1)]++
		}
		got := fluctCaps(rules.Memory{Capacity: tc.m, Fluctuation: tc.sigma}, tc.n)
		if len(got) != len(want) {
			t.Errorf("m=%d σ=%d n=%d: capacities %v, want %v", tc.m, tc.sigma, tc.n, got, want)
			continue
		}
		for _, cp := range got {
			if !cp.p.Equal(Frac{want[cp.c], int64(2*tc.sigma + 1)}) {
				t.Errorf("m=%d σ=%d n=%d: P(capacity %d) = %s, want %d/%d", tc.m, tc.sigma, tc.n, cp.c, cp.p, want[cp.c], 2*tc.sigma+1)
			}
		}
	}
}
