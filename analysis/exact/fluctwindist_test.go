package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctuationWinDistributionIdentities checks, in exact rationals and under every pass rule,
// the score distribution of the matchups in which a role plays to win under a fluctuating
// capacity: with σ = 0 it is the fixed capacity's distribution exactly; with σ > 0 its
// probabilities are probabilities adding up to 1, and the win, draw and loss probabilities and the
// expected lead read off it are those the win objective's own sweep gives (WinDrawLoss, Evaluate)
// exactly; float64 agrees with the rationals.
func TestFluctuationWinDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	type memCase struct {
		mem  rules.Memory
		want rules.Memory // with σ = 0, the fixed memory whose distribution it must equal
		n    int
		pass rules.PassRule
	}
	var cases []memCase
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for i, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			if pass != rules.PassNever && (pass == rules.PassTwoKnown) != (i == 0) {
				continue // one forgetting rule per pass rule: two-known with lru, always with handover-uniform
			}
			n := 4
			if testing.Short() {
				n = 3
			}
			cases = append(cases,
				memCase{rules.Memory{Capacity: 2, Forget: forget}, rules.Memory{Capacity: 2, Forget: forget}, n, pass},
				memCase{rules.Memory{Capacity: 2, Forget: forget, Fluctuation: 1}, rules.Memory{}, n, pass},
			)
			if pass == rules.PassNever && (!testing.Short() || forget == rules.ForgetLRU) {
				// Capacities 2 to 5 in four pairs: under lru a turn that takes a pair known whole
				// draws a second capacity below the cards still known.
				cases = append(cases, memCase{rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 2}, rules.Memory{}, 4, pass})
			}
			if !testing.Short() && pass == rules.PassNever {
				cases = append(cases, memCase{rules.Memory{Capacity: 3, Forget: forget}, rules.Memory{Capacity: 3, Forget: forget}, n, pass})
			}
		}
	}
	lineups := fluctWinLineups
	leads := []int{0, 1, -2}
	if testing.Short() {
		lineups = []Lineup{fluctWinLineups[0], fluctWinLineups[4]}
		leads = []int{-1}
	}
	for _, tc := range cases {
		m := Model{Memory: tc.mem, Pass: tc.pass}
		for _, mu := range lineups {
			for _, lead := range leads {
				st := rules.State{N: tc.n, J: tc.n, Lead: lead}
				name := fmt.Sprintf("%s σ=%d pass %s/%s-%s/%v", tc.mem, tc.mem.Fluctuation, tc.pass, mu.Policy, mu.Opponent, st)
				got, err := fluctWinDistribution(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(got.Prob) != 2*tc.n+1 {
					t.Fatalf("%s: %d probabilities, want %d", name, len(got.Prob), 2*tc.n+1)
				}
				if tc.mem.Fluctuation == 0 {
					want, err := Distribution(ctx, field.Rat{}, Model{Memory: tc.want, Pass: tc.pass}, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for i := range got.Prob {
						if got.Prob[i].Cmp(want.Prob[i]) != 0 {
							t.Errorf("%s: P(share %d/2) = %s, %s gives %s", name, i, got.Prob[i].RatString(), tc.want, want.Prob[i].RatString())
						}
					}
					continue
				}
				sum, lead := new(big.Rat), new(big.Rat)
				for i, p := range got.Prob {
					if p.Sign() < 0 {
						t.Errorf("%s: P(share %d/2) = %s < 0", name, i, p.RatString())
					}
					sum.Add(sum, p)
					lead.Add(lead, new(big.Rat).Mul(p, big.NewRat(int64(i-tc.n), 1)))
				}
				if sum.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%s: the probabilities add up to %s", name, sum.RatString())
				}
				wdl, err := fluctWinDrawLoss(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got.Win.Cmp(wdl[0].Win) != 0 || got.Draw.Cmp(wdl[0].Draw) != 0 || got.Loss.Cmp(wdl[0].Loss) != 0 {
					t.Errorf("%s: the distribution's win/draw/loss %s %s %s, the win values %s %s %s", name,
						got.Win.RatString(), got.Draw.RatString(), got.Loss.RatString(),
						wdl[0].Win.RatString(), wdl[0].Draw.RatString(), wdl[0].Loss.RatString())
				}
				res, err := evaluateFluctWin(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if lead.Cmp(res.ExpectedLead) != 0 {
					t.Errorf("%s: the distribution's expected lead %s, the win values' %s", name, lead.RatString(), res.ExpectedLead.RatString())
				}
				fl, err := fluctWinDistribution(ctx, field.Float{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for i, p := range got.Prob {
					if x, _ := p.Float64(); math.Abs(fl.Prob[i]-x) > 1e-12 {
						t.Errorf("%s: P(share %d/2): float64 %.15f, rational %.15f", name, i, fl.Prob[i], x)
					}
				}
			}
		}
	}
}
