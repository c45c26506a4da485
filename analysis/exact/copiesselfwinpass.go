package exact

import "memsim/sim/rules"

// The win objective at three to eight seats under copies with pass rule two-known or always
// (docs/models.md §4.7, "Pass rules" and "Win objective"; §4.16). The state of faces, the
// standings and the mover's seat gain the pass streak k = 0 .. p-1, the number of seats that
// passed in a row just before this turn, as in the standard game (selfishwinpass.go): a pass at
// k < p-1 hands the same state of faces to the next seat at k+1, the standings seen from it; a
// pass at k = p-1 ends the game in a stalemate that gives every seat n/p of the n pairs left, so
// the final totals rank as the standings do and the seats level with the most share the score.
// Every other choice takes a pair or turns up a card that was not remembered and leads to a state
// at streak 0. A pass thus leads to a higher streak or ends the game, and no state refers to
// itself: copiesSelfWin's memoised recursion solves it as it is, exact in rationals and in
// float64 on the same path. Under a turn limit a pass uses a turn too, and with none left the
// standings decide, the pairs left counting for nobody (a stalemate at k = p-1 comes first).

// legal reports whether the mover in v may make choice ch: the model's choice set, and for a pass
// the pass rule (copiesPassLegal).
func (s *copiesSelfWin[T]) legal(v copiesVec, ch rules.Choice) bool {
	if ch == rules.Pass {
		return s.streaks && copiesPassLegal(v, s.m)
	}
	return copiesLegal(v, ch, s.m.Choices)
}

// valuesOf returns every vector, in order from the mover, after the mover's legal choice ch in v
// at the standings d with seat q to move, t turns left and pass streak k.
func (s *copiesSelfWin[T]) valuesOf(v copiesVec, d []int, q, t, k int, ch rules.Choice) ([]T, error) {
	if ch == rules.Pass {
		return s.passValues(v, d, q, t, k)
	}
	return s.choiceValues(v, d, q, t, ch)
}

// passValues returns every vector, in order from the mover, after a pass in v at the standings d
// with seat q to move, t turns left and pass streak k: the stalemate at the last streak, the next
// seat's values at streak k+1 (with one turn fewer under a turn limit) otherwise.
func (s *copiesSelfWin[T]) passValues(v copiesVec, d []int, q, t, k int) ([]T, error) {
	p := s.p
	if k == p-1 {
		return s.stalemate(v, d), nil
	}
	nd := make([]int, p)
	for i := range nd {
		nd[i] = d[(i+1)%p]
	}
	nt := t
	if s.limit > 0 {
		nt = t - 1
	}
	c, err := s.get(v, nd, (q+1)%p, nt, k+1)
	if err != nil {
		return nil, err
	}
	out := make([]T, swVectors*p)
	for vi := range swVectors {
		src := s.vec(c.vals, vi)
		for i := range p {
			out[vi*p+i] = src[(i+p-1)%p]
		}
	}
	return out, nil
}

// stalemate returns the vectors of a stalemate in v at the standings d: every seat's share of the
// pairs left, the seats level with the most sharing the score.
func (s *copiesSelfWin[T]) stalemate(v copiesVec, d []int) []T {
	c := s.terminal(d)
	share := s.f.Div(s.f.FromInt(int64(v.state().Pairs())), s.f.FromInt(int64(s.p)))
	for i := range s.p {
		s.vec(c.vals, swPairs)[i] = share
	}
	return c.vals
}

// copiesSelfWinStreaks returns how many pass streaks a state of faces, standings and mover's seat
// of the win objective at p seats under copies is solved at: p under the pass rules two-known and
// always (streaks 0 .. p-1, every one a state of its own in the memo), 1 under never.
// CopiesSelfWinLimitCells, and so the cost estimate (estimateCopiesSelfWin), multiplies its values
// by it. The states the solver keeps grow
// by about that factor, measured from the start of a game at copies 4: 12 pairs at 3 seats keep
// 2.4 times the states of never under two-known (a pass needs a known pair, so fewer states are
// reached at streaks 1 .. p-1 than at 0) and 3.1 times under always; 8 pairs at 4 seats 2.8 and
// 4.9 times (the passes reach standings that the game without them does not).
func copiesSelfWinStreaks(pass rules.PassRule, p int) int {
	if pass == rules.PassNever {
		return 1
	}
	return p
}
