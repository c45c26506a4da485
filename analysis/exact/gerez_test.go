package exact

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Gerez's formulation and the (n, j) model are two independent derivations of the same game
// (perfect memory, pass always): <2n, n-j, 0> must be worth 2·E(n, j) cards.
func TestGerezAgreesWithTheNJModel(t *testing.T) {
	vals := map[GerezState]*big.Rat{}
	if err := Gerez(context.Background(), 24, func(c *GerezCell) error { vals[c.State] = c.Value; return nil }); err != nil {
		t.Fatal(err)
	}
	checked := 0
	err := Table(context.Background(), field.Rat{}, Model{Pass: rules.PassAlways}, 12, func(c *TableCell[*big.Rat]) error {
		w := vals[GerezState{K: 2 * c.State.N, B: c.State.N - c.State.J}]
		if two := new(big.Rat).Mul(c.Value, big.NewRat(2, 1)); w == nil || w.Cmp(two) != 0 {
			t.Errorf("%v: Gerez %v, 2E %s", c.State, w, two.RatString())
		}
		checked++
		return nil
	})
	if err != nil || checked != 90 {
		t.Fatalf("%d states, %v", checked, err)
	}
}

func TestGerezTacticsAndOutcomes(t *testing.T) {
	ts := GerezTactics()
	if len(ts) != 19 {
		t.Fatalf("%d tactics", len(ts))
	}
	// Every allowed tactic's outcomes have probabilities adding up to 1, lead to valid states,
	// and keep the cards: k falls by 2 exactly when a pair is taken.
	for k := 2; k <= 12; k += 2 {
		for b := 0; b <= k; b++ {
			for p := 0; p <= b; p += 2 {
				s := GerezState{k, b, p}
				if !s.Valid() {
					continue
				}
				for _, tac := range ts {
					bs, ok := gerezOutcomes(s, tac)
					if !ok {
						continue
					}
					sum := new(big.Rat)
					for _, br := range bs {
						sum.Add(sum, br.prob)
						if !br.next.Valid() || (br.took != (br.next.K == k-2)) || (!br.took && br.next.K != k) {
							t.Errorf("%v %v: outcome %+v", s, tac, br)
						}
					}
					if sum.Cmp(big.NewRat(1, 1)) != 0 {
						t.Errorf("%v %v: probabilities add up to %s", s, tac, sum.RatString())
					}
				}
			}
		}
	}
	// By hand: <4, 0, 0> (two pairs, nothing known). Daring, <onb, onb>: 1/3 lucky, then the last
	// pair is the mover's (4 cards); 2/3 two new cards, and the opponent takes both pairs from
	// <4, 2, 2>... (worth 4 to it): value 1/3·4 + 2/3·0 = 4/3. Passing is worth 2, the optimum.
	var c4 *GerezCell
	_ = Gerez(context.Background(), 4, func(c *GerezCell) error {
		if c.State == (GerezState{K: 4}) {
			cp := *c
			c4 = &cp
		}
		return nil
	})
	daring := Tactic{First: ONB, IfKnown: ONB, Otherwise: ONB}
	for i, tac := range c4.Tactics {
		if tac == daring && c4.Values[i].Cmp(big.NewRat(4, 3)) != 0 {
			t.Errorf("daring in <4,0,0>: %s, want 4/3", c4.Values[i].RatString())
		}
	}
	if c4.Value.Cmp(big.NewRat(2, 1)) != 0 || !c4.PassBest {
		t.Errorf("<4,0,0>: value %s, pass best %v", c4.Value.RatString(), c4.PassBest)
	}
}
