package exact_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// SolveGerez's value of <2n, n-j, 0> is 2·E(n, j) of the (n, j) model with pass rule always, an
// independent derivation of the same game; its tactics' values make up the value (the best of
// them, or k/2 when passing is best) and passing is worth the rest of the cards.
func TestSolveGerez(t *testing.T) {
	ctx := context.Background()
	err := exact.Table(ctx, field.Rat{}, exact.Model{Pass: rules.PassAlways}, 6, func(c *exact.TableCell[*big.Rat]) error {
		s := exact.GerezState{K: 2 * c.State.N, B: c.State.N - c.State.J}
		cell, err := exact.SolveGerez(ctx, s)
		if err != nil {
			return err
		}
		if two := new(big.Rat).Mul(c.Value, big.NewRat(2, 1)); cell.State != s || cell.Value.Cmp(two) != 0 {
			t.Errorf("%v: cell of %v worth %s, want 2E = %s", s, cell.State, cell.Value.RatString(), two.RatString())
		}
		k := big.NewRat(int64(s.K), 1)
		if sum := new(big.Rat).Add(cell.Value, cell.PassValue); sum.Cmp(k) != 0 {
			t.Errorf("%v: value + pass value = %s, want %d", s, sum.RatString(), s.K)
		}
		best := new(big.Rat).Quo(k, big.NewRat(2, 1))
		for _, v := range cell.Values {
			if v.Cmp(best) > 0 {
				best = v
			}
		}
		if best.Cmp(cell.Value) != 0 {
			t.Errorf("%v: the best tactic (or half the cards) is worth %s, the value %s", s, best.RatString(), cell.Value.RatString())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A state outside Gerez's model, or a cancelled solve, is an error.
func TestSolveGerezRefuses(t *testing.T) {
	for _, s := range []exact.GerezState{{K: 3}, {K: 4, B: 3}, {K: 4, B: 2, P: 1}, {K: -2}, {K: 4, B: 1, P: 2}} {
		if c, err := exact.SolveGerez(context.Background(), s); c != nil || err == nil || !strings.Contains(err.Error(), "not a state") {
			t.Errorf("%v: %v, %v", s, c, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c, err := exact.SolveGerez(ctx, exact.GerezState{K: 20, B: 2}); c != nil || err == nil {
		t.Errorf("cancelled: %v, %v", c, err)
	}
}
