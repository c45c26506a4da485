package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// A fluctuating capacity under blind flips (docs/models.md §4.4, §4.17): the sweep of fluct.go
// with the blind turn of blind.go at the capacity drawn for the turn. Every turn draws its
// capacity, a turn that only takes a pair known whole included, so a blind turn that hands the
// next seat two pairs known whole leads to the row of n - 2 pairs after two more draws (under
// lru each forgets beyond it; under handover-uniform only the hand-over forgets). Under
// handover-uniform a capacity of 2 drawn in (2, 0) leaves the game where it was, as with a fixed
// capacity of 2 (§4.17), but every turn draws a larger capacity with positive probability, so the
// game ends.
//
// Under the pass rules two-known and always a pass names two remembered cards that are no pair
// and shows no card, so it is the pass of fluctpass.go: the other seat moves just after a pass
// with the cards the hand-over keeps at the capacity drawn, and a pass answered by a pass ends the
// game; every other turn reads the rows of n - 1 and n - 2 pairs as under pass rule never.

// validateFluctBlind reports whether the model, a fluctuating capacity under blind flips, is
// solved: pairs only, two copies of a face, every pass rule (the lineups: refuseFluctBlind); under
// a turn limit by the sweep over the turns left (fluctlimit.go), not for this computation.
func (m Model) validateFluctBlind() error {
	v := m.Variant
	switch {
	case v.CopiesOf() != rules.DefaultCopies:
		return fmt.Errorf("copies %d: a fluctuating capacity under blind flips is solved with two copies of a face only", v.CopiesOf())
	case v.TurnLimit > 0:
		return fmt.Errorf("turn limit %d: a fluctuating capacity under blind flips and a turn limit is solved for a matchup's values, each choice's values after the draw and its players' tables (two seats), not this computation", v.TurnLimit)
	}
	return m.Choices.Validate()
}

// refuseFluctBlind returns an error when model m has a fluctuating capacity under blind flips and
// the lineup is not one solved there, under every pass rule: at two seats optimal, safe, daring,
// parity and best-response to one of them (values, each choice's values after the draw, the score
// distribution and the tables of optimal and best-response without a turn limit; under one the
// values, each choice's values and the tables, fluctlimit.go), and under a turn limit the
// policies that play to win too (fluctlimitwin.go: values, win, draw and loss, each choice's
// values and the tables); at three to eight seats without a turn limit every seat for itself,
// optimal, safe, daring and parity per seat and best-response at one seat (fluctselfish.go:
// values, each choice's values, every seat's score distribution and the tables), not the policies
// that play to win.
func refuseFluctBlind(m Model, mu Lineup) error {
	if m.Memory.Fluctuation == 0 || m.Variant.Flips != rules.FlipsBlind {
		return nil
	}
	limit := m.Variant.TurnLimit
	switch {
	case limit > 0 && m.Memory.Forget == rules.ForgetLRU:
		return fmt.Errorf("%s, turn limit %d: a fluctuating lru capacity under blind flips and a turn limit has no exact model (a fluctuating handover-uniform capacity has; or use the simulator)", m.Memory, limit)
	case limit > 0 && mu.Players != 2:
		return fmt.Errorf("players %d, turn limit %d: a fluctuating capacity under blind flips and a turn limit is solved for two players only", mu.Players, limit)
	case limit == 0 && mu.Players == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin()):
		return fmt.Errorf("policy %s against %s: a fluctuating capacity under blind flips is solved for the policies that play to win under a turn limit only (without one: optimal, safe, daring, parity and best-response to one of them)", mu.Policy, mu.Opponent)
	case mu.Players >= 3 && (isSelfWin(mu) || mu.playsToWin()):
		return fmt.Errorf("players %d: a fluctuating capacity under blind flips is solved at three or more seats for optimal, safe, daring, parity and best-response at one seat, not the policies that play to win", mu.Players)
	case mu.Players < 2:
		return fmt.Errorf("players %d: a fluctuating capacity under blind flips is solved for 2 to %d players", mu.Players, rules.MaxPlayers)
	}
	return nil
}

// fluctTop returns the capacity from which the capacities drawn in a row of n pairs are merged:
// n + 1, which never binds (fluct.go), except under blind flips with handover-uniform forgetting,
// where a turn from (n, 0) that names the partners of two remembered cards holds n + 2 cards at
// the hand-over, so n + 1 still forgets one.
func fluctTop(m Model, n int) int {
	if m.Variant.Flips == rules.FlipsBlind && m.Memory.Forget == rules.ForgetHandoverUniform {
		return n + 2
	}
	return n + 1
}
