package exact

import (
	"memsim/sim/rules"
)

// The win objective in the copies model under pass rules two-known and always, two players
// (docs/models.md §4.13, §4.16). A state of faces carries its values at every lead twice: just
// after a pass by the other seat and otherwise. A pass flips nothing: it hands the same state to
// the other seat at its lead -d with the flag set, and a pass with the flag set ends the game in
// a stalemate that shares the pairs left equally, so the lead so far decides the game. Every other
// turn takes a pair or turns up a card that was not remembered and clears the flag. So the values
// just after a pass depend only on the states after the state's turns and on the stalemate, and
// the values otherwise on those and on the other role's values just after a pass: the memoised
// recursion solves both in closed form, the values just after a pass first. Under a turn limit
// (docs/models.md §4.18) a pass uses a turn: it hands the same state with one turn fewer to the
// other seat, just after a pass (copiesCell.passNext, solved first), and a pass with the last
// turn ends the game at the lead so far; each role's pairs taken by the limit follow as its lead
// does, a stalemate crediting both seats with the pairs left.

// winValuesPass computes the win values of c, a state of n pairs whose outcomes are prepared, at
// every lead, under a pass rule: c.win holds them when no pass was just made, c.win.afterPass
// just after a pass by the other seat (c.win itself where the mover may not pass, as no pass can
// have been made in the state then).
func (s *copiesSolver[T]) winValuesPass(c *copiesCell[T], n int) {
	c.win = s.newWinCell(n)
	if !c.legal[rules.Pass] {
		c.win.afterPass = c.win
		s.winValuesFlag(c, n, c.win, false)
		return
	}
	c.win.afterPass = s.newWinCell(n)
	s.winValuesFlag(c, n, c.win.afterPass, true)
	s.winValuesFlag(c, n, c.win, false)
}

// winValuesFlag computes into w, c.win or c.win.afterPass (after), the values of c, a state of n
// pairs, at every lead. At a decided lead (|d| > n) the policies that play to win take the first
// legal choice, daring, and only the expected lead is left to compute.
func (s *copiesSolver[T]) winValuesFlag(c *copiesCell[T], n int, w *copiesWinCell[T], after bool) {
	for d := -w.D; d <= w.D; d++ {
		i := w.at(d)
		decided := d < -n || d > n
		if s.needWinOpt && !decided {
			w.woC[i], _ = s.best(c, false, func(ch rules.Choice) T { return s.woPass(c, ch, d, after) })
			w.wo[i] = s.woPass(c, w.woC[i], d, after)
		}
		for r := range 2 {
			ch := rules.Daring
			if !decided || !s.pol[r].PlaysToWin() {
				ch = s.winPassRoleChoice(c, w, r, d, after)
			}
			w.ch[r][i] = ch
			u, dr, l := s.winChoiceValue(c, r, ch, d, after)
			if !decided {
				w.u[r][i], w.draw[r][i] = u, dr
			}
			w.lead[r][i] = l
			w.total[r][i] = s.winPassTotal(c, r, ch, d, after)
		}
	}
}

// woPass returns win-optimal self-play's P(win) - P(loss) for the mover after choice ch in c at
// lead d, just after a pass (after) or not.
func (s *copiesSolver[T]) woPass(c *copiesCell[T], ch rules.Choice, d int, after bool) T {
	if ch != rules.Pass {
		return s.winOf(c, ch, d, func(x *copiesWinCell[T], _ bool, j int) T { return x.wo[j] })
	}
	if after {
		u, _ := s.finalWin(d) // the stalemate: the lead so far stays
		return u
	}
	a := c.passNext.winAt(true)
	return s.f.Sub(s.zero, a.wo[a.at(-d)])
}

// winPassRoleChoice returns role r's choice in c at lead d, just after a pass (after) or not,
// into whose values w the choice is written.
func (s *copiesSolver[T]) winPassRoleChoice(c *copiesCell[T], w *copiesWinCell[T], r, d int, after bool) rules.Choice {
	switch p := s.pol[r]; p {
	case rules.PolicyWinOptimal:
		return w.woC[w.at(d)]
	case rules.PolicyWinBestResponse:
		ch, _ := s.best(c, false, func(ch rules.Choice) T {
			u, _, _ := s.winChoiceValue(c, r, ch, d, after)
			return u
		})
		return ch
	case rules.PolicyBestResponse:
		ch, _ := s.best(c, false, func(ch rules.Choice) T {
			_, _, l := s.winChoiceValue(c, r, ch, d, after)
			return l
		})
		return ch
	case rules.PolicyOptimal:
		if after {
			return c.optAfterChoice
		}
		return c.optChoice
	default:
		return fixedChoice(c, p)
	}
}

// winChoiceValue returns the mover's P(win) - P(loss), P(draw) and expected lead of the pairs
// left after choice ch of role r in c at lead d, just after a pass (after) or not, the matchup
// played afterwards. A pass just after a pass is the stalemate: the pairs left shared, the lead
// so far final. A pass otherwise is worth the other role's values just after it at lead -d,
// mirrored, in the same state (with one turn fewer under a turn limit). Without a pass rule it is
// winRoleValues.
func (s *copiesSolver[T]) winChoiceValue(c *copiesCell[T], r int, ch rules.Choice, d int, after bool) (T, T, T) {
	if ch != rules.Pass {
		return s.winRoleValues(c, r, ch, d)
	}
	if after {
		u, dr := s.finalWin(d)
		return u, dr, s.zero
	}
	a := c.passNext.winAt(true)
	j := a.at(-d)
	return s.f.Sub(s.zero, a.u[1-r][j]), a.draw[1-r][j], s.f.Sub(s.zero, a.lead[1-r][j])
}

// winPassTotal returns, under a turn limit, the pairs both seats take by the limit after choice ch
// of role r in c at lead d, just after a pass (after) or not, the matchup played afterwards: the
// stalemate credits them with every pair left, a pass otherwise leads to the other role's total
// just after it (without a limit, zero as winTotal).
func (s *copiesSolver[T]) winPassTotal(c *copiesCell[T], r int, ch rules.Choice, d int, after bool) T {
	switch {
	case s.limit == 0:
		return s.zero
	case ch == rules.Pass && after:
		return s.f.FromInt(int64(c.pairs))
	case ch == rules.Pass:
		a := c.passNext.winAt(true)
		return a.total[1-r][a.at(-d)]
	}
	return s.winTotal(c, r, ch, d)
}

// winAt returns the win values of c just after a pass by the other seat (after) or not.
func (c *copiesCell[T]) winAt(after bool) *copiesWinCell[T] {
	if after && c.win.afterPass != nil {
		return c.win.afterPass
	}
	return c.win
}

// passStep carries probability p of position at, in state v, over a pass by its mover (winStep):
// just after a pass the stalemate ends the game, the pairs left shared equally; otherwise the
// other seat moves in the same state, just after a pass.
func (s *copiesSolver[T]) passStep(at copiesPos, p T, v copiesVec, add func(copiesPos, T), end func(T, int, int)) {
	if at.passed {
		end(p, 2*at.a0+v.state().Pairs(), at.a0-at.a1)
		return
	}
	next := at
	next.seat, next.passed = 1-at.seat, true
	add(next, p)
}
