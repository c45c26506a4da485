package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSingletonsDistributionIdentities checks the score distribution of singletons under a
// fluctuating handover-uniform capacity in exact rationals, under every pass rule: its mean lead
// is Evaluate's expected lead; with σ = 0 it is the fixed capacity's distribution
// (husinglesdist.go), and with no singletons the pairs-only fluctuating model's (fluctdist.go),
// probability by probability.
func TestFluctSingletonsDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	pairs, lineups, passes := 3, fsIdentityLineups[:2], []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	if testing.Short() {
		pairs, lineups, passes = 2, lineups[:1], passes[1:2]
	}
	for _, pass := range passes {
		for _, mu := range lineups {
			t.Run(fmt.Sprintf("%s/%s-%s", pass, mu.Policy, mu.Opponent), func(t *testing.T) {
				m := fluctSinglesModel(2, 3, 1)
				m.Pass = pass
				fixed := husModel(2, 3)
				fixed.Pass = pass
				zero := fixed
				zero.Memory.Fluctuation = 0
				pm := Model{Memory: rules.Memory{Capacity: 3, Fluctuation: 2, Forget: rules.ForgetHandoverUniform}, Pass: pass}
				for j := 0; j <= pairs; j++ {
					st := rules.State{N: pairs, J: j, S: 2, F: 1}
					d, err := Distribution(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					v, err := Evaluate(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					mean, total := new(big.Rat), new(big.Rat)
					for i, p := range d.Prob {
						total.Add(total, p)
						mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i-st.N), 1)))
					}
					if total.Cmp(big.NewRat(1, 1)) != 0 || mean.Cmp(v.ExpectedLead) != 0 {
						t.Errorf("%v: total %s, mean lead %s, Evaluate %s", st, total.RatString(), mean.RatString(), v.ExpectedLead.RatString())
					}
					if st.Known() <= 3 {
						got, err := fluctSinglesDistribution(ctx, field.Rat{}, zero, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						want, err := Distribution(ctx, field.Rat{}, fixed, mu, st)
						if err != nil {
							t.Fatal(err)
						}
						sameDist(t, fmt.Sprintf("σ = 0 %v", st), got.Prob, want.Prob)
					}
					if testing.Short() {
						continue // the pairs-only distribution under a pass rule is slow to solve
					}
					pst := rules.State{N: pairs, J: j}
					got, err := fluctSinglesDistribution(ctx, field.Rat{}, pm, mu, pst)
					if err != nil {
						t.Fatal(err)
					}
					want, err := Distribution(ctx, field.Rat{}, pm, mu, pst)
					if err != nil {
						t.Fatal(err)
					}
					sameDist(t, fmt.Sprintf("no singletons %v", pst), got.Prob, want.Prob)
				}
			})
		}
	}
}

// sameDist reports every probability of got that differs from want's.
func sameDist(t *testing.T, what string, got, want []*big.Rat) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d leads, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if got[i].Cmp(want[i]) != 0 {
			t.Errorf("%s: P(lead index %d) %s, want %s", what, i, got[i].RatString(), want[i].RatString())
		}
	}
}
