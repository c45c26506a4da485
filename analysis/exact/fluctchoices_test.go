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

// TestFluctuationChoiceValuesIdentities checks, in exact rationals, that the choices' values with
// σ = 0 are the fixed capacity's, that the values of the lineup after every capacity drawn
// average, with the capacities' probabilities, to its value before the draw, and that float64
// agrees with the rationals.
func TestFluctuationChoiceValuesIdentities(t *testing.T) {
	ctx := context.Background()
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, mu := range lineups {
			for _, tc := range []struct{ m, sigma, n, k int }{{2, 0, 4, 1}, {3, 0, 5, 2}, {3, 1, 4, 1}, {4, 2, 5, 2}} {
				mem := rules.Memory{Capacity: tc.m, Forget: forget, Fluctuation: tc.sigma}
				m := Model{Memory: mem}
				st := rules.State{N: tc.n, J: tc.n - tc.k}
				name := fmt.Sprintf("%s/%s-%s/%v", mem, mu.Policy, mu.Opponent, st)
				before, err := Evaluate(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				avg := new(big.Rat)
				for _, cp := range fluctCaps(mem, tc.n) {
					got, err := FluctChoiceValues(ctx, field.Rat{}, m, mu, st, cp.c)
					if err != nil {
						t.Fatalf("%s c=%d: %v", name, cp.c, err)
					}
					avg.Add(avg, new(big.Rat).Mul(big.NewRat(cp.p.Num, cp.p.Den), got.Value.ExpectedLead))
					fl, err := FluctChoiceValues(ctx, field.Float{}, m, mu, st, cp.c)
					if err != nil {
						t.Fatalf("%s c=%d: %v", name, cp.c, err)
					}
					for i, v := range got.Values {
						if r, _ := v.Lead.Float64(); math.Abs(fl.Values[i].Lead-r) > 1e-12 {
							t.Errorf("%s c=%d %s: float64 lead %.15f, rational %.15f", name, cp.c, v.Choice, fl.Values[i].Lead, r)
						}
					}
					if tc.sigma > 0 {
						continue
					}
					fixed, err := ChoiceValues(ctx, field.Rat{}, Model{Memory: rules.Memory{Capacity: tc.m, Forget: forget}}, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if len(fixed.Values) != len(got.Values) {
						t.Fatalf("%s: %d choices, the fixed capacity %d", name, len(got.Values), len(fixed.Values))
					}
					for i, v := range got.Values {
						if w := fixed.Values[i]; v.Choice != w.Choice || v.Lead.Cmp(w.Lead) != 0 {
							t.Errorf("%s: %s lead %s, the fixed capacity's %s %s", name, v.Choice, v.Lead.FloatString(12), w.Choice, w.Lead.FloatString(12))
						}
					}
				}
				if avg.Cmp(before.ExpectedLead) != 0 {
					t.Errorf("%s: the leads after the draw average %s, the lead before it is %s", name, avg.FloatString(12), before.ExpectedLead.FloatString(12))
				}
			}
		}
	}
}

// TestFluctuationBestResponseIdentities checks, in exact rationals, that best-response under a
// fluctuating capacity does at least as well as optimal, safe and daring against the same
// opponent, in either seat, and exactly as well as optimal against optimal.
func TestFluctuationBestResponseIdentities(t *testing.T) {
	ctx := context.Background()
	pols := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		mem := rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 1}
		m := Model{Memory: mem}
		st := rules.State{N: 6, J: 6}
		lead := func(a, b rules.Policy) *big.Rat {
			r, err := Evaluate(ctx, field.Rat{}, m, Lineup{Players: 2, Policy: a, Opponent: b}, st)
			if err != nil {
				t.Fatalf("%s %s-%s: %v", mem, a, b, err)
			}
			return r.ExpectedLead
		}
		for _, opp := range pols {
			first, second := lead(rules.PolicyBestResponse, opp), lead(opp, rules.PolicyBestResponse)
			for _, p := range pols {
				if first.Cmp(lead(p, opp)) < 0 {
					t.Errorf("%s: best-response to %s in seat 0 leads by %s, %s by %s", mem, opp, first.FloatString(12), p, lead(p, opp).FloatString(12))
				}
				if second.Cmp(lead(opp, p)) > 0 {
					t.Errorf("%s: best-response to %s in seat 1 concedes %s, %s %s", mem, opp, second.FloatString(12), p, lead(opp, p).FloatString(12))
				}
			}
			if opp == rules.PolicyOptimal && first.Cmp(lead(opp, opp)) != 0 {
				t.Errorf("%s: best-response to optimal leads by %s, optimal by %s", mem, first.FloatString(12), lead(opp, opp).FloatString(12))
			}
		}
	}
}

// TestFluctuationDistributionIdentities checks, in exact rationals, that the score distribution
// under a fluctuating capacity sums to 1 and has the matchup's lead as its mean, that with σ = 0
// it is the fixed capacity's, and that the lead so far decides win, draw and loss.
func TestFluctuationDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyBestResponse},
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, mu := range lineups {
			for _, tc := range []struct{ m, sigma, n, k, lead int }{{2, 0, 4, 1, 0}, {3, 0, 4, 2, -1}, {3, 1, 4, 1, 2}, {4, 2, 5, 0, 0}} {
				mem := rules.Memory{Capacity: tc.m, Forget: forget, Fluctuation: tc.sigma}
				st := rules.State{N: tc.n, J: tc.n - tc.k, Lead: tc.lead}
				name := fmt.Sprintf("%s/%s-%s/%v", mem, mu.Policy, mu.Opponent, st)
				d, err := Distribution(ctx, field.Rat{}, Model{Memory: mem}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sum, mean := new(big.Rat), new(big.Rat)
				win, draw := new(big.Rat), new(big.Rat)
				for i, p := range d.Prob {
					l := int64(i - tc.n)
					sum.Add(sum, p)
					mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(l, 1)))
					switch {
					case l+int64(tc.lead) > 0:
						win.Add(win, p)
					case l+int64(tc.lead) == 0:
						draw.Add(draw, p)
					}
				}
				val, err := Evaluate(ctx, field.Rat{}, Model{Memory: mem}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				switch {
				case sum.Cmp(big.NewRat(1, 1)) != 0:
					t.Errorf("%s: the distribution sums to %s", name, sum.FloatString(12))
				case mean.Cmp(val.ExpectedLead) != 0:
					t.Errorf("%s: the distribution's mean lead is %s, the lead %s", name, mean.FloatString(12), val.ExpectedLead.FloatString(12))
				case win.Cmp(d.Win) != 0 || draw.Cmp(d.Draw) != 0:
					t.Errorf("%s: win %s draw %s, the distribution gives %s and %s", name, d.Win.FloatString(12), d.Draw.FloatString(12), win.FloatString(12), draw.FloatString(12))
				}
				if tc.sigma > 0 {
					continue
				}
				fixed, err := Distribution(ctx, field.Rat{}, Model{Memory: rules.Memory{Capacity: tc.m, Forget: forget}}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for i, p := range d.Prob {
					if p.Cmp(fixed.Prob[i]) != 0 {
						t.Errorf("%s: P(share %d/2) = %s, the fixed capacity's %s", name, i, p.FloatString(12), fixed.Prob[i].FloatString(12))
					}
				}
			}
		}
	}
}
