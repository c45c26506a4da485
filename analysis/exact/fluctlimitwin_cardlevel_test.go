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

// flwRoles returns the card-level choices of lineup mu's roles under the fluctuating capacity and
// turn limit of m, read from the solver's tables (exact.FluctLimitTables) by the capacity drawn,
// the turns left, the mover's lead and the pass flag; nil for a role that plays to win when
// searched is set (it then maximises its score card by card).
func flwRoles(t *testing.T, m exact.Model, mu exact.Lineup, n int, searched bool) [2]func(rules.State, int, int, bool) rules.Choice {
	t.Helper()
	var out [2]func(rules.State, int, int, bool) rules.Choice
	for r, p := range [2]rules.Policy{mu.Policy, mu.Opponent} {
		other := mu.Opponent
		if r == 1 {
			other = mu.Policy
		}
		switch {
		case p.PlaysToWin() && searched:
		case p.PlaysToWin() || p == rules.PolicyOptimal:
			seen := exact.Lineup{Players: 2, Policy: p, Opponent: other}
			if p == rules.PolicyOptimal {
				seen.Opponent = rules.PolicyOptimal
			}
			lo, layers, err := exact.FluctLimitTables(context.Background(), field.Float{}, m, seen, n)
			if err != nil {
				t.Fatal(err)
			}
			out[r] = func(st rules.State, c, left int, afterPass bool) rules.Choice {
				ch, ok := layers[min(max(c-lo, 0), len(layers)-1)][left-1].Lookup(st, afterPass)
				if !ok {
					t.Fatalf("%s: no choice in %v with capacity %d and %d turns left", m.Memory, st, c, left)
				}
				return ch
			}
		default:
			out[r] = func(st rules.State, _, _ int, _ bool) rules.Choice { return p.Decide(st) }
		}
	}
	return out
}

// TestFluctLimitWinMatchesCardPlay plays every deal of three pairs card by card under a
// fluctuating capacity (lru(2) and handover-uniform(2), σ 1) cut after the turn limit, the game
// then decided by the lead so far, and compares seat 0's win, draw and loss probabilities and
// expected lead with the exact model's, from the start at several leads and for every legal first
// choice after every capacity drawn: the policies read from the solver's tables by capacity, turns
// left and lead, and the score of the policies that play to win against a search card by card
// that maximises it at every position (win-optimal: both seats; win-best-response: its seat),
// under pass rules never and two-known.
func TestFluctLimitWinMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyWinBestResponse},
	}
	forgets := []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform}
	passes := []rules.PassRule{rules.PassNever, rules.PassTwoKnown}
	limits := []int{2, 3, 5}
	leads := []int{-1, 0, 1}
	if testing.Short() {
		limits, leads = []int{3}, []int{0, 1}
	}
	const n = 3
	for _, forget := range forgets {
		for _, pass := range passes {
			for _, limit := range limits {
				mem := rules.Memory{Capacity: 2, Forget: forget, Fluctuation: 1}
				m := exact.Model{Memory: mem, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				for i, mu := range lineups {
					if testing.Short() && (i+int(forget)+int(pass))%3 != 0 {
						continue
					}
					lru := forget == rules.ForgetLRU
					play := &fwPlayer{lru: lru, m: 2, sigma: 1, pass: pass, limited: true,
						left: flwRoles(t, m, mu, n, false), memo: map[string]fwVal{}}
					search := &fwPlayer{lru: lru, m: 2, sigma: 1, pass: pass, limited: true,
						left: flwRoles(t, m, mu, n, true), memo: map[string]fwVal{}}
					searched := mu.Policy.PlaysToWin()
					for _, lead := range leads {
						st := rules.State{N: n, J: n, Lead: lead}
						name := fmt.Sprintf("%s/%s/limit=%d/%s-%s/%v", mem, pass, limit, mu.Policy, mu.Opponent, st)
						wdl, err := exact.WinDrawLoss(ctx, field.Float{}, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						res, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						got := play.value(flPosition(n, 0), 0, lead, limit)
						if math.Abs(got.win-wdl[0].Win) > 1e-9 || math.Abs(got.draw-wdl[0].Draw) > 1e-9 || math.Abs(got.lead-res.ExpectedLead) > 1e-9 {
							t.Errorf("%s: card play win %.12f draw %.12f lead %.12f, exact %.12f %.12f %.12f",
								name, got.win, got.draw, got.lead, wdl[0].Win, wdl[0].Draw, res.ExpectedLead)
						}
						if searched {
							if s := search.value(flPosition(n, 0), 0, lead, limit).score(0, 0); math.Abs(s-wdl[0].Score(field.Float{})) > 1e-9 {
								t.Errorf("%s: exact score %.12f, the search card by card %.12f", name, wdl[0].Score(field.Float{}), s)
							}
						}
					}
					// Every legal choice now, with every capacity drawn, without and with a pass just made.
					flags := []bool{false}
					if pass != rules.PassNever {
						flags = append(flags, true)
					}
					for _, c := range []int{2, 3} {
						for k := 1; k <= min(n, c); k++ {
							for _, afterPass := range flags {
								lead := 1
								st := rules.State{N: n, J: n - k, Lead: lead}
								name := fmt.Sprintf("%s/%s/limit=%d/%s-%s/%v/c=%d/after-pass=%t", mem, pass, limit, mu.Policy, mu.Opponent, st, c, afterPass)
								valuesOf := exact.FluctWinChoiceValues[float64]
								if afterPass {
									valuesOf = exact.FluctWinChoiceValuesAfterPass[float64]
								}
								pairs, win, err := valuesOf(ctx, field.Float{}, m, mu, st, c)
								if err != nil {
									t.Fatalf("%s: %v", name, err)
								}
								for i, v := range win.Values {
									g := flPosition(n, k)
									if _, done := play.prepare(g, 0, lead, limit, c); done {
										t.Fatalf("%s: a pair known whole in the position", name)
									}
									got := play.play(g, 0, lead, limit, c, v.Choice, afterPass)
									if math.Abs(got.win-v.Win) > 1e-9 || math.Abs(got.draw-v.Draw) > 1e-9 || math.Abs(got.lead-pairs.Values[i].Lead) > 1e-9 {
										t.Errorf("%s: %s: card play win %.12f draw %.12f lead %.12f, exact %.12f %.12f %.12f",
											name, v.Choice, got.win, got.draw, got.lead, v.Win, v.Draw, pairs.Values[i].Lead)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}
