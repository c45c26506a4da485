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

// flPassRoles returns the card-level choosers of optimal, best-response to reply, safe and daring
// under the fluctuating capacity of model m (a pass rule), reading the tables with the pass flag,
// and reports through passes whether the tables pass anywhere.
func flPassRoles(t *testing.T, m exact.Model, n int, reply rules.Policy) (map[rules.Policy]func(rules.State, int, bool) rules.Choice, *bool) {
	t.Helper()
	ctx := context.Background()
	opt, err := exact.FluctTable(ctx, field.Float{}, m, n)
	if err != nil {
		t.Fatal(err)
	}
	br, err := exact.FluctReplyTable(ctx, field.Float{}, m, reply, n)
	if err != nil {
		t.Fatal(err)
	}
	passes := new(bool)
	read := func(tab *rules.ChoiceTable) func(rules.State, int, bool) rules.Choice {
		return func(st rules.State, c int, afterPass bool) rules.Choice {
			ch, ok := tab.LookupCapacity(st, afterPass, c)
			if !ok {
				t.Fatalf("%s: no choice in %v with capacity %d (after a pass: %t)", m.Memory, st, c, afterPass)
			}
			*passes = *passes || ch == rules.Pass
			return ch
		}
	}
	fixed := func(p rules.Policy) func(rules.State, int, bool) rules.Choice {
		return func(st rules.State, _ int, _ bool) rules.Choice { return p.Decide(st) }
	}
	return map[rules.Policy]func(rules.State, int, bool) rules.Choice{
		rules.PolicyOptimal: read(opt), rules.PolicyBestResponse: read(br),
		rules.PolicySafe: fixed(rules.PolicySafe), rules.PolicyDaring: fixed(rules.PolicyDaring)}, passes
}

// TestFluctuationPassMatchesCardPlay plays small deals card by card under a fluctuating capacity
// and the pass rules two-known and always, with every capacity drawn (a pass turn's included),
// and compares seat 0's lead and the generating function of its lead distribution with the exact
// model's, for the optimum's and best-response's tables and fixed policies.
func TestFluctuationPassMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicyOptimal, rules.PolicySafe},
		{rules.PolicyDaring, rules.PolicyOptimal}, {rules.PolicyBestResponse, rules.PolicySafe},
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		passed := false
		for _, tc := range []struct {
			forget             rules.Forgetting
			m, sigma, n, depth int
		}{
			{rules.ForgetLRU, 2, 1, 3, 18},
			{rules.ForgetHandoverUniform, 2, 1, 3, 18},
			{rules.ForgetHandoverUniform, 3, 2, 3, 18},
		} {
			mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
			m := exact.Model{Memory: mem, Pass: pass}
			roles, passes := flPassRoles(t, m, tc.n, rules.PolicySafe)
			for _, pair := range lineups {
				name := fmt.Sprintf("%s pass %s/%s-%s/n=%d", mem, pass, pair[0], pair[1], tc.n)
				mu := exact.Lineup{Players: 2, Policy: pair[0], Opponent: pair[1]}
				want, err := exact.Evaluate(ctx, field.Float{}, m, mu, rules.State{N: tc.n, J: tc.n})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				d, err := exact.Distribution(ctx, field.Float{}, m, mu, rules.State{N: tc.n, J: tc.n})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for _, z := range []float64{0, 2} {
					pl := &flPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, z: z, memo: map[string][2]float64{},
						choosePass: [2]func(rules.State, int, bool) rules.Choice{roles[pair[0]], roles[pair[1]]}}
					got, tail := pl.value(flPosition(tc.n, 0), 0, tc.depth)
					exp, bound := want.ExpectedLead, float64(tc.n)
					if z != 0 {
						exp = 0
						for i, p := range d.Prob {
							exp += p * math.Pow(z, float64(i-tc.n))
						}
						bound = math.Pow(z, float64(tc.n))
					}
					if diff := math.Abs(got - exp); diff > bound*tail+1e-9 {
						t.Errorf("%s, z = %g: card play %.12f (unfinished %.2g), exact %.12f", name, z, got, tail, exp)
					}
				}
			}
			passed = passed || *passes
		}
		if !passed {
			t.Errorf("pass rule %s: no table passes in these deals, so the pass is not checked", pass)
		}
	}
}
