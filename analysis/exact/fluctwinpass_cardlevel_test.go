package exact_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctuationWinPassMatchesCardPlay plays deals of three pairs card by card (fwPlayer) under a
// fluctuating capacity and the pass rules two-known and always, every turn, a pass turn included,
// drawing its capacity, from the start at every lead and after every capacity drawn with every
// legal choice, without and with a pass just made, and compares seat 0's win, draw and loss
// probabilities and expected lead with the exact model's: the policies read from the solver's
// tables (the choices just after a pass included), and the score of the policies that play to
// win against a search card by card that maximises it at every position.
func TestFluctuationWinPassMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyWinOptimal},
	}
	type memCase struct {
		forget  rules.Forgetting
		pass    rules.PassRule
		lineups []int // the lineups played, by index (nil: every one)
	}
	var cases []memCase
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			cases = append(cases, memCase{forget, pass, nil})
		}
	}
	leads := []int{-1, 0, 1}
	if testing.Short() {
		// Every rule, and every lineup once.
		// Each pass rule and each forgetting once, with a reply that passes in these deals.
		cases = []memCase{{rules.ForgetHandoverUniform, rules.PassTwoKnown, []int{1}}, {rules.ForgetLRU, rules.PassAlways, []int{2}}}
		leads = []int{0, 1}
	}
	const n, m, sigma, depth = 3, 2, 1, 18
	// passed[pass rule]: a table passes somewhere in its deals, so that the engine's path through a
	// pass is checked (every choice's value checks the pass wherever it is legal).
	passed := map[rules.PassRule]*bool{rules.PassTwoKnown: new(bool), rules.PassAlways: new(bool)}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: m, Forget: tc.forget, Fluctuation: sigma}
		model := exact.Model{Memory: mem, Pass: tc.pass}
		for i, mu := range lineups {
			if tc.lineups != nil && !slices.Contains(tc.lineups, i) {
				continue
			}
			play := &fwPlayer{lru: tc.forget == rules.ForgetLRU, m: m, sigma: sigma, pass: tc.pass,
				choose: fwRoles(t, model, mu, n, false, passed[tc.pass]), memo: map[string]fwVal{}}
			// The search bounds the score from below and from above.
			var search [2]*fwPlayer
			for i := range search {
				search[i] = &fwPlayer{lru: play.lru, m: m, sigma: sigma, pass: tc.pass, cut: float64(i),
					choose: fwRoles(t, model, mu, n, true, passed[tc.pass]), memo: map[string]fwVal{}}
			}
			searched := mu.Policy.PlaysToWin()
			bracket := func(name string, want float64, value func(p *fwPlayer) fwVal) {
				lo, hi := value(search[0]).score(0, 0), value(search[1]).score(0, 1)
				// Looked at deep enough, the bounds are close (under lru against safe, games that
				// forget and see cards again last longest: the bounds are 1.3e-3 apart there).
				if want < lo-1e-9 || want > hi+1e-9 || hi-lo > 2e-3 {
					t.Errorf("%s: exact score %.12f, the search card by card between %.12f and %.12f", name, want, lo, hi)
				}
			}
			for lead := -n; lead <= n; lead++ {
				if testing.Short() && lead != -n && lead != 0 && lead != 1 {
					continue // the short form starts lost, level and one ahead
				}
				st := rules.State{N: n, J: n, Lead: lead}
				name := fmt.Sprintf("%s pass %s/%s-%s/%v", mem, tc.pass, mu.Policy, mu.Opponent, st)
				wdl, err := exact.WinDrawLoss(ctx, field.Float{}, model, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				res, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := play.value(flPosition(n, 0), 0, lead, depth)
				tol := n*got.tail + 1e-9
				if math.Abs(got.win-wdl[0].Win) > tol || math.Abs(got.draw-wdl[0].Draw) > tol || math.Abs(got.lead-res.ExpectedLead) > tol {
					t.Errorf("%s: card play win %.12f draw %.12f lead %.12f (unfinished %.2g), exact %.12f %.12f %.12f",
						name, got.win, got.draw, got.lead, got.tail, wdl[0].Win, wdl[0].Draw, res.ExpectedLead)
				}
				if searched {
					bracket(name, wdl[0].Score(field.Float{}), func(p *fwPlayer) fwVal { return p.value(flPosition(n, 0), 0, lead, depth) })
				}
			}
			// Every legal choice now, with every capacity drawn, at every lead, without and with a
			// pass just made; under handover-uniform the known cards may exceed the capacity drawn
			// (the hand-over forgets down to it).
			for c := max(2, m-sigma); c <= m+sigma; c++ {
				top := min(n, c)
				if tc.forget == rules.ForgetHandoverUniform {
					top = min(n, m+sigma)
				}
				for k := 0; k <= top; k++ {
					for li, lead := range leads {
						if testing.Short() && (li+k+c)%2 != 0 {
							continue // the short form takes the leads in turn
						}
						for _, afterPass := range []bool{false, true} {
							st := rules.State{N: n, J: n - k, Lead: lead}
							name := fmt.Sprintf("%s pass %s/%s-%s/%v/c=%d/after a pass %t", mem, tc.pass, mu.Policy, mu.Opponent, st, c, afterPass)
							values := exact.FluctWinChoiceValues[float64]
							if afterPass {
								values = exact.FluctWinChoiceValuesAfterPass[float64]
							}
							pairs, win, err := values(ctx, field.Float{}, model, mu, st, c)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							for i, v := range win.Values {
								g := flPosition(n, k)
								if _, done := play.prepare(g, 0, lead, depth, c); done {
									t.Fatalf("%s: a pair known whole in the position", name)
								}
								got := play.play(g, 0, lead, depth, c, v.Choice, afterPass)
								tol := n*got.tail + 1e-9
								if math.Abs(got.win-v.Win) > tol || math.Abs(got.draw-v.Draw) > tol || math.Abs(got.lead-pairs.Values[i].Lead) > tol {
									t.Errorf("%s: %s: card play win %.12f draw %.12f lead %.12f (unfinished %.2g), exact %.12f %.12f %.12f",
										name, v.Choice, got.win, got.draw, got.lead, got.tail, v.Win, v.Draw, pairs.Values[i].Lead)
								}
							}
							if !searched {
								continue
							}
							// The policy's own choice is worth the most, by the search.
							v, _ := win.Of(win.PolicyChoice)
							bracket(fmt.Sprintf("%s: %s", name, win.PolicyChoice), v.Score, func(p *fwPlayer) fwVal {
								g := flPosition(n, k)
								g.passed = afterPass
								return p.turn(g, 0, lead, depth, c)
							})
						}
					}
				}
			}
		}
	}
	for pass, ok := range passed {
		if !*ok {
			t.Errorf("pass rule %s: no table passes in these deals, so a pass read off a table is not checked", pass)
		}
	}
}
