package exact

import (
	"context"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// LimitStreaks solves lineup mu of three or more seats under model m's pass rule and turn limit
// from every state with at most maxN pairs, and calls visit with every state (n >= 1), turns left
// t and pass streak k: every seat's expected pairs in order from the mover where every seat plays
// for itself (self, and the mover's choice), or with each seat to move, seat 0 first (seats).
func LimitStreaks[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxN int,
	visit func(st rules.State, t, k int, self []T, choice rules.Choice, seats [][]T)) error {
	s, err := newLimitSweep(f, m, mu, startOf(m, maxN))
	if err != nil {
		return err
	}
	s.visit = func(st rules.State, t int, c *limitCell[T]) error {
		if st.N == 0 {
			return nil
		}
		for k := range mu.Players {
			var self []T
			var ch rules.Choice
			var seats [][]T
			if s.needSelf {
				self, ch = c.streaks.self[k], c.streaks.choice[k]
			}
			if s.needSeats {
				seats = c.streaks.seats[k]
			}
			visit(st, t, k, self, ch, seats)
		}
		return nil
	}
	return s.run(ctx)
}
