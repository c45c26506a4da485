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
// standings (under a turn limit, a layer per number of turns left), in exact rationals where its
// values (exact.CopiesSelfWinLimitCells) are at most exact.CopiesSelfWinRationalCells, in float64
// otherwise.
func copiesSelfWinTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	k, limit := m.Variant.CopiesOf(), m.Variant.TurnLimit
	mixed := false
	for _, p := range mu.SeatPolicies() {
		mixed = mixed || !p.PlaysToWin()
	}
	cells := exact.CopiesSelfWinLimitCells(maxPairs, k, mu.Players, mixed, limit, m.Pass)
	var layers []*rules.CopiesTable
	var err error
	switch exactly := cells <= exact.CopiesSelfWinRationalCells; {
	case cells < 0 || cells > exact.CopiesSelfWinCellLimit:
		return nil, fmt.Errorf("%d pairs with copies %d at %d seats%s: about %d values (count states times standings, times the turns left and pass streaks the rules add), more than the %d the solver takes", maxPairs, k, mu.Players, limitNote(limit), cells, exact.CopiesSelfWinCellLimit)
	case limit > 0 && exactly:
		layers, err = exact.CopiesSelfWinPolicyTurnTables(ctx, field.Rat{}, m, mu, maxPairs)
	case limit > 0:
		layers, err = exact.CopiesSelfWinPolicyTurnTables(ctx, field.Float{}, m, mu, maxPairs)
	case exactly:
		layers, err = oneLayer(exact.CopiesSelfWinPolicyTable(ctx, field.Rat{}, m, mu, maxPairs))
	default:
		layers, err = oneLayer(exact.CopiesSelfWinPolicyTable(ctx, field.Float{}, m, mu, maxPairs))
	}
	return copiesLayers(maxPairs, limit, layers, err)
}

// limitNote names a turn limit in a message ("" for none).
func limitNote(limit int) string {
	if limit == 0 {
		return ""
	}
	return fmt.Sprintf(", turn limit %d", limit)
}
