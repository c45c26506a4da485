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

// flRoles returns the card-level choices of optimal, safe, daring, parity and best-response to reply
// under the fluctuating capacity of model m in deals of at most n pairs, read from the solver's
// tables by the capacity drawn.
func flRoles(t *testing.T, m exact.Model, n int, reply rules.Policy) map[rules.Policy]func(rules.State, int) rules.Choice {
	t.Helper()
	ctx := context.Background()
	opt, err := exact.FluctTable(ctx, field.Float{}, m, n)
	if err != nil {
		t.Fatal(err)
	}
	br, err := exact.FluctReplyTable(ctx, field.Float{}, m, reply, n)
	if err != nil {
		t.Fatal(err)
	}
	read := func(tab *rules.ChoiceTable) func(rules.State, int) rules.Choice {
		return func(st rules.State, c int) rules.Choice {
			ch, ok := tab.LookupCapacity(st, false, c)
			if !ok {
				t.Fatalf("%s: no choice in %v with capacity %d", m.Memory, st, c)
			}
			return ch
		}
	}
	fixed := func(p rules.Policy) func(rules.State, int) rules.Choice {
		return func(st rules.State, _ int) rules.Choice { return p.Decide(st) }
	}
	return map[rules.Policy]func(rules.State, int) rules.Choice{
		rules.PolicyOptimal: read(opt), rules.PolicyBestResponse: read(br),
		rules.PolicySafe: fixed(rules.PolicySafe), rules.PolicyDaring: fixed(rules.PolicyDaring),
		rules.PolicyParity: fixed(rules.PolicyParity)}
}

// flPosition returns a card-level position of n pairs of which k have one card remembered.
func flPosition(n, k int) *flGame {
	g := newFlDeal(n, nil)
	for i := range k {
		g.mem = append(g.mem, 2*i)
	}
	return g
}

// TestFluctuationChoiceValuesMatchCardPlay plays every legal choice of seat 0 card by card in
// small positions with every capacity drawn, the lineup afterwards, and compares seat 0's lead
// with the exact choice values, for optimal, fixed policies (parity too) and best-response (to
// parity too).
func TestFluctuationChoiceValuesMatchCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicyOptimal, rules.PolicySafe},
		{rules.PolicyBestResponse, rules.PolicySafe}, {rules.PolicyDaring, rules.PolicyBestResponse},
	}
	// parity after the turn, and best-response to parity.
	parity := [][2]rules.Policy{{rules.PolicyOptimal, rules.PolicyParity}, {rules.PolicyParity, rules.PolicyBestResponse}}
	type ccase struct {
		forget      rules.Forgetting
		m, sigma, n int
		lineups     [][2]rules.Policy
	}
	cases := []ccase{
		{rules.ForgetLRU, 2, 1, 3, append(lineups, parity...)},
		{rules.ForgetHandoverUniform, 2, 1, 3, lineups},
		{rules.ForgetHandoverUniform, 3, 2, 3, lineups},
	}
	if !testing.Short() {
		cases = append(cases, ccase{rules.ForgetHandoverUniform, 3, 2, 3, parity})
	}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem}
		for _, pair := range tc.lineups {
			reply := pair[1]
			if pair[1] == rules.PolicyBestResponse {
				reply = pair[0]
			}
			roles := flRoles(t, m, tc.n, reply)
			mu := exact.Lineup{Players: 2, Policy: pair[0], Opponent: pair[1]}
			// The first choice of seat 0 is forced; every later position is memoised, the same
			// whatever the first choice.
			force, own := rules.Choice(0), roles[pair[0]]
			first := false
			pl := &flPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, memo: map[string][2]float64{},
				choose: [2]func(rules.State, int) rules.Choice{func(s rules.State, c int) rules.Choice {
					if first {
						first = false
						return force
					}
					return own(s, c)
				}, roles[pair[1]]}}
			for c := max(2, tc.m-tc.sigma); c <= tc.m+tc.sigma; c++ {
				for k := 1; k <= min(tc.n, c); k++ {
					st := rules.State{N: tc.n, J: tc.n - k}
					name := fmt.Sprintf("%s/%s-%s/%v/c=%d", mem, pair[0], pair[1], st, c)
					got, err := exact.FluctChoiceValues(ctx, field.Float{}, m, mu, st, c)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for _, v := range got.Values {
						force, first = v.Choice, true
						want, tail := pl.turn(flPosition(tc.n, k), 0, 18, c)
						if d := math.Abs(want - v.Lead); d > float64(tc.n)*tail+1e-9 {
							t.Errorf("%s: %s: exact lead %.12f, card play %.12f (unfinished %.2g)", name, v.Choice, v.Lead, want, tail)
						}
					}
				}
			}
		}
	}
}

// TestFluctuationDistributionMatchesCardPlay plays small deals card by card under a fluctuating
// capacity and compares the expectation of z to the power of seat 0's final lead, for a few z,
// with the exact score distribution's, which determines it.
func TestFluctuationDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicyOptimal, rules.PolicySafe},
		{rules.PolicyBestResponse, rules.PolicyDaring}, {rules.PolicySafe, rules.PolicyDaring},
	}
	// parity against optimal, and best-response to parity.
	parity := [][2]rules.Policy{{rules.PolicyParity, rules.PolicyOptimal}, {rules.PolicyBestResponse, rules.PolicyParity}}
	zs := []float64{0.5, -1, 2}
	type dcase struct {
		forget             rules.Forgetting
		m, sigma, n, depth int
		lineups            [][2]rules.Policy
		zs                 []float64
		reply              rules.Policy // the policy best-response replies to
	}
	cases := []dcase{
		{rules.ForgetLRU, 2, 1, 3, 18, lineups, zs, rules.PolicyDaring},
		{rules.ForgetHandoverUniform, 2, 1, 3, 18, lineups, zs, rules.PolicyDaring},
		{rules.ForgetHandoverUniform, 3, 2, 3, 18, lineups, zs, rules.PolicyDaring},
		{rules.ForgetLRU, 3, 1, 4, 14, lineups[1:2], zs[2:3], rules.PolicyDaring}, // a pair taken first draws a capacity that binds
		{rules.ForgetLRU, 2, 1, 3, 18, parity, zs[:2], rules.PolicyParity},
	}
	if !testing.Short() {
		cases = append(cases, dcase{rules.ForgetHandoverUniform, 2, 1, 3, 18, parity, zs, rules.PolicyParity},
			dcase{rules.ForgetLRU, 3, 1, 4, 14, parity[1:], zs[2:3], rules.PolicyParity})
	}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem}
		roles := flRoles(t, m, tc.n, tc.reply)
		for _, pair := range tc.lineups {
			name := fmt.Sprintf("%s/%s-%s/n=%d", mem, pair[0], pair[1], tc.n)
			mu := exact.Lineup{Players: 2, Policy: pair[0], Opponent: pair[1]}
			d, err := exact.Distribution(ctx, field.Float{}, m, mu, rules.State{N: tc.n, J: tc.n})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, z := range tc.zs {
				want := 0.0
				for i, p := range d.Prob {
					want += p * math.Pow(z, float64(i-tc.n))
				}
				pl := &flPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, z: z, memo: map[string][2]float64{},
					choose: [2]func(rules.State, int) rules.Choice{roles[pair[0]], roles[pair[1]]}}
				got, tail := pl.value(flPosition(tc.n, 0), 0, tc.depth)
				bound := math.Pow(max(math.Abs(z), 1/math.Abs(z)), float64(tc.n))
				if diff := math.Abs(got - want); diff > bound*tail+1e-9 {
					t.Errorf("%s: E[z^lead] at z = %g: card play %.12f (unfinished %.2g), exact distribution %.12f", name, z, got, tail, want)
				}
			}
		}
	}
}
