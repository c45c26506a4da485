package exact_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A seat's score counts a win 1 and a draw 1/2: by hand, and as the value the table of a policy
// that plays to win gives the same state.
func TestWDLScore(t *testing.T) {
	hand := exact.WDL[*big.Rat]{Win: big.NewRat(1, 2), Draw: big.NewRat(1, 3), Loss: big.NewRat(1, 6)}
	if got := hand.Score(field.Rat{}); got.Cmp(big.NewRat(2, 3)) != 0 {
		t.Errorf("1/2 + (1/3)/2 = %s, want 2/3", got.RatString())
	}
	if got := (exact.WDL[float64]{Win: 0.25, Draw: 0.5, Loss: 0.25}).Score(field.Float{}); got != 0.5 {
		t.Errorf("0.25 + 0.5/2 = %g, want 0.5", got)
	}

	ctx := context.Background()
	const maxN = 5
	self := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	values := map[rules.State]*big.Rat{}
	err := exact.WinTable(ctx, field.Rat{}, exact.Model{}, self, maxN, func(c *exact.WinCell[*big.Rat]) error {
		values[c.State] = new(big.Rat).Set(c.Value)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for n := 1; n <= maxN; n++ {
		for j := 0; j <= n; j++ {
			for _, lead := range []int{-1, 0, 1} {
				st := rules.State{N: n, J: j, Lead: lead}
				want, ok := values[st]
				if !ok {
					continue
				}
				both, err := exact.WinDrawLoss(ctx, field.Rat{}, exact.Model{}, self, st)
				if err != nil {
					t.Fatal(err)
				}
				if got := both[0].Score(field.Rat{}); got.Cmp(want) != 0 {
					t.Errorf("%v: score %s, the win-optimal table's value %s", st, got.RatString(), want.RatString())
				}
				checked++
			}
		}
	}
	if checked < 40 {
		t.Errorf("%d states checked", checked)
	}
}
