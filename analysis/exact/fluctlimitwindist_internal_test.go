package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctLimitWinDistributionWithoutFluctuationIsTheLimitModel checks that the score
// distribution of a role playing to win under a fluctuating capacity and a turn limit, computed
// with σ = 0 (every turn draws the base capacity), is exactly the fixed-capacity limit model's:
// both seats' shares, win, draw and loss, lru and handover-uniform, pass rules never and
// two-known.
func TestFluctLimitWinDistributionWithoutFluctuationIsTheLimitModel(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	limits := []int{2, 4}
	lineups := [][2]rules.Policy{{rules.PolicyWinOptimal, rules.PolicyWinOptimal}, {rules.PolicyWinBestResponse, rules.PolicySafe}}
	if testing.Short() {
		limits, lineups = []int{1}, lineups[:1]
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
			if testing.Short() && (forget != rules.ForgetLRU || pass != rules.PassTwoKnown) {
				continue
			}
			for _, limit := range limits {
				m := Model{Memory: rules.Memory{Capacity: 2, Forget: forget}, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				for _, lu := range lineups {
					mu := Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
					st := rules.State{N: 3, J: 3, Lead: 1}
					name := fmt.Sprintf("%s %s limit %d %s-%s %v", m.Memory, pass, limit, lu[0], lu[1], st)
					want, err := Distribution(ctx, f, m, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got, err := fluctLimitWinDistribution(ctx, f, m, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for i := range want.Prob {
						if got.Prob[i].Cmp(want.Prob[i]) != 0 || got.Prob1[i].Cmp(want.Prob1[i]) != 0 {
							t.Errorf("%s: share %d/2: fluct %s and %s, limit model %s and %s", name, i,
								got.Prob[i].RatString(), got.Prob1[i].RatString(), want.Prob[i].RatString(), want.Prob1[i].RatString())
						}
					}
					if got.Win.Cmp(want.Win) != 0 || got.Draw.Cmp(want.Draw) != 0 || got.Loss.Cmp(want.Loss) != 0 {
						t.Errorf("%s: win/draw/loss fluct %s %s %s, limit model %s %s %s", name, got.Win.RatString(), got.Draw.RatString(), got.Loss.RatString(),
							want.Win.RatString(), want.Draw.RatString(), want.Loss.RatString())
					}
				}
			}
		}
	}
}
