package strategies

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// SeatWinTable returns the table a win-optimal seat plays in a game of three or more seats whose
// lineup mixes win-optimal with other policies (docs/models.md §4.7, "Win objective"): seat 0's
// choices in lineup mu, which is the game's lineup seen from that seat (exact.RotateSeats), for
// deals of at most maxPairs pairs, in exact rationals up to exact.SelfWinRationalLimitOf(m) pairs
// and in float64 beyond, up to exact.SelfWinTableLimitOf(m) pairs (which a turn limit and decay
// forgetting make smaller). A nil *Tables computes it afresh.
func (c *Tables) SeatWinTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	if !mu.SelfWinMixed() {
		return nil, fmt.Errorf("lineup %v: a seat's own table is of a lineup that mixes win-optimal with other policies", mu.SeatPolicies())
	}
	if top := exact.SelfWinTableLimitOf(m, mu.Players, true); maxPairs > top {
		return nil, fmt.Errorf("win-optimal at %d seats beside other policies is solved for deals of at most %d pairs, not %d", mu.Players, top, maxPairs)
	}
	return c.get(ctx, m, mu, maxPairs)
}
