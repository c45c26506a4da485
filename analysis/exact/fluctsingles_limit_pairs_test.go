package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSingletonsLimitWithoutSingletonsIsThePairsModel checks the turn-limited singletons
// model built with no singleton against the pairs-only fluctuating model under the same limit:
// the values before the draw in every count state and each choice's values after every capacity
// drawn (just after a pass too, under a pass rule) agree exactly.
func TestFluctSingletonsLimitWithoutSingletonsIsThePairsModel(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		pairs, capacity, limit int
		pass                   rules.PassRule
		pol                    [2]rules.Policy
		short                  bool
	}
	cases := []tc{
		{2, 2, 2, rules.PassNever, [2]rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal}, true},
		{3, 3, 5, rules.PassTwoKnown, [2]rules.Policy{rules.PolicyBestResponse, rules.PolicySafe}, false},
		{3, 3, 4, rules.PassAlways, [2]rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal}, false},
		{3, 2, 6, rules.PassNever, [2]rules.Policy{rules.PolicyDaring, rules.PolicyParity}, false},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		name := fmt.Sprintf("%d/m%d/T%d/%s/%s-%s", c.pairs, c.capacity, c.limit, c.pass, c.pol[0], c.pol[1])
		t.Run(name, func(t *testing.T) {
			mu := Lineup{Players: 2, Policy: c.pol[0], Opponent: c.pol[1]}
			m := fluctSinglesModel(0, c.capacity, 1)
			m.Pass, m.Variant.TurnLimit = c.pass, c.limit
			lo, hi := max(2, c.capacity-1), c.capacity+1
			compared := 0
			for n := 1; n <= c.pairs; n++ {
				for k := 0; k <= min(n, hi); k++ {
					st := rules.State{N: n, J: n - k}
					want, err := Evaluate(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					got, err := evaluateFluctSinglesLimit(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 || got.PairsBySeat[0].Cmp(want.PairsBySeat[0]) != 0 || got.PairsBySeat[1].Cmp(want.PairsBySeat[1]) != 0 {
						t.Errorf("%v: no singleton %v %v, pairs model %v %v", st, got.ExpectedLead, got.PairsBySeat, want.ExpectedLead, want.PairsBySeat)
					}
					for cap := lo; cap <= hi; cap++ {
						for _, after := range []bool{false, true} {
							if after && c.pass == rules.PassNever {
								continue
							}
							var wc Choices[*big.Rat]
							if after {
								wc, err = FluctChoiceValuesAfterPass(ctx, field.Rat{}, m, mu, st, cap)
							} else {
								wc, err = FluctChoiceValues(ctx, field.Rat{}, m, mu, st, cap)
							}
							if err != nil {
								t.Fatal(err)
							}
							gc, err := fsLimitChoiceValues(ctx, field.Rat{}, m, mu, st, cap, after)
							if err != nil {
								t.Fatal(err)
							}
							if len(gc.Values) != len(wc.Values) {
								t.Fatalf("%v, capacity %d, after a pass %v: choices %v, pairs model %v", st, cap, after, gc.Values, wc.Values)
							}
							for i := range gc.Values {
								g, w := gc.Values[i], wc.Values[i]
								if g.Choice != w.Choice || g.Lead.Cmp(w.Lead) != 0 || g.PairsBySeat[0].Cmp(w.PairsBySeat[0]) != 0 {
									t.Errorf("%v, capacity %d, after a pass %v: %v lead %v, pairs model %v lead %v", st, cap, after, g.Choice, g.Lead, w.Choice, w.Lead)
								}
								compared++
							}
						}
					}
				}
			}
			if compared == 0 {
				t.Error("no choice compared")
			}
		})
	}
}
