package exact

import (
	"context"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// FluctLimitWinLeads returns, in float64, the distribution of the lead seat 0 takes in the rest of
// the game from st under a fluctuating capacity and a turn limit, a role playing to win:
// index N + l, l pairs further ahead; and the score distribution it comes with.
func FluctLimitWinLeads(ctx context.Context, m Model, mu Lineup, st rules.State) ([]float64, ScoreDistribution[float64], error) {
	d, leads, err := fluctLimitWinFinal(ctx, field.Float{}, m, mu, st)
	return leads, d, err
}
