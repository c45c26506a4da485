package strategies

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesSelfWinTable solves the copies model's table of mu, whose seat 0 plays to win at three or
// more seats, for deals of up to maxPairs pairs: a choice in every state of faces at every
// standings, in exact rationals where its values (exact.CopiesSelfWinCells) are at most
// exact.CopiesSelfWinRationalCells, in float64 otherwise.
func copiesSelfWinTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	k := m.Variant.CopiesOf()
	mixed := false
	for _, p := range mu.SeatPolicies() {
		mixed = mixed || !p.PlaysToWin()
	}
	cells := exact.CopiesSelfWinCells(maxPairs, k, mu.Players, mixed)
	var ct *rules.CopiesTable
	var err error
	switch {
	case cells < 0 || cells > exact.CopiesSelfWinCellLimit:
		return nil, fmt.Errorf("%d pairs with copies %d at %d seats: about %d count states times standings, more than the %d the solver takes", maxPairs, k, mu.Players, cells, exact.CopiesSelfWinCellLimit)
	case cells <= exact.CopiesSelfWinRationalCells:
		ct, err = exact.CopiesSelfWinPolicyTable(ctx, field.Rat{}, m, mu, maxPairs)
	default:
		ct, err = exact.CopiesSelfWinPolicyTable(ctx, field.Float{}, m, mu, maxPairs)
	}
	if err != nil {
		return nil, err
	}
	return rules.NewCopiesChoiceTable(maxPairs, ct)
}
