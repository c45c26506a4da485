package answer

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// AddSeatsDistribution sets res.SeatDistributions to every seat's distribution of its share of
// the pairs left of lineup mu (three or more seats, a seat playing to win) from state st in model
// m, seat s having taken standings[s] pairs so far (nil: none), those not counted in its share, in
// the arithmetic f (exact.SeatsScoreDistributionFrom).
func AddSeatsDistribution[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, standings []int, res *SelfWin) error {
	d, err := exact.SeatsScoreDistributionFrom(ctx, f, m, mu, st, standings)
	if err != nil {
		return fmt.Errorf("every seat's score distribution: %w", err)
	}
	res.SeatDistributions = seatSharesOf(f, d)
	return nil
}
