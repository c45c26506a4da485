package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// playFirst plays choice ch as seat 0's turn in g, a position after the draw of capacity c with no
// pair known whole, with left turns left (this one included) and the lineup afterwards: its lead
// (or with seat0 its pairs) and the probability left unfinished.
func (p *flPlayer) playFirst(g *flGame, c, left int, ch rules.Choice, afterPass bool) (float64, float64) {
	for i := range g.old {
		g.old[i] = slices.Contains(g.mem, i)
	}
	return p.play(g, 0, left, c, ch, afterPass)
}

// TestFluctLimitChoiceValuesMatchCardPlay plays every legal first choice of seat 0 card by card,
// over every deal, in positions of 2 and 3 pairs with k cards remembered after the draw of every
// capacity (lru(3) and handover-uniform(3), σ 1), cut after the turn limit (1 to 5 turns), the
// lineup afterwards, and compares seat 0's lead and pairs with exact.FluctChoiceValues (and
// exact.FluctChoiceValuesAfterPass under pass rule two-known): the lead against the optimum and
// best replies found card by card, the pairs against the solver's tables played card by card.
func TestFluctLimitChoiceValuesMatchCardPlay(t *testing.T) {
	ctx := context.Background()
	limits, sizes := []int{1, 2, 3, 4, 5}, []int{2, 3}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicySafe}, {rules.PolicyDaring, rules.PolicyBestResponse},
		{rules.PolicyOptimal, rules.PolicyParity},
	}
	if testing.Short() {
		limits, sizes, lineups = []int{3}, []int{3}, lineups[:3]
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
			for _, n := range sizes {
				for _, limit := range limits {
					mem := rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 1}
					m := exact.Model{Memory: mem, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
					for _, lu := range lineups {
						mu := exact.Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
						player := func(byTable bool) *flPlayer {
							pl := &flPlayer{lru: forget == rules.ForgetLRU, m: 3, sigma: 1, pass: pass, memo: map[string][2]float64{}, seat0: byTable}
							for r, p := range lu {
								switch {
								case p.Fixed():
									pl.chooseLeft[r] = func(st rules.State, _, _ int, _ bool) rules.Choice { return p.Decide(st) }
								case !byTable && (p == rules.PolicyBestResponse || lu[1-r] == rules.PolicyOptimal):
									pl.maximise[r] = true
								default:
									pl.chooseLeft[r] = flLimitChooser(t, m, exact.Lineup{Players: 2, Policy: p, Opponent: lu[1-r]}, n)
								}
							}
							return pl
						}
						byLead, byPairs := player(false), player(true)
						for c := 2; c <= 4; c++ {
							for k := 0; k <= min(n, 3); k++ {
								if forget == rules.ForgetLRU && k > c {
									continue
								}
								for _, afterPass := range []bool{false, true} {
									if afterPass && pass == rules.PassNever {
										continue
									}
									st := rules.State{N: n, J: n - k}
									name := fmt.Sprintf("%s/%s/%s-%s/%v/c=%d/limit=%d/after-pass=%t", mem, pass, lu[0], lu[1], st, c, limit, afterPass)
									values := exact.FluctChoiceValues[float64]
									if afterPass {
										values = exact.FluctChoiceValuesAfterPass[float64]
									}
									got, err := values(ctx, field.Float{}, m, mu, st, c)
									if err != nil {
										t.Fatalf("%s: %v", name, err)
									}
									for _, v := range got.Values {
										lead, _ := byLead.playFirst(flPosition(n, k), c, limit, v.Choice, afterPass)
										if math.Abs(lead-v.Lead) > 1e-9 {
											t.Errorf("%s: %s: exact lead %.12f, card play %.12f", name, v.Choice, v.Lead, lead)
										}
										pairs, _ := byPairs.playFirst(flPosition(n, k), c, limit, v.Choice, afterPass)
										if math.Abs(pairs-v.Pairs) > 1e-9 {
											t.Errorf("%s: %s: exact pairs of seat 0 %.12f, card play %.12f", name, v.Choice, v.Pairs, pairs)
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
}

// TestFluctLimitChoiceValuesAverageToTheValue checks, in exact rationals, that the value of the
// lineup's own choice after each capacity drawn (max(2, m + d), d uniform on -σ .. σ; lru keeps
// the last c known cards), averaged over the draw, is the state's value before the draw
// (exact.Evaluate); that the best choice's lead is the optimum's; and that no choice's lead
// exceeds the optimum's.
func TestFluctLimitChoiceValuesAverageToTheValue(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicyDaring}, {rules.PolicyOptimal, rules.PolicySafe},
	}
	sizes, limits := []int{2, 3, 4}, []int{1, 3, 6}
	if testing.Short() {
		sizes, limits, lineups = []int{3}, []int{3}, lineups[:2]
	}
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
			for _, limit := range limits {
				const base, sigma = 3, 2
				m := exact.Model{Memory: rules.Memory{Capacity: base, Forget: forget, Fluctuation: sigma}, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}
				for _, lu := range lineups {
					mu := exact.Lineup{Players: 2, Policy: lu[0], Opponent: lu[1]}
					for _, n := range sizes {
						for k := 0; k <= min(n, base+sigma); k++ {
							st := rules.State{N: n, J: n - k}
							name := fmt.Sprintf("%s/%s/%s-%s/%v/limit=%d", m.Memory, pass, lu[0], lu[1], st, limit)
							want, err := exact.Evaluate(ctx, f, m, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							lead, pairs := new(big.Rat), new(big.Rat)
							w := big.NewRat(1, 2*sigma+1)
							for d := -sigma; d <= sigma; d++ {
								c := max(2, base+d)
								drawn := st
								if forget == rules.ForgetLRU && k > c {
									drawn.J = n - c
								}
								got, err := exact.FluctChoiceValues(ctx, f, m, mu, drawn, c)
								if err != nil {
									t.Fatalf("%s c=%d: %v", name, c, err)
								}
								lead.Add(lead, new(big.Rat).Mul(w, got.Value.ExpectedLead))
								pairs.Add(pairs, new(big.Rat).Mul(w, got.Value.ExpectedPairs))
								if lu[0] != rules.PolicyOptimal || lu[1] != rules.PolicyOptimal {
									continue
								}
								for _, v := range got.Values {
									if v.Lead.Cmp(got.Value.ExpectedLead) > 0 {
										t.Errorf("%s c=%d: %s's lead %s exceeds the optimum's %s", name, c, v.Choice, v.Lead.RatString(), got.Value.ExpectedLead.RatString())
									}
									if v.Best != (v.Lead.Cmp(got.Value.ExpectedLead) == 0) {
										t.Errorf("%s c=%d: %s marked best %t with lead %s, the optimum's %s", name, c, v.Choice, v.Best, v.Lead.RatString(), got.Value.ExpectedLead.RatString())
									}
								}
							}
							if lead.Cmp(want.ExpectedLead) != 0 || pairs.Cmp(want.ExpectedPairs) != 0 {
								t.Errorf("%s: lead %s pairs %s averaged over the draw, %s %s before it", name, lead.RatString(), pairs.RatString(), want.ExpectedLead.RatString(), want.ExpectedPairs.RatString())
							}
						}
					}
				}
			}
		}
	}
}
