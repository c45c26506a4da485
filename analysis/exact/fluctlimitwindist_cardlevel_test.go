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

// TestFluctLimitWinDistributionMatchesCardPlay plays every deal of three pairs card by card under
// a fluctuating capacity (lru(2) and handover-uniform(2), σ 1) cut after the turn limit, the
// policies read from the solver's tables by capacity, turns left and lead, and compares the
// probability that seat 0 ends exactly l pairs further ahead with the exact distribution's, for
// every l: card play started x pairs ahead, with every role reading its table at its true lead
// (x taken off), draws exactly when the true final lead is -x. Under pass rules never and
// two-known, from leads 0 and 1. It also checks that the distribution's win, draw and loss are
// WinDrawLoss's and, in exact rationals at a limit of three turns, that they add up to 1 and that
// the shares' means are the seats' expected pairs (exact.Evaluate).
func TestFluctLimitWinDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyWinBestResponse},
	}
	forgets := []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform}
	passes := []rules.PassRule{rules.PassNever, rules.PassTwoKnown}
	limits := []int{2, 3}
	leads := []int{0, 1}
	if testing.Short() {
		forgets, passes, limits, leads, lineups = forgets[:1], passes[1:], []int{3}, []int{0}, lineups[:1]
	}
	const n = 3
	for _, forget := range forgets {
		for _, pass := range passes {
			for _, limit := range limits {
				mem := rules.Memory{Capacity: 2, Forget: forget, Fluctuation: 1}
				m := exact.Model{Memory: mem, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				for _, mu := range lineups {
					roles := flwRoles(t, m, mu, n, false)
					for _, lead := range leads {
						st := rules.State{N: n, J: n, Lead: lead}
						name := fmt.Sprintf("%s/%s/limit=%d/%s-%s/%v", mem, pass, limit, mu.Policy, mu.Opponent, st)
						got, d, err := exact.FluctLimitWinLeads(ctx, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						for x := -n; x <= n; x++ {
							var shifted [2]func(rules.State, int, int, bool) rules.Choice
							for r := range 2 {
								s := x * (1 - 2*r) // role r's own lead is x more than its true lead
								shifted[r] = func(st rules.State, c, left int, afterPass bool) rules.Choice {
									st.Lead -= s
									return roles[r](st, c, left, afterPass)
								}
							}
							play := &fwPlayer{lru: forget == rules.ForgetLRU, m: 2, sigma: 1, pass: pass, limited: true, left: shifted, memo: map[string]fwVal{}}
							want := play.value(flPosition(n, 0), 0, lead+x, limit).draw
							l := -x - lead // the lead taken in the rest of the game
							if l < -n || l > n {
								if want > 1e-12 {
									t.Errorf("%s: card play ends %d pairs further ahead with probability %.12f, beyond the deal", name, l, want)
								}
								continue
							}
							if math.Abs(got[n+l]-want) > 1e-9 {
								t.Errorf("%s: P(%d pairs further ahead): card play %.12f, exact %.12f", name, l, want, got[n+l])
							}
						}
						wdl, err := exact.WinDrawLoss(ctx, field.Float{}, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if math.Abs(d.Win-wdl[0].Win) > 1e-9 || math.Abs(d.Draw-wdl[0].Draw) > 1e-9 || math.Abs(d.Loss-wdl[0].Loss) > 1e-9 {
							t.Errorf("%s: distribution's win/draw/loss %.12f %.12f %.12f, WinDrawLoss %.12f %.12f %.12f", name, d.Win, d.Draw, d.Loss, wdl[0].Win, wdl[0].Draw, wdl[0].Loss)
						}
						if !testing.Short() && limit == 3 && lead == 0 {
							fluctLimitWinDistSums(t, name, m, mu, st)
						}
					}
				}
			}
		}
	}
}

// fluctLimitWinDistSums checks, in exact rationals, that the score distribution's win, draw and
// loss add up to 1, that they are WinDrawLoss's, that each seat's shares add up to 1 and that
// their means are the seats' expected pairs (exact.Evaluate).
func fluctLimitWinDistSums(t *testing.T, name string, m exact.Model, mu exact.Lineup, st rules.State) {
	t.Helper()
	ctx := context.Background()
	d, err := exact.Distribution(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	v, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	wdl, err := exact.WinDrawLoss(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	one := big.NewRat(1, 1)
	if sum := new(big.Rat).Add(d.Win, new(big.Rat).Add(d.Draw, d.Loss)); sum.Cmp(one) != 0 {
		t.Errorf("%s: win, draw and loss add up to %s", name, sum.RatString())
	}
	if d.Win.Cmp(wdl[0].Win) != 0 || d.Draw.Cmp(wdl[0].Draw) != 0 || d.Loss.Cmp(wdl[0].Loss) != 0 {
		t.Errorf("%s: distribution's win/draw/loss %s %s %s, WinDrawLoss %s %s %s", name, d.Win.RatString(), d.Draw.RatString(), d.Loss.RatString(),
			wdl[0].Win.RatString(), wdl[0].Draw.RatString(), wdl[0].Loss.RatString())
	}
	for s := range 2 {
		mean, sum := new(big.Rat), new(big.Rat)
		for i, p := range d.SeatProb(s) {
			sum.Add(sum, p)
			mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
		}
		if sum.Cmp(one) != 0 || mean.Cmp(v.PairsBySeat[s]) != 0 {
			t.Errorf("%s: seat %d's shares add up to %s with mean %s, expected pairs %s", name, s, sum.RatString(), mean.RatString(), v.PairsBySeat[s].RatString())
		}
	}
}
