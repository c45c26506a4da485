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

// TestFluctuationPassChoiceValuesIdentities checks, in exact rationals, each choice's values under
// a fluctuating capacity and the pass rules two-known and always, without and with a pass just
// made: with σ = 0 they are the fixed capacity's under the same pass rule (just after a pass the
// turns' values are unchanged and a pass is a stalemate, lead 0); the lineup's values after every
// capacity drawn average, with the capacities' probabilities, to its value before the draw; the
// lineup's value is its own choice's, and the optimum's is the largest; a pass in (n, k, c) is
// worth minus the other seat's value just after a pass in (n, min(k, c)) before its draw (the
// lineup swapped, averaged over its draw), k > c included under handover-uniform; and float64
// agrees with the rationals.
func TestFluctuationPassChoiceValuesIdentities(t *testing.T) {
	ctx := context.Background()
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyBestResponse},
	}
	cases := []struct{ m, sigma, n, k int }{{2, 0, 4, 1}, {3, 0, 4, 2}, {2, 1, 4, 2}, {3, 2, 4, 3}}
	if testing.Short() {
		lineups, cases = lineups[:3], cases[1:]
	}
	// Under -short every lineup meets every case once over the pass rules and forgettings, not
	// at each of them: skip reports the combinations left to the long run.
	skip := func(pi, fi, li, ci int) bool {
		return testing.Short() && (pi*2+fi+li+ci)%len(cases) != 0
	}
	values := func(m Model, mu Lineup, st rules.State, c int, after bool) Choices[*big.Rat] {
		t.Helper()
		var cs Choices[*big.Rat]
		var err error
		if after {
			cs, err = FluctChoiceValuesAfterPass(ctx, field.Rat{}, m, mu, st, c)
		} else {
			cs, err = FluctChoiceValues(ctx, field.Rat{}, m, mu, st, c)
		}
		if err != nil {
			t.Fatalf("%s pass %s %s-%s %v c=%d after a pass %t: %v", m.Memory, m.Pass, mu.Policy, mu.Opponent, st, c, after, err)
		}
		return cs
	}
	for pi, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for fi, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			for li, mu := range lineups {
				swapped := Lineup{Players: 2, Policy: mu.Opponent, Opponent: mu.Policy}
				for ci, tc := range cases {
					if skip(pi, fi, li, ci) {
						continue
					}
					mem := rules.Memory{Capacity: tc.m, Forget: forget, Fluctuation: tc.sigma}
					m := Model{Memory: mem, Pass: pass}
					st := rules.State{N: tc.n, J: tc.n - tc.k}
					name := fmt.Sprintf("%s σ=%d pass %s/%s-%s/%v", mem, tc.sigma, pass, mu.Policy, mu.Opponent, st)
					before, err := Evaluate(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					caps := fluctCaps(mem, tc.n)
					avg := new(big.Rat)
					for _, cp := range caps {
						for _, after := range []bool{false, true} {
							at := fmt.Sprintf("%s c=%d after a pass %t", name, cp.c, after)
							// lru forgets down to c at the draw.
							k := tc.k
							if forget == rules.ForgetLRU {
								k = min(k, cp.c)
							}
							drawn := rules.State{N: tc.n, J: tc.n - k}
							got := values(m, mu, drawn, cp.c, after)
							if !after {
								avg.Add(avg, new(big.Rat).Mul(big.NewRat(cp.p.Num, cp.p.Den), got.Value.ExpectedLead))
							}
							own, ok := got.Of(got.PolicyChoice)
							if !ok || own.Lead.Cmp(got.Value.ExpectedLead) != 0 {
								t.Errorf("%s: the lineup's value is not its choice %s's", at, got.PolicyChoice)
							}
							if mu.Policy == rules.PolicyOptimal || mu.Policy == rules.PolicyBestResponse {
								for _, v := range got.Values {
									if v.Lead.Cmp(own.Lead) > 0 {
										t.Errorf("%s: %s leads by %s, more than %s's %s", at, v.Choice, v.Lead.FloatString(12), own.Choice, own.Lead.FloatString(12))
									}
								}
							}
							fl, err := floatChoiceValues(ctx, m, mu, drawn, cp.c, after)
							if err != nil {
								t.Fatalf("%s: %v", at, err)
							}
							for i, v := range got.Values {
								if r, _ := v.Lead.Float64(); math.Abs(fl.Values[i].Lead-r) > 1e-12 {
									t.Errorf("%s %s: float64 lead %.15f, rational %.15f", at, v.Choice, fl.Values[i].Lead, r)
								}
							}
							if pv, ok := got.Of(rules.Pass); ok {
								want := new(big.Rat)
								if !after {
									// The other seat moves just after the pass, before its draw.
									kept := min(k, cp.c)
									for _, cq := range caps {
										k2 := kept
										if forget == rules.ForgetLRU {
											k2 = min(k2, cq.c)
										}
										other := values(m, swapped, rules.State{N: tc.n, J: tc.n - k2}, cq.c, true)
										want.Sub(want, new(big.Rat).Mul(big.NewRat(cq.p.Num, cq.p.Den), other.Value.ExpectedLead))
									}
								}
								if pv.Lead.Cmp(want) != 0 {
									t.Errorf("%s: a pass leads by %s, the other seat's value after it gives %s", at, pv.Lead.FloatString(12), want.FloatString(12))
								}
							}
							if tc.sigma > 0 {
								continue
							}
							fixed, err := ChoiceValues(ctx, field.Rat{}, Model{Memory: rules.Memory{Capacity: tc.m, Forget: forget}, Pass: pass}, mu, drawn)
							if err != nil {
								t.Fatalf("%s: %v", at, err)
							}
							if len(fixed.Values) != len(got.Values) {
								t.Fatalf("%s: %d choices, the fixed capacity %d", at, len(got.Values), len(fixed.Values))
							}
							for i, v := range got.Values {
								w := fixed.Values[i].Lead
								if after && v.Choice == rules.Pass {
									w = new(big.Rat) // a pass answered by a pass: a stalemate
								}
								if v.Choice != fixed.Values[i].Choice || v.Lead.Cmp(w) != 0 {
									t.Errorf("%s: %s lead %s, the fixed capacity's %s %s", at, v.Choice, v.Lead.FloatString(12), fixed.Values[i].Choice, w.FloatString(12))
								}
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
}

// floatChoiceValues is the float64 FluctChoiceValues, or just after a pass
// FluctChoiceValuesAfterPass.
func floatChoiceValues(ctx context.Context, m Model, mu Lineup, st rules.State, c int, after bool) (Choices[float64], error) {
	if after {
		return FluctChoiceValuesAfterPass(ctx, field.Float{}, m, mu, st, c)
	}
	return FluctChoiceValues(ctx, field.Float{}, m, mu, st, c)
}
