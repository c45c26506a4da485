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

// A check of the fluctuating capacity under blind flips and the pass rules two-known and always
// (docs/models.md §4.4, §4.5, §4.17) against play card by card: flPlayer with blind set and the
// pass rule, every capacity drawn at every turn (a pass turn's included), the tables read with
// the pass flag.

// TestFluctBlindPassMatchesCardPlay plays deals of three pairs card by card and compares seat 0's
// lead and the generating function of its lead's distribution (at z = 2) with the exact model's,
// for the optimum's and best-response's tables and fixed policies, both ways of naming safe's
// remembered card under lru; the optimum found card by card (each mover maximising its own lead
// over the legal choices, a pass included) against the optimum's value; and every legal choice's
// value of seat 0, without and with a pass just made, in every state of three pairs after every
// capacity drawn, the choice played card by card once and both seats optimal afterwards.
func TestFluctBlindPassMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	opt, safe, daring, br := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	lineups := [][2]rules.Policy{{opt, opt}, {daring, safe}, {opt, safe}, {daring, opt}, {br, safe}}
	type fcase struct {
		forget      rules.Forgetting
		m, sigma, n int
		pass        rules.PassRule
	}
	cases := []fcase{
		{rules.ForgetLRU, 2, 1, 3, rules.PassTwoKnown},
	}
	short := testing.Short()
	if short {
		lineups = lineups[:2] // the values and distributions of the optimum and of daring (two pairs handed over) against safe
	} else {
		cases = append(cases, fcase{rules.ForgetLRU, 2, 1, 3, rules.PassAlways},
			fcase{rules.ForgetHandoverUniform, 2, 1, 3, rules.PassTwoKnown},
			fcase{rules.ForgetHandoverUniform, 3, 2, 3, rules.PassAlways})
	}
	const depth = 18
	passed, beyond := map[rules.PassRule]bool{}, false
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem, Pass: tc.pass, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		roles, passes := flPassRoles(t, m, tc.n, safe)
		start := rules.State{N: tc.n, J: tc.n}
		tol := func(bound, tail float64) float64 { return bound*tail + 1e-9 }
		picks := []bool{false}
		if tc.forget == rules.ForgetLRU {
			picks = append(picks, true) // under lru safe's named card may be the one a new card evicts
		}
		for _, pickNewest := range picks {
			for _, pair := range lineups {
				name := fmt.Sprintf("%s pass %s/%s-%s/n=%d/newest=%t", mem, tc.pass, pair[0], pair[1], tc.n, pickNewest)
				mu := exact.Lineup{Players: 2, Policy: pair[0], Opponent: pair[1]}
				want, err := exact.Evaluate(ctx, field.Float{}, m, mu, start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				d, err := exact.Distribution(ctx, field.Float{}, m, mu, start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for _, z := range []float64{0, 2} {
					pl := &flPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, z: z, pass: tc.pass,
						blind: true, pickNewest: pickNewest, memo: map[string][2]float64{},
						choosePass: [2]func(rules.State, int, bool) rules.Choice{roles[pair[0]], roles[pair[1]]}}
					got, tail := pl.value(newFlDeal(tc.n, nil), 0, depth)
					exp, bound := want.ExpectedLead, float64(tc.n)
					if z != 0 {
						exp = 0
						for i, p := range d.Prob {
							exp += p * math.Pow(z, float64(i-tc.n))
						}
						bound = math.Pow(z, float64(tc.n))
					}
					if diff := math.Abs(got - exp); diff > tol(bound, tail) {
						t.Errorf("%s, z = %g: card play %.12f (unfinished %.2g), exact %.12f", name, z, got, tail, exp)
					}
				}
			}
		}
		passed[tc.pass] = passed[tc.pass] || *passes
		if short {
			// Every choice's value with the largest capacity drawn, no pass just made.
			checkFluctBlindPassChoices(t, ctx, m, tc.n, depth, roles[opt], true)
			continue
		}
		// The optimum card by card.
		name := fmt.Sprintf("%s pass %s/card-level optimum/n=%d", mem, tc.pass, tc.n)
		pl := &flPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, pass: tc.pass, blind: true,
			maximise: [2]bool{true, true}, memo: map[string][2]float64{}}
		got, tail := pl.value(newFlDeal(tc.n, nil), 0, depth)
		mu := exact.Lineup{Players: 2, Policy: opt, Opponent: opt}
		want, err := exact.Evaluate(ctx, field.Float{}, m, mu, start)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := math.Abs(got - want.ExpectedLead); diff > tol(float64(tc.n), tail) {
			t.Errorf("%s: card play %.12f (unfinished %.2g), exact %.12f", name, got, tail, want.ExpectedLead)
		}
		beyond = checkFluctBlindPassChoices(t, ctx, m, tc.n, depth, roles[opt], false) || beyond
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		if _, ok := passed[pass]; ok && !passed[pass] {
			t.Errorf("pass rule %s: no table passes in these deals, so the pass is not checked", pass)
		}
	}
	if !testing.Short() && !beyond {
		t.Error("no pass valued with more known cards than the capacity drawn: the hand-over's forgetting after a pass is not checked")
	}
}

// checkFluctBlindPassChoices compares FluctChoiceValues and FluctChoiceValuesAfterPass of both
// seats optimal under model m in every state of n pairs after every capacity drawn with each
// choice played card by card once, the optimum's table (opt) afterwards, and reports whether a
// pass was valued with more known cards than the capacity drawn; one only checks the largest
// capacity drawn without a pass just made.
func checkFluctBlindPassChoices(t *testing.T, ctx context.Context, m exact.Model, n, depth int, opt func(rules.State, int, bool) rules.Choice, one bool) bool {
	t.Helper()
	mem := m.Memory
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	force, first := rules.Choice(0), false
	pl := &flPlayer{lru: mem.Forget == rules.ForgetLRU, m: mem.Capacity, sigma: mem.Fluctuation, pass: m.Pass, blind: true, memo: map[string][2]float64{},
		choosePass: [2]func(rules.State, int, bool) rules.Choice{func(s rules.State, c int, afterPass bool) rules.Choice {
			if first {
				first = false
				return force
			}
			return opt(s, c, afterPass)
		}, opt}}
	beyond := false
	lo, afters := max(2, mem.Capacity-mem.Fluctuation), []bool{false, true}
	if one {
		lo, afters = mem.Capacity+mem.Fluctuation, afters[:1]
	}
	for c := lo; c <= mem.Capacity+mem.Fluctuation; c++ {
		top := min(n, mem.Capacity+mem.Fluctuation)
		if mem.Forget == rules.ForgetLRU {
			top = min(top, c)
		}
		for k := 0; k <= top; k++ {
			for _, after := range afters {
				st := rules.State{N: n, J: n - k}
				name := fmt.Sprintf("%s pass %s/%v/c=%d/after a pass %t", mem, m.Pass, st, c, after)
				var got exact.Choices[float64]
				var err error
				if after {
					got, err = exact.FluctChoiceValuesAfterPass(ctx, field.Float{}, m, mu, st, c)
				} else {
					got, err = exact.FluctChoiceValues(ctx, field.Float{}, m, mu, st, c)
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for _, v := range got.Values {
					// The first choice of seat 0 is forced; every later position is memoised, the
					// same whatever the first choice.
					force, first = v.Choice, true
					g := flPosition(n, k)
					g.passed = after
					want, tail := pl.turn(g, 0, depth, c)
					if d := math.Abs(want - v.Lead); d > float64(n)*tail+1e-9 {
						t.Errorf("%s: %s: exact lead %.12f, card play %.12f (unfinished %.2g)", name, v.Choice, v.Lead, want, tail)
					}
					beyond = beyond || (v.Choice == rules.Pass && !after && k > c)
				}
			}
		}
	}
	return beyond
}
