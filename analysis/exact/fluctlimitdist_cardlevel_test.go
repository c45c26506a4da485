package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctLimitDistributionMatchesCardPlay plays every deal of 2 and 3 pairs card by card under a
// fluctuating capacity (lru(3) and handover-uniform(3), σ 1) cut after the turn limit (1 to 5
// turns) and compares the expectation of z to the power of seat 0's pairs, and of seat 1's, for a
// few z, with the exact score distribution's shares (Prob and Prob1), which determine them: the
// solver's tables (the optimum and best replies) and fixed policies played card by card, under pass rules never
// and two-known. It also checks, in exact rationals, that win, draw and loss add up to 1 and that
// the shares' means are the seats' expected pairs (exact.Evaluate).
func TestFluctLimitDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	limits, sizes := []int{1, 2, 3, 4, 5}, []int{2, 3}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicySafe}, {rules.PolicyParity, rules.PolicyBestResponse},
	}
	zs := []float64{0.5, 2, 3}
	if testing.Short() {
		limits, sizes = []int{4}, []int{3}
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
			for _, n := range sizes {
				for _, limit := range limits {
					mem := rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 1}
					m := exact.Model{Memory: mem, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
					for _, lu := range lineups {
						name := fmt.Sprintf("%s/%s/%s-%s/n=%d/limit=%d", mem, pass, lu[0], lu[1], n, limit)
						mu := exact.Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
						st := rules.State{N: n, J: n}
						d, err := exact.Distribution(ctx, field.Rat{}, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						v, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						sum := new(big.Rat).Add(d.Win, new(big.Rat).Add(d.Draw, d.Loss))
						if sum.Cmp(big.NewRat(1, 1)) != 0 {
							t.Errorf("%s: win, draw and loss add up to %s", name, sum.RatString())
						}
						for s := range 2 {
							mean := new(big.Rat)
							for i, p := range d.SeatProb(s) {
								mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
							}
							if mean.Cmp(v.PairsBySeat[s]) != 0 {
								t.Errorf("%s: seat %d's mean share %s, expected pairs %s", name, s, mean.RatString(), v.PairsBySeat[s].RatString())
							}
						}
						for _, z := range zs {
							for s := range 2 {
								want := 0.0
								for i, p := range d.SeatProb(s) {
									x, _ := p.Float64()
									want += x * math.Pow(z, float64(i)/2)
								}
								pl := &flPlayer{lru: forget == rules.ForgetLRU, m: 3, sigma: 1, pass: pass, memo: map[string][2]float64{}, shares: true, zs: [2]float64{1, 1}}
								pl.zs[s] = z
								for r, p := range lu {
									switch {
									case p.Fixed():
										pl.chooseLeft[r] = func(st rules.State, _, _ int, _ bool) rules.Choice { return p.Decide(st) }
									default:
										pl.chooseLeft[r] = flLimitChooser(t, m, exact.Lineup{Players: 2, Policy: p, Opponent: lu[1-r]}, n)
									}
								}
								g := flPosition(n, 0)
								got, _ := pl.value(g, 0, limit)
								if math.Abs(got-want) > 1e-9*math.Max(1, want) {
									t.Errorf("%s: E[z^share of seat %d] at z = %g: card play %.12f, exact distribution %.12f", name, s, z, got, want)
								}
							}
						}
					}
				}
			}
		}
	}
}
