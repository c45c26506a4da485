package answer

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// AddSeatsDistribution sets res.SeatDistributions to every seat's distribution of its final share
// of lineup mu (three or more seats, a seat playing to win) from state st in model m, no pairs
// taken yet, in the arithmetic f (exact.SeatsScoreDistribution).
func AddSeatsDistribution[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, res *SelfWin) error {
	d, err := exact.SeatsScoreDistribution(ctx, f, m, mu, st)
	if err != nil {
		return fmt.Errorf("every seat's score distribution: %w", err)
	}
	res.SeatDistributions = seatSharesOf(f, d)
	return nil
}
