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

// TestFluctuationPassChoiceValuesMatchCardPlay plays every legal choice of seat 0 card by card in
// positions of three pairs under a fluctuating capacity and the pass rules two-known and always,
// without and with a pass just made by the other seat, every capacity drawn and the lineup
// afterwards (the tables read with the pass flag), and compares seat 0's lead with the exact
// choice values. Under handover-uniform the positions hold up to m + σ known cards, more than the
// capacity drawn: a pass there hands the other seat fewer, forgotten uniformly at the hand-over.
func TestFluctuationPassChoiceValuesMatchCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicySafe, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicySafe}, {rules.PolicyDaring, rules.PolicyBestResponse},
	}
	cases := []struct {
		forget      rules.Forgetting
		m, sigma, n int
	}{
		{rules.ForgetHandoverUniform, 3, 2, 3},
		{rules.ForgetLRU, 2, 1, 3},
		{rules.ForgetHandoverUniform, 2, 1, 3},
	}
	passes := []rules.PassRule{rules.PassAlways, rules.PassTwoKnown}
	if testing.Short() {
		cases, passes, lineups = cases[:1], passes[:1], lineups[:3]
	}
	beyond := false // a pass valued with more known cards than the capacity drawn
	for _, pass := range passes {
		for _, tc := range cases {
			mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
			m := exact.Model{Memory: mem, Pass: pass}
			for _, pair := range lineups {
				reply := pair[1]
				if pair[1] == rules.PolicyBestResponse {
					reply = pair[0]
				}
				roles, _ := flPassRoles(t, m, tc.n, reply)
				mu := exact.Lineup{Players: 2, Policy: pair[0], Opponent: pair[1]}
				// The first choice of seat 0 is forced; every later position is memoised, the same
				// whatever the first choice.
				force, own := rules.Choice(0), roles[pair[0]]
				first := false
				pl := &flPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, memo: map[string][2]float64{},
					choosePass: [2]func(rules.State, int, bool) rules.Choice{func(s rules.State, c int, afterPass bool) rules.Choice {
						if first {
							first = false
							return force
						}
						return own(s, c, afterPass)
					}, roles[pair[1]]}}
				for c := max(2, tc.m-tc.sigma); c <= tc.m+tc.sigma; c++ {
					top := min(tc.n, tc.m+tc.sigma)
					if tc.forget == rules.ForgetLRU {
						top = min(top, c)
					}
					for k := 0; k <= top; k++ {
						for _, after := range []bool{false, true} {
							st := rules.State{N: tc.n, J: tc.n - k}
							name := fmt.Sprintf("%s pass %s/%s-%s/%v/c=%d/after a pass %t", mem, pass, pair[0], pair[1], st, c, after)
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
								force, first = v.Choice, true
								g := flPosition(tc.n, k)
								g.passed = after
								want, tail := pl.turn(g, 0, 18, c)
								if d := math.Abs(want - v.Lead); d > float64(tc.n)*tail+1e-9 {
									t.Errorf("%s: %s: exact lead %.12f, card play %.12f (unfinished %.2g)", name, v.Choice, v.Lead, want, tail)
								}
								beyond = beyond || (v.Choice == rules.Pass && !after && k > c)
							}
						}
					}
				}
			}
		}
	}
	if !beyond {
		t.Error("no pass valued with more known cards than the capacity drawn: the hand-over's forgetting after a pass is not checked")
	}
}
