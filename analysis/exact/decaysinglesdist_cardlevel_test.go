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

// leadDists iterates, on the chain of card-level turns, the distribution of the mover's lead in
// the rest of the game (index l + maxN for a lead of l), choose(r, st) being the choice of role r
// (seat 0 or 1) in st: continuing shifts the mover's own distribution by its gain, handing over
// mirrors the next seat's distribution and shifts it by the pair the next seat takes.
func (ch cardChain) leadDists(maxN int, choose func(r int, st rules.State) rules.Choice) ([2]map[rules.State][]float64, error) {
	size := 2*maxN + 1
	d := [2]map[rules.State][]float64{{}, {}}
	delta := make([]float64, size)
	delta[maxN] = 1
	for r := range d {
		for st := range ch {
			d[r][st] = make([]float64, size)
		}
	}
	get := func(r int, st rules.State) ([]float64, error) {
		if st.N == 0 {
			return delta, nil
		}
		v, ok := d[r][st]
		if !ok {
			return nil, fmt.Errorf("state %v outside the chain", st)
		}
		return v, nil
	}
	for range 1_000_000 {
		change := 0.0
		for st := range ch {
			for r := range 2 {
				c := choose(r, st)
				steps, ok := ch[st][c]
				if !ok {
					return d, fmt.Errorf("state %v: no card-level turn for %v", st, c)
				}
				nv := make([]float64, size)
				for _, s := range steps {
					role, shift, mirror := r, s.key.moverGain, false
					if !s.key.cont {
						role, shift, mirror = 1-r, -s.key.nextGain, true
					}
					src, err := get(role, s.key.next)
					if err != nil {
						return d, err
					}
					for i, p := range src {
						l := i - maxN
						if mirror {
							l = -l
						}
						if k := l + shift + maxN; p != 0 {
							if k < 0 || k >= size {
								return d, fmt.Errorf("state %v: a lead of %d beyond %d pairs", st, l+shift, maxN)
							}
							nv[k] += s.p * p
						}
					}
				}
				for i := range nv {
					change = math.Max(change, math.Abs(nv[i]-d[r][st][i]))
				}
				d[r][st] = nv
			}
		}
		if change < 1e-15 {
			return d, nil
		}
	}
	return d, fmt.Errorf("the card-level distributions did not converge")
}

// TestDecaySinglesDistributionIsCardLevel compares the score distribution of the decay model
// with singletons (float64) with the lead distribution iterated on the card-level turns, from
// every state with up to 3 pairs (2 in short mode) and 1 or 2 singletons, for fixed policies, the
// optimum and the best response to safe (the card-level iteration follows the solver's policy
// tables, whose choices the other card-level tests check). In the states with the most pairs (in
// short mode at the start of the game) the exact distribution is the float64 one, sums to 1 and has Evaluate's expected pairs for mean,
// exactly.
func TestDecaySinglesDistributionIsCardLevel(t *testing.T) {
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	ctx := context.Background()
	compared := 0
	for _, dc := range decaySinglesCases() {
		short := map[[2]int]float64{{0, 2}: 0.5, {2, 1}: 0.25, {3, 2}: 0.25} // capacity, singletons: q
		if q, ok := short[[2]int{dc.mem.Capacity, dc.singles}]; testing.Short() && (!ok || q != dc.mem.Decay) {
			continue
		}
		chain, err := decaySinglesChain(dc.decayCase, maxN, dc.singles)
		if err != nil {
			t.Fatal(err)
		}
		model := exact.Model{Memory: dc.mem, Singletons: dc.singles}
		t.Run(fmt.Sprintf("%v/s=%d", dc.card, dc.singles), func(t *testing.T) {
			table := func(mu exact.Lineup) func(rules.State) rules.Choice {
				tab, err := exact.PolicyTable(ctx, field.Float{}, model, mu, maxN)
				if err != nil {
					t.Fatalf("policy table of %v: %v", mu, err)
				}
				return func(st rules.State) rules.Choice {
					c, ok := tab.Lookup(st, false)
					if !ok {
						t.Fatalf("%v: no choice in the policy table of %v", st, mu)
					}
					return c
				}
			}
			optimal := table(exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
			reply := table(exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe})
			for _, lc := range []struct {
				mu     exact.Lineup
				choose [2]func(rules.State) rules.Choice
			}{
				{exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, [2]func(rules.State) rules.Choice{optimal, optimal}},
				{exact.Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring}, [2]func(rules.State) rules.Choice{rules.PolicySafe.Decide, rules.PolicyDaring.Decide}},
				{exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}, [2]func(rules.State) rules.Choice{reply, rules.PolicySafe.Decide}},
			} {
				want, err := chain.leadDists(maxN, func(r int, st rules.State) rules.Choice { return lc.choose[r](st) })
				if err != nil {
					t.Fatalf("%v: %v", lc.mu, err)
				}
				for st, w := range want[0] {
					fl, err := exact.Distribution(ctx, field.Float{}, model, lc.mu, st)
					if err != nil {
						t.Fatalf("%v, %v (float64): %v", lc.mu, st, err)
					}
					for i, p := range fl.Prob {
						if l := i - st.N; math.Abs(p-w[l+maxN]) > 1e-9 {
							t.Errorf("%v, %v (float64): P(lead %d) = %v, card level %v", lc.mu, st, l, p, w[l+maxN])
						}
						compared++
					}
					if st.N < maxN || (testing.Short() && (st.J < st.N || st.F < st.S)) {
						continue // the exact distributions of the largest states (in short mode the start)
					}
					got, err := exact.Distribution(ctx, field.Rat{}, model, lc.mu, st)
					if err != nil {
						t.Fatalf("%v, %v: %v", lc.mu, st, err)
					}
					res, err := exact.Evaluate(ctx, field.Rat{}, model, lc.mu, st)
					if err != nil {
						t.Fatalf("%v, %v: %v", lc.mu, st, err)
					}
					total, mean := new(big.Rat), new(big.Rat)
					for i, p := range got.Prob {
						total.Add(total, p)
						mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
						if g, _ := p.Float64(); math.Abs(g-fl.Prob[i]) > 1e-12 {
							t.Errorf("%v, %v: P(lead %d) = %s exactly, %v in float64", lc.mu, st, i-st.N, p.RatString(), fl.Prob[i])
						}
					}
					if total.Cmp(big.NewRat(1, 1)) != 0 || mean.Cmp(res.ExpectedPairs) != 0 {
						t.Errorf("%v, %v: the distribution sums to %s with mean %s; Evaluate: %s pairs", lc.mu, st,
							total.RatString(), mean.RatString(), res.ExpectedPairs.RatString())
					}
				}
			}
		})
	}
	if compared == 0 {
		t.Fatal("no probability compared")
	}
	t.Logf("compared %d probabilities with the card-level iteration", compared)
}
