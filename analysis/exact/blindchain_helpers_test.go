package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// blindLineup is a lineup played in the card-level chain of blind flips; with table set, seat 0
// (and every optimal seat) plays the solver's table.
type blindLineup struct {
	mu    exact.Lineup
	table bool
}

// compareBlindChain plays every lineup of lineups in the card-level chain of blind flips built
// for card memory m (up to maxN pairs) and compares every state's values with Evaluate's under
// model: the seats' values add up to n, at two seats the score distribution's mean is seat 0's
// value and its total 1, and where a table is played no choice made once gives the mover more
// than the table's. It returns the number of values compared.
func compareBlindChain(t *testing.T, ctx context.Context, m cardMemory, model exact.Model, lineups []blindLineup, maxN int) int {
	t.Helper()
	chain, err := newBlindChain(m, maxN)
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, lu := range lineups {
		mu := lu.mu
		name := fmt.Sprintf("%v/p=%d/%v-vs-%v", m, mu.Players, mu.Policy, mu.Opponent)
		choose := func(r int, st rules.State) rules.Choice {
			if r == 0 {
				return mu.Policy.Decide(st)
			}
			return mu.Opponent.Decide(st)
		}
		if lu.table {
			tab, err := exact.PolicyTable[*big.Rat](ctx, field.Rat{}, model, mu, maxN)
			if err != nil {
				t.Fatalf("%s: PolicyTable: %v", name, err)
			}
			choose = func(r int, st rules.State) rules.Choice {
				if r == 0 || mu.Opponent == rules.PolicyOptimal {
					c, ok := tab.Lookup(st, false)
					if !ok {
						panic(fmt.Sprintf("%s: no table choice in %v", name, st))
					}
					return c
				}
				return mu.Opponent.Decide(st)
			}
		}
		v, err := chain.solve(mu.Players, choose)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for st := range chain.steps {
			compared += checkChainSeatValues(t, ctx, name, model, mu, st, v[st][0])
			if mu.Players == 2 {
				// The score distribution's mean is seat 0's expected pairs, its total 1.
				d, err := exact.Distribution[*big.Rat](ctx, field.Rat{}, model, mu, st)
				if err != nil {
					t.Fatalf("%s, %v: Distribution: %v", name, st, err)
				}
				mean, total := new(big.Rat), new(big.Rat)
				for i, p := range d.Prob {
					mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(i), 2)))
					total.Add(total, p)
				}
				if mean.Cmp(v[st][0][0]) != 0 || total.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%s, %v: the score distribution has mean %s and total %s, the card-level chain expects %s",
						name, st, mean.RatString(), total.RatString(), v[st][0][0].RatString())
				}
			}
			if !lu.table {
				continue
			}
			// No choice made once gives the mover more than the table's (seat 0 to move).
			for c := range chain.steps[st] {
				got := chain.once(v, mu.Players, 0, st, c)
				own, table := got[0], v[st][0][0]
				if mu.Players == 2 && mu.Policy == rules.PolicyOptimal {
					own = new(big.Rat).Sub(got[0], got[1])
					table = new(big.Rat).Sub(v[st][0][0], v[st][0][1])
				}
				if own.Cmp(table) > 0 {
					t.Errorf("%s, %v: %v made once gives the mover %s, more than the table's %s",
						name, st, c, own.RatString(), table.RatString())
				}
			}
		}
	}
	return compared
}

// checkChainSeatValues compares every seat's expected pairs from Evaluate of lineup mu under
// model in st with chain's, the card-level chain's values from seat 0 on, and checks that they
// add up to st.N. It returns the number of values compared.
func checkChainSeatValues(t *testing.T, ctx context.Context, name string, model exact.Model, mu exact.Lineup, st rules.State, chain []*big.Rat) int {
	t.Helper()
	res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
	if err != nil {
		t.Fatalf("%s, %v: %v", name, st, err)
	}
	sum := new(big.Rat)
	for s := range mu.Players {
		if res.PairsBySeat[s].Cmp(chain[s]) != 0 {
			t.Errorf("%s, %v: seat %d expects %s from Evaluate, %s from the card-level chain",
				name, st, s, res.PairsBySeat[s].RatString(), chain[s].RatString())
		}
		sum.Add(sum, res.PairsBySeat[s])
	}
	if sum.Cmp(big.NewRat(int64(st.N), 1)) != 0 {
		t.Errorf("%s, %v: the seats' values add up to %s, not %d", name, st, sum.RatString(), st.N)
	}
	return mu.Players
}
