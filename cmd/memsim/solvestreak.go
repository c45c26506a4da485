package main

import (
	"fmt"

	"memsim/sim/rules"
)

// setStreak checks --streak k: the pass streak of seat 0's turn under a fluctuating capacity with
// the capacity drawn (--capacity, checked by fluctuationQuery), at three or more seats under a pass
// rule, 0 to players-1 (exact.FluctSeatsChoiceValues).
func (q *solveQuery) setStreak(k int) error {
	p := q.matchup.Players
	switch {
	case p < 3:
		return usagef("--streak %d with --players %d: the pass streak is of 3 or more seats (2 players: --after-pass)", k, p)
	case q.model.Pass == rules.PassNever:
		return usagef("--streak %d with --pass never: no seat ever passes (give --pass two-known or always)", k)
	case k < 0 || k >= p:
		return usagef("--streak %d: must be between 0 and %d (the seats that passed in a row before seat 0's turn, of %d)", k, p-1, p)
	}
	q.streak = k
	return nil
}

// streakLine says which turn a solve with the capacity drawn values at three or more seats under a
// pass rule: the one after no pass, or after --streak seats passed in a row.
func streakLine(capacity, streak, players int) string {
	switch {
	case streak == 0:
		return fmt.Sprintf("capacity %d drawn for seat 0's turn, after no pass (pass streak 0)", capacity)
	case streak == players-1:
		return fmt.Sprintf("capacity %d drawn for seat 0's turn, after %d seats passed in a row (pass streak %d: a pass now ends the game in a stalemate)", capacity, streak, streak)
	case streak == 1:
		return fmt.Sprintf("capacity %d drawn for seat 0's turn, after 1 seat passed (pass streak 1)", capacity)
	}
	return fmt.Sprintf("capacity %d drawn for seat 0's turn, after %d seats passed in a row (pass streak %d)", capacity, streak, streak)
}
