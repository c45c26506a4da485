package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective at three to eight seats under a fluctuating capacity with a lineup whose
// seats do not all play win-optimal (docs/models.md §4.7, "Under a fluctuating capacity"):
// win-optimal beside optimal, safe, daring and parity, and win-best-response at one seat against
// win-optimal at every other seat or against those policies. As at a fixed capacity
// (selfishwinmixed.go, selfishwinlimited.go) a position then holds the mover's seat besides the
// state after the draw and the standings, and a turn that hands the move over without a pair
// leads to the next seat: the groups of fluctselfwin.go are the cycles of (standings, mover's
// seat). A seat that follows a table has its one choice, read at the capacity drawn: safe, daring
// and parity by their rule at the state after the draw, optimal by the optimum of every seat for
// itself in expected pairs under the same fluctuating capacity (fluctselfish.go), and, beside a
// win-best-response seat, win-optimal by the choices of every seat playing win-optimal
// (fluctselfwin.go) at the state after the draw and the standings. The seats that play to win
// take their choices by fluctselfwin.go's selection; with one such seat it is a best reply, the
// largest score the seat can have against the others' play.

// fluctWinFollows reports whether a lineup of a win objective at three or more seats has seats
// that follow tables: a mixed lineup, or win-best-response at one seat, which answers the
// win-optimal table at every other seat.
func fluctWinFollows(mu Lineup) bool {
	if selfWinMixed(mu) {
		return true
	}
	for _, p := range mu.SeatPolicies() {
		if p == rules.PolicyWinBestResponse {
			return true
		}
	}
	return false
}

// newFluctSelfWinLineup returns the sweep of lineup mu up to maxPairs pairs, after solving the
// tables its seats follow (the optimum of every seat for itself, win-optimal at every seat).
func newFluctSelfWinLineup[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int, eval bool) (*fluctSelfWin[T], error) {
	if err := checkFluctSelfWin(m, mu); err != nil {
		return nil, err
	}
	x, err := buildFluctSelfWin(f, m, mu.Players, maxPairs, eval)
	if err != nil {
		return nil, err
	}
	if !fluctWinFollows(mu) {
		return x, nil
	}
	pol := mu.SeatPolicies()
	reply := everyWinOptimal(mu) // win-best-response beside win-optimal at every other seat
	var opt [][][][]rules.Choice // opt[n][l][c][k]: optimal's choice at pass streak l
	var win [][][][]rules.Choice
	for _, p := range pol {
		switch {
		case p == rules.PolicyOptimal && opt == nil:
			s, err := newFluctSeats(f, m, Lineup{Players: mu.Players, Policy: p, Opponent: p})
			if err != nil {
				return nil, fmt.Errorf("optimal's table: %w", err)
			}
			if err := s.run(ctx, maxPairs, nil); err != nil {
				return nil, fmt.Errorf("optimal's table: %w", err)
			}
			opt = s.streakChoice // under pass rule never, nil: the choices are s.choice
			if !s.passes() {
				opt = make([][][][]rules.Choice, len(s.choice))
				for n, byCap := range s.choice {
					opt[n] = [][][]rules.Choice{byCap}
				}
			}
		case p == rules.PolicyWinOptimal && reply && win == nil:
			y, err := buildFluctSelfWin(f, m, mu.Players, maxPairs, false)
			if err != nil {
				return nil, fmt.Errorf("win-optimal's table: %w", err)
			}
			if err := y.run(ctx, nil); err != nil {
				return nil, fmt.Errorf("win-optimal's table: %w", err)
			}
			win = y.choice
		}
	}
	x.nq, x.w.nq = mu.Players, mu.Players
	x.follow = func(q int, st rules.State, c, vi, l int) (rules.Choice, bool) {
		k := st.N - st.J
		switch p := pol[q]; {
		case p.Fixed():
			return p.Decide(st), true // a fixed policy never passes
		case p == rules.PolicyOptimal:
			return opt[st.N][l][c][k], true
		case p == rules.PolicyWinOptimal && reply:
			// Seat 0 to move in the sweep of every seat win-optimal, at pass streak l.
			return win[st.N][c][k][l*len(x.w.valid[st.N])+vi], true
		}
		return 0, false
	}
	return x, nil
}

// evaluateFluctSelfWinLineupAt returns the values of lineup mu (a win objective at three or more
// seats) under a fluctuating capacity from state st before the draw, seat 0 to move, seat s
// having taken standings[s] pairs so far (nil: none yet). Values only, as evaluateFluctSelfWin.
func evaluateFluctSelfWinLineupAt[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, standings []int) (SelfWinResult[T], error) {
	var res SelfWinResult[T]
	if err := checkFluctSelfWin(m, mu); err != nil {
		return res, err
	}
	standings, err := checkStandings(mu.Players, standings)
	if err != nil {
		return res, err
	}
	x, err := newFluctSelfWinLineup(ctx, f, m, mu, st.N, true)
	if err != nil {
		return res, err
	}
	return x.evaluate(ctx, st, standings)
}

// FluctSelfWinLineupTables is FluctSelfWinTables for a lineup mu of a win objective at three or
// more seats (every seat win-optimal, win-optimal beside optimal, safe, daring and parity, or
// win-best-response at one seat): seat 0's choices, seat 0 to move, a layer per capacity drawn.
// Seat k of a game plays seat 0's choices of RotateSeats(mu, k).
func FluctSelfWinLineupTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (lo int, layers []*rules.StandingsTable, err error) {
	if maxPairs < 1 {
		return 0, nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	x, err := newFluctSelfWinLineup(ctx, f, m, mu, maxPairs, false)
	if err != nil {
		return 0, nil, err
	}
	if err := x.run(ctx, nil); err != nil {
		return 0, nil, err
	}
	return x.layers(maxPairs)
}
