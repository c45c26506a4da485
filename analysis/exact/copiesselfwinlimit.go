package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective at three to eight seats under copies with a turn limit (docs/models.md
// §4.16): the state of faces, the standings and the mover's seat gain the turns left t. Every
// turn uses one; a pair a turn leaves remembered whole costs the next seat a turn of its own,
// taken only when one is left (copiesSolver.after); with t = 0 the game is over, the standings
// decide (a tie for the most shared) and the pairs left count for nobody. No state refers to
// itself, so copiesSelfWin's memoised recursion solves it as it is.

// after returns the turns left in an outcome's next state after a turn with t turns left, and the
// pairs the next seat takes first of those the turn left remembered whole (copiesSolver.after).
func (s *copiesSelfWin[T]) after(o copiesOutcome, t int) (int, int) {
	if s.limit == 0 {
		return 0, o.handed
	}
	g := min(o.handed, t-1)
	return t - 1 - g, g
}

// CopiesSelfWinPolicyTurnTables is CopiesSelfWinPolicyTable under the turn limit T of m:
// layers[t-1] holds the choices with t turns left, t = 1 .. T, in every state of faces and at
// every standings a game of at most the given number of pairs reaches with t turns left from its
// start (every deal size, each starting with T turns left, whichever seat moves first).
func CopiesSelfWinPolicyTurnTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) ([]*rules.CopiesTable, error) {
	if m.Variant.TurnLimit <= 0 {
		return nil, fmt.Errorf("copies %d: no turn limit, so the choices have no layer per number of turns left (see CopiesSelfWinPolicyTable)", m.Variant.CopiesOf())
	}
	return copiesSelfWinLayers(ctx, f, m, mu, pairs)
}

// copiesSelfWinLayers returns the tables of CopiesSelfWinPolicyTable, one without a turn limit
// and one per number of turns left under a limit (layers[t-1] with t turns left).
func copiesSelfWinLayers[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) ([]*rules.CopiesTable, error) {
	k := m.Variant.CopiesOf()
	if !mu.Policy.PlaysToWin() {
		return nil, fmt.Errorf("copies %d: a table to win at %d seats of policy %s (allowed: win-optimal, win-best-response)", k, mu.Players, mu.Policy)
	}
	if _, err := StartCopiesState(pairs, k); err != nil {
		return nil, err
	}
	s, err := newCopiesSelfWin(ctx, f, m, mu)
	if err != nil {
		return nil, err
	}
	if err := s.solveStarts(pairs); err != nil {
		return nil, err
	}
	layers := make([]*rules.CopiesTable, max(s.limit, 1))
	for i := range layers {
		if layers[i], err = rules.NewCopiesStandingsTable(k, s.p); err != nil {
			return nil, err
		}
	}
	faces := 2 * k // the bytes of a state of faces' key: k counts of two bytes
	d := make([]int, s.p)
	for key, c := range s.memo {
		if !s.same && key[len(key)-1] != 0 {
			continue // another seat to move
		}
		v := vecOfKey(key[:faces])
		t, k, at := 0, 0, faces+2*s.p
		if s.limit > 0 {
			t = int(key[at]) | int(key[at+1])<<8
			at += 2
		}
		if s.streaks {
			k = int(key[at])
		}
		if unknownCards(v) == 0 || (s.limit > 0 && t == 0) {
			continue
		}
		for i := range d {
			d[i] = int(key[faces+2*i]) | int(key[faces+2*i+1])<<8
		}
		if err := layers[max(t, 1)-1].SetStandingsPasses(v, d, k, c.choice); err != nil {
			return nil, err
		}
	}
	return layers, nil
}

// solveStarts solves the states a table of deals of k/2, k, .., pairs pairs needs: the start of
// every deal size, with every seat to move first (one when every seat plays to win), and under a
// turn limit with every turn left.
func (s *copiesSelfWin[T]) solveStarts(pairs int) error {
	k := s.m.Variant.CopiesOf()
	none := make([]int, s.p)
	for n := k / 2; n <= pairs; n += k / 2 {
		start, err := StartCopiesState(n, k)
		if err != nil {
			return err
		}
		// Seat 0 may sit anywhere in the order of play: a game starts with any seat to move.
		for q := range s.p {
			if _, err := s.get(start.vec(), none, q, s.limit, 0); err != nil {
				return err
			}
			if s.same {
				break
			}
		}
	}
	return nil
}

// CopiesSelfWinLimitCells returns the number of values the win objective at players seats keeps
// under a turn limit and the pass rule pass, as the cost estimate and the limits on tables count
// them: CopiesSelfWinCells times the turns left a state is met with, about a third of the limit
// and at most of the 3·pairs turns of the longest game (measured at copies 4, three seats, 12 to
// 26 pairs, limits of n to 3n turns: the time grows with the limit as T/3 does, within a factor
// 1.5), times the pass streaks 0 .. players-1 a state is kept at under the pass rules two-known
// and always (copiesSelfWinStreaks); or -1 beyond 2^62.
func CopiesSelfWinLimitCells(pairs, copies, players int, mixed bool, limit int, pass rules.PassRule) int64 {
	c := CopiesSelfWinCells(pairs, copies, players, mixed)
	if c < 0 {
		return c
	}
	t := int64(copiesSelfWinStreaks(pass, players))
	if limit > 0 {
		t *= int64(max(1, (min(limit, 3*pairs)+2)/3))
	}
	if c > (1<<62)/t {
		return -1
	}
	return c * t
}
