package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestLimitDistributionMatchesEveryDeal plays every deal of up to three pairs (four without
// -short) card by card under turn limits, with sequential and blind flips and fixed policies, and
// compares the share of the deals in which each seat takes each number of pairs, and seat 0 wins,
// draws or loses, with Distribution.
func TestLimitDistributionMatchesEveryDeal(t *testing.T) {
	ctx := context.Background()
	maxN := 4
	if testing.Short() {
		maxN = 3
	}
	compared := 0
	for _, blind := range []bool{false, true} {
		for _, limit := range []int{1, 2, 3, 5, 8} {
			g := variantGame{blind: blind, limit: limit}
			model := exact.Model{Variant: rules.Variant{TurnLimit: limit}}
			if blind {
				model.Variant.Flips = rules.FlipsBlind
			}
			for n := 1; n <= maxN; n++ {
				deals := dealsOf(n, 0)
				for _, pol := range fixedPolicies {
					for _, opp := range fixedPolicies {
						pols := []rules.Policy{pol, opp}
						count, count1 := make([]int64, n+1), make([]int64, n+1)
						var win, draw, loss int64
						for _, deal := range deals {
							r := playVariantDeal(deal, 2, g, func(seat int, st rules.State) rules.Choice { return pols[seat].Decide(st) })
							count[r.pairs[0]]++
							count1[r.pairs[1]]++
							switch {
							case r.pairs[0] > r.pairs[1]:
								win++
							case r.pairs[0] == r.pairs[1]:
								draw++
							default:
								loss++
							}
						}
						mu := exact.Lineup{Players: 2, Policy: pol, Opponent: opp}
						d, err := exact.Distribution[*big.Rat](ctx, field.Rat{}, model, mu, rules.State{N: n, J: n})
						if err != nil {
							t.Fatal(err)
						}
						name := fmt.Sprintf("%v, n=%d, %v vs %v", model.Variant, n, pol, opp)
						share := func(x int64) *big.Rat { return big.NewRat(x, int64(len(deals))) }
						check := func(what string, got, want *big.Rat) {
							t.Helper()
							compared++
							if got.Cmp(want) != 0 {
								t.Errorf("%s: %s = %v from Distribution, %v over every deal", name, what, got, want)
							}
						}
						for i, p := range d.Prob {
							want := new(big.Rat)
							if i%2 == 0 {
								want = share(count[i/2])
							}
							check(fmt.Sprintf("P(share %d/2)", i), p, want)
						}
						for i, p := range d.SeatProb(1) {
							want := new(big.Rat)
							if i%2 == 0 {
								want = share(count1[i/2])
							}
							check(fmt.Sprintf("P(seat 1's share %d/2)", i), p, want)
						}
						check("Win", d.Win, share(win))
						check("Draw", d.Draw, share(draw))
						check("Loss", d.Loss, share(loss))
					}
				}
			}
		}
	}
	t.Logf("compared %d probabilities with card-level play over every deal", compared)
}

// TestLimitDistributionIdentities checks, for the lineups the solver plays by choice (optimal,
// best-response, the policies that play to win) under every pass rule and both flip rules, that
// the distribution's mean is Evaluate's expected pairs and its win, draw and loss are
// WinDrawLoss's, with the turn limit and a lead so far; and that under a limit no game reaches the
// distribution is the one without a limit.
func TestLimitDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
	}
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
			if exact.RaceEnabled && pass == rules.PassAlways {
				continue // the smallest size under the race detector
			}
			for _, mu := range lineups {
				for n := 1; n <= maxN; n++ {
					for _, limit := range []int{1, 3, 2*3*n + 1} {
						model := exact.Model{Pass: pass, Variant: rules.Variant{Flips: flips, TurnLimit: limit}}
						st := rules.State{N: n, J: n - 1, Lead: -1}
						name := fmt.Sprintf("%v, pass %v, %v vs %v, %v", model.Variant, pass, mu.Policy, mu.Opponent, st)
						d, err := exact.Distribution[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						mean, total := new(big.Rat), new(big.Rat)
						for i, p := range d.Prob {
							mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
							total.Add(total, p)
						}
						if total.Cmp(big.NewRat(1, 1)) != 0 || mean.Cmp(res.ExpectedPairs) != 0 {
							t.Errorf("%s: the distribution sums to %v with mean %v; Evaluate's expected pairs %v", name, total, mean, res.ExpectedPairs)
						}
						wdl, err := exact.WinDrawLoss[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if d.Win.Cmp(wdl[0].Win) != 0 || d.Draw.Cmp(wdl[0].Draw) != 0 || d.Loss.Cmp(wdl[0].Loss) != 0 {
							t.Errorf("%s: win, draw, loss %v %v %v from the distribution, %v %v %v from WinDrawLoss", name, d.Win, d.Draw, d.Loss, wdl[0].Win, wdl[0].Draw, wdl[0].Loss)
						}
						if limit <= 3 {
							continue
						}
						model.Variant.TurnLimit = 0
						want, err := exact.Distribution[*big.Rat](ctx, field.Rat{}, model, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						for i := range want.Prob {
							if d.Prob[i].Cmp(want.Prob[i]) != 0 {
								t.Errorf("%s: P(share %d/2) = %v under the limit, %v without", name, i, d.Prob[i], want.Prob[i])
							}
						}
					}
				}
			}
		}
	}
}
