package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective at three or more seats with a lineup that mixes win-optimal with other
// policies (docs/models.md §4.7, "Win objective"): every seat plays a policy of its own, each one
// of win-optimal, optimal (the optimum of every seat for itself in expected pairs), safe, daring
// or parity. A win-optimal seat maximises its own score, P(most pairs) with a k-way tie for the
// most giving 1/k, taking the first choice with the largest in the order daring, safe,
// known-first; the other seats follow their tables, which do not look at the standings. As the
// seats no longer all play one policy, the state holds the mover's seat besides the count state
// and the standings: the sweep of selfishwin.go keeps a cell per mover's seat (p times the
// states), a turn that keeps the move reading the successor at the same seat and one that hands
// it over at the next. With perfect memory and pass rule never no state refers to itself, so the
// values are backward induction, exact in rationals and in float64 on the same path; under lru
// and handover-uniform the positions a forgotten card links are solved cycle by cycle
// (selfishwinlimited.go), the mover's seat part of each position.

// selfWinMixed reports whether a lineup of three or more seats mixes a seat that plays to win
// with seats that play other policies.
func selfWinMixed(mu Lineup) bool {
	if !isSelfWin(mu) {
		return false
	}
	for _, p := range mu.SeatPolicies() {
		if !p.PlaysToWin() {
			return true
		}
	}
	return false
}

// validateMixedSeats checks the seats of a mixed lineup: win-optimal at some seats, or
// win-best-response at one (the best reply to the others' tables), optimal, safe, daring or
// parity at the others, each playing the model's choice set.
func (mu Lineup) validateMixedSeats(m Model) error {
	if err := mu.checkWinReply(); err != nil {
		return err
	}
	for i, p := range mu.SeatPolicies() {
		if p != rules.PolicyWinOptimal && p != rules.PolicyWinBestResponse && p != rules.PolicyOptimal && !p.Fixed() {
			return fmt.Errorf("seat %d: policy %s: with %d players a seat beside win-optimal plays optimal, safe, daring or parity", i, p, mu.Players)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return nil
}

// mixedSeatTables returns the table each seat of mixed lineup mu follows in states of at most maxPairs
// pairs (at least 1), seat 0's first, nil at a win-optimal seat: a fixed policy's choices, or the
// optimum of every seat for itself at mu.Players seats. Seats of one policy share a table.
func mixedSeatTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) ([]*rules.ChoiceTable, error) {
	maxPairs = max(maxPairs, 1)
	byPolicy := map[rules.Policy]*rules.ChoiceTable{}
	out := make([]*rules.ChoiceTable, mu.Players)
	reply := winReplyLimited(m, mu)
	for i, p := range mu.SeatPolicies() {
		if p.PlaysToWin() && !(reply && p == rules.PolicyWinOptimal) {
			continue
		}
		t, ok := byPolicy[p]
		if !ok {
			var err error
			t, err = PolicyTable(ctx, f, m, Lineup{Players: mu.Players, Policy: p, Opponent: p}, maxPairs)
			if err != nil {
				return nil, fmt.Errorf("seat %d: %w", i, err)
			}
			byPolicy[p] = t
		}
		out[i] = t
	}
	return out, nil
}

// RotateSeats returns the lineup mu seen from seat k: seat k's policy first, then the seats after
// it in turn order. Seat k of a game plays seat 0's policy table of the rotated lineup (PolicyTable).
func RotateSeats(mu Lineup, k int) Lineup {
	pol := mu.SeatPolicies()
	rot := make([]rules.Policy, len(pol))
	for i := range pol {
		rot[i] = pol[(i+k)%len(pol)]
	}
	out := SeatLineup(rot...)
	out.TwoPlayerOptimal = mu.TwoPlayerOptimal
	return out
}

// selfWinMixedPolicyTable writes out seat 0's choices in mixed lineup mu at every count state
// with at most maxPairs pairs and every standings, seat 0 to move: a standings table when seat 0
// plays win-optimal, its own table otherwise.
func selfWinMixedPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if err := mu.Validate(m); err != nil {
		return nil, err
	}
	seats, err := mixedSeatTables(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	if seats[0] != nil && !winReplyLimited(m, mu) {
		return seats[0], nil
	}
	w, err := newSelfWin(f, m, mu.Players, maxPairs, false)
	if err != nil {
		return nil, err
	}
	w.seatTab, w.nq = seats, mu.Players
	return w.standingsTable(ctx, mu.Players, maxPairs, m.Singletons)
}

// estimateSelfWinMixed returns the cost of a call for a mixed lineup: the sweep of every seat
// win-optimal once per mover's seat, after the tables of the seats that play optimal.
func estimateSelfWinMixed[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	if err := mu.Validate(m); err != nil {
		return Cost{}, err
	}
	all := Lineup{Players: mu.Players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	c, err := estimateSelfWin(f, m, all, pairs, call)
	if err != nil {
		return Cost{}, err
	}
	c.Ops *= float64(mu.Players)
	c.Bytes = baseBytes + (c.Bytes-baseBytes)*float64(mu.Players)
	for _, p := range mu.SeatPolicies() {
		if p == rules.PolicyOptimal {
			t, err := estimate(f, m, Lineup{Players: mu.Players, Policy: p, Opponent: p}, max(pairs, 1), CallPolicyTable)
			if err != nil {
				return Cost{}, err
			}
			return t.Then(c), nil
		}
	}
	return c, nil
}

// SelfWinMixedTableLimit returns the largest deal size for which a win-optimal seat of a lineup
// of players seats (3 or more) that mixes policies can play its table: the largest whose sweep,
// once per mover's seat, is at most SelfWinTableOps of work.
func SelfWinMixedTableLimit(players int) int {
	n := 0
	for n < WinTableLimit && float64(players)*selfWinOps(players, n+1, 0, false, false) <= SelfWinTableOps {
		n++
	}
	return n
}

// SelfWinMixed reports whether a lineup of three or more seats mixes win-optimal with other
// policies (optimal, safe, daring, parity), whose values and tables the solver gives with the
// mover's seat in the state.
func (mu Lineup) SelfWinMixed() bool { return selfWinMixed(mu) }
