package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The score distribution of a two-seat lineup in which a role plays to win under a fluctuating
// capacity and a turn limit (docs/models.md §4.4, §4.13, §4.18), sequential flips, every pass rule:
// the win sweep (fluctlimitwin.go) records both roles' choices of every layer of turns left, by
// capacity drawn, pass flag and the mover's lead; then the probability of every position is
// carried forwards from the state, layer by layer, as fluctlimitdist.go does for the pair
// objective, the mover's lead read off the two seats' shares so far. The pairs left at the limit
// count for nobody, so the two seats' shares are kept apart.

// fluctLimitWinDistribution is Distribution under a fluctuating capacity and a turn limit for a
// lineup in which a role plays to win, the model's turn limit as the turns left in st, at seat 0's
// lead so far st.Lead.
func fluctLimitWinDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	d, _, err := fluctLimitWinFinal(ctx, f, m, mu, st)
	return d, err
}

// fluctLimitWinFinal returns the score distribution and the distribution of the lead seat 0 takes
// in the rest of the game: leads[N + l] is the probability that it ends l pairs further ahead
// (a stalemate's split adds nothing to it).
func fluctLimitWinFinal[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], []T, error) {
	var d ScoreDistribution[T]
	if m.Variant.Flips == rules.FlipsBlind {
		return d, nil, fmt.Errorf("policy %s against %s, turn limit %d: under a fluctuating capacity, blind flips and a turn limit the policies that play to win are solved for their values, not the score distribution", mu.Policy, mu.Opponent, m.Variant.TurnLimit)
	}
	w, err := newFluctLimitWin(f, m, mu, max(st.N, 1))
	if err != nil {
		return d, nil, err
	}
	s := w.base
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return d, nil, err
	}
	w.recordAll = true
	if err := w.run(ctx); err != nil {
		return d, nil, err
	}
	return s.forward(ctx, st, k, w.limit, func(t int, x flLimitPos, c, kd int) rules.Choice {
		lead := st.Lead + (x.h0-x.h1)/2
		if x.r == 1 {
			lead = -lead
		}
		return w.all[t-1][x.n][c][kd][x.r][x.flag][w.li(lead)]
	})
}
