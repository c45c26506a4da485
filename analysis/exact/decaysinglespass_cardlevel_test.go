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

// TestDecaySinglesPassIsCardLevel compares the decay model with singletons under the pass rules
// two-known and always with value iteration on the card-level turns and passes (a pass forgets
// among every remembered card, singletons included): the optimum's lead (exact rationals), safe
// against daring and the best response to safe (float64), from every state with up to 3 pairs
// (2 in short mode) and 1 or 2 singletons; the score distribution sums to 1 with the lead's mean.
func TestDecaySinglesPassIsCardLevel(t *testing.T) {
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	ctx := context.Background()
	fixed := func(p rules.Policy) func(rules.State, int) rules.Choice {
		return func(st rules.State, _ int) rules.Choice { return p.Decide(st) }
	}
	compared := 0
	for _, dc := range decaySinglesCases() {
		keep := map[[2]int]float64{{0, 1}: 0.5, {3, 2}: 0.25} // capacity, singletons: q
		if q, ok := keep[[2]int{dc.mem.Capacity, dc.singles}]; !ok || q != dc.mem.Decay {
			continue
		}
		chain, err := decaySinglesChain(dc.decayCase, maxN, dc.singles)
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			pc := passChain{chain: chain, pass: map[rules.State][]cardStep{}}
			for st := range chain {
				if rules.Legal(st, rules.Pass, rule) {
					if pc.pass[st], err = decayPassSteps(st, dc.card); err != nil {
						t.Fatal(err)
					}
				}
			}
			model := exact.Model{Memory: dc.mem, Singletons: dc.singles, Pass: rule}
			t.Run(fmt.Sprintf("%v/s=%d/%v", dc.card, dc.singles, rule), func(t *testing.T) {
				opt := pc.optimalLeads()
				self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
				for st, w := range opt[0] {
					res, err := exact.Evaluate(ctx, field.Rat{}, model, self, st)
					if err != nil {
						t.Fatal(err)
					}
					compared++
					if got, _ := res.ExpectedLead.Float64(); math.Abs(got-w) > 1e-9 {
						t.Errorf("optimal, %v: lead %v, card level %v", st, got, w)
					}
				}
				for _, lc := range []struct {
					mu     exact.Lineup
					decide [2]func(rules.State, int) rules.Choice
				}{
					{exact.Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring}, [2]func(rules.State, int) rules.Choice{fixed(rules.PolicySafe), fixed(rules.PolicyDaring)}},
					{exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}, [2]func(rules.State, int) rules.Choice{nil, fixed(rules.PolicySafe)}},
				} {
					want := pc.pairLeads(lc.decide)
					for st, w := range want[0][0] {
						res, err := exact.Evaluate(ctx, field.Float{}, model, lc.mu, st)
						if err != nil {
							t.Fatalf("%v, %v: %v", lc.mu, st, err)
						}
						compared++
						if math.Abs(res.ExpectedLead-w) > 1e-9 {
							t.Errorf("%v, %v: lead %v, card level %v", lc.mu, st, res.ExpectedLead, w)
						}
						d, err := exact.Distribution(ctx, field.Float{}, model, lc.mu, st)
						if err != nil {
							t.Fatal(err)
						}
						total, mean := 0.0, 0.0
						for i, p := range d.Prob {
							total += p
							mean += p * float64(i) / 2
						}
						if wantPairs := (float64(st.N) + w) / 2; math.Abs(total-1) > 1e-9 || math.Abs(mean-wantPairs) > 1e-9 {
							t.Errorf("%v, %v: the distribution sums to %v with mean %v; card level: mean %v", lc.mu, st, total, mean, wantPairs)
						}
					}
				}
			})
		}
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
	t.Logf("compared %d leads with the card-level iteration", compared)
}
