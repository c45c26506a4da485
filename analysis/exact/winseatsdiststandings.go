package exact

import (
	"context"
	"fmt"
	"slices"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// SeatsScoreDistributionFrom is SeatsScoreDistribution from standings: seat s (seat 0 to move)
// has taken standings[s] pairs so far (nil: none, which is SeatsScoreDistribution). Prob[s][i] is
// the probability that seat s takes i/Unit of the State.N pairs left, the standings[s] pairs it
// holds already not counted (its final pairs are standings[s] + i/Unit). A seat that plays to win
// chooses by the standings, so its distribution is the forward pass's from them (winseatsdist.go,
// perfect memory or lru and handover-uniform of a fixed capacity); a lineup in which no seat plays
// to win chooses by count state alone, so the standings do not change its distributions.
func SeatsScoreDistributionFrom[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, standings []int) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	if mu.Players < 3 {
		return out, fmt.Errorf("players %d: SeatsScoreDistributionFrom is for 3 to %d players", mu.Players, rules.MaxPlayers)
	}
	standings, err := checkStandings(mu.Players, standings)
	if err != nil {
		return out, err
	}
	taken := slices.ContainsFunc(standings, func(v int) bool { return v != 0 })
	switch {
	case !taken || !isWinSeatsDist(mu):
		return SeatsScoreDistribution(ctx, f, m, mu, st)
	case m.Memory.Fluctuation > 0:
		return out, fmt.Errorf("memory %s: every seat's score distribution from standings %v with a policy that plays to win is solved with perfect memory or a fixed capacity, not a fluctuating one (from no pairs taken it is)", m.Memory, standings)
	}
	return winSeatsDistribution(ctx, f, m, mu, st, standings)
}
