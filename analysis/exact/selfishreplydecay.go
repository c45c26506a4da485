package exact

import (
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A best reply at three or more seats under decay forgetting and pass rule never (docs/models.md
// §4.7). A forgotten card can hand the next seat a state of the same size, so the unknowns of a
// row's states refer to each other: unknown k*p + t, every seat's expected pairs in the row's state
// k with seat t to move, refers to the unknowns (k', t+1). The other seats' choices are fixed
// functions of the state (a fixed policy, or the optimum of every seat for itself solved before),
// so the replying seat r faces a Markov decision problem on the row, with one decision per state,
// at the unknown k*p + r. It is solved by policy iteration (choiceSys): solve the row for the
// current choices, switch every state where another choice gives r strictly more, and repeat;
// for one maximiser whose every choice leaves the row with positive probability this ends at a
// best reply. Among choices that give r the same, the reply keeps the first in the order daring,
// safe, known-first, as the perfect-memory reply does (multiReply).

// multiEq returns the equation of every seat's expected pairs (seat 0 first) in the row's state c
// with seat t to move making choice ch under pass rule never: outcomes that hand the next seat a
// state of the row refer to its unknown (k'*p + t+1), the others are read in the previous row.
func (w *sweep[T]) multiEq(c *decayCell[T], n, t int, ch rules.Choice) decayEq[T] {
	p := w.mu.Players
	next := (t + 1) % p
	e := decayEq[T]{a: w.zeros(p)}
	for i, o := range c.outs[ch] {
		pr := c.probs[ch][i]
		if k2 := sameRow(o, n); k2 >= 0 {
			e.to = append(e.to, k2*p+next)
			e.coef = append(e.coef, pr)
			continue
		}
		w.addOutcome(e.a, pr, o, t, next)
	}
	e.merge(w.f)
	return e
}

// turnedSeats returns the vector v (seat 0 first) turned so that seat r comes first, the
// component a choiceSys maximises.
func turnedSeats[T any](v []T, r int) []T {
	p := len(v)
	out := make([]T, p)
	for i := range out {
		out[i] = v[(r+i)%p]
	}
	return out
}

// unturnedSeats undoes turnedSeats: it returns seat 0 first again.
func unturnedSeats[T any](v []T, r int) []T {
	p := len(v)
	out := make([]T, p)
	for i := range out {
		out[(r+i)%p] = v[i]
	}
	return out
}

// decayReply solves the row of n pairs when seat r replies to the others (pass rule never): the
// replying seat's choice in every state (cell.brChoice) and every seat's expected pairs with each
// seat to move (cell.seats).
func (w *sweep[T]) decayReply(n int, cells []decayCell[T], r int) error {
	f := w.f
	p := w.mu.Players
	s := &choiceSys[T]{fixed: make([]decayEq[T], p*len(cells)), at: make([]int, len(cells)),
		eqs: make([][rules.NumChoices]*decayEq[T], len(cells)), sign: 1}
	for k := range cells {
		c := &cells[k]
		w.load(c)
		for t := range p {
			if t == r {
				continue
			}
			e := w.multiEq(c, n, t, w.seatChoice(t, c.st))
			e.a = turnedSeats(e.a, r)
			s.fixed[k*p+t] = e
		}
		s.at[k] = k*p + r
		for _, ch := range rules.Choices() {
			if c.legal[ch] && ch != rules.Pass {
				e := w.multiEq(c, n, r, ch)
				e.a = turnedSeats(e.a, r)
				s.eqs[k][ch] = &e
			}
		}
	}
	ch, x, err := solveReply(f, s)
	if err != nil {
		return fmt.Errorf("best reply of seat %d at %d seats: %w", r, p, err)
	}
	for k := range cells {
		cells[k].brChoice = [2]rules.Choice{ch[k], ch[k]}
		seats := make([][]T, p)
		for t := range seats {
			seats[t] = unturnedSeats(x[k*p+t], r)
		}
		w.at(cells[k].st).seats = seats
	}
	return nil
}

// solveReply solves the decision problem s of one maximiser (choiceSys.solve) and then takes, in
// every state, the first choice in the order of rules.Choices of the largest value, solving the row
// again should that change a choice: every choice of the best value being a best reply, the values
// stay the same.
func solveReply[T any](f field.Field[T], s *choiceSys[T]) ([]rules.Choice, [][]T, error) {
	ch, x, _, err := s.solve(f)
	if err != nil {
		return nil, nil, err
	}
	changed := false
	for k, i := range s.at {
		_, c, v := s.best(f, k, x)
		if c != ch[k] && f.Cmp(v, x[i][0]) == 0 {
			ch[k], changed = c, true
		}
	}
	if changed {
		if x, err = solveRow(f, s.system(ch)); err != nil {
			return nil, nil, err
		}
	}
	return ch, x, nil
}

// Under the pass rules two-known and always the replying seat chooses at every pass streak, a pass
// included: under decay forgetting the unknowns of a row (state k, streak l, seat t to move,
// multiIndex) refer to each other, and under limited memory those of one state (streak l, seat t
// to move, l*p + t), through passes and forgotten cards. Each is the same decision problem, with
// one decision per state and streak at the replying seat's unknown, solved by the same policy
// iteration.

// replySys returns the decision problem of seat r on unknowns numbered by index(k, l, t) for the
// states k of states and the streaks l: eq(k, l, t, ch) is the equation of every seat's expected
// pairs (seat 0 first) with seat t to move making ch, fixed(k, l, t) the choice of a seat t other
// than r, and legal(k) the legal choices of state k.
func replySys[T any](p, r, states int, eq func(k, l, t int, ch rules.Choice) decayEq[T],
	fixed func(k, l, t int) rules.Choice, legal func(k int) [rules.NumChoices]bool,
	index func(k, l, t int) int) *choiceSys[T] {
	s := &choiceSys[T]{fixed: make([]decayEq[T], p*p*states), at: make([]int, p*states),
		eqs: make([][rules.NumChoices]*decayEq[T], p*states), sign: 1}
	for k := range states {
		lg := legal(k)
		for l := range p {
			for t := range p {
				if t == r {
					continue
				}
				e := eq(k, l, t, fixed(k, l, t))
				e.a = turnedSeats(e.a, r)
				s.fixed[index(k, l, t)] = e
			}
			d := k*p + l
			s.at[d] = index(k, l, r)
			for _, ch := range rules.Choices() {
				if lg[ch] {
					e := eq(k, l, r, ch)
					e.a = turnedSeats(e.a, r)
					s.eqs[d][ch] = &e
				}
			}
		}
	}
	return s
}

// unturnedAll returns the solution x of a replySys with seat 0 first again.
func unturnedAll[T any](x [][]T, r int) [][]T {
	out := make([][]T, len(x))
	for i, v := range x {
		out[i] = unturnedSeats(v, r)
	}
	return out
}

// decayReplyPass solves the row of n pairs under a pass rule when seat r replies to the others:
// its choice at every streak of every state (passStreak.reply) and every seat's expected pairs
// with each seat to move at every streak.
func (w *sweep[T]) decayReplyPass(n int, cells []decayCell[T], r int) error {
	p := w.mu.Players
	for k := range cells {
		w.cellLevels(&cells[k])
	}
	s := replySys(p, r, len(cells),
		func(k, l, t int, ch rules.Choice) decayEq[T] { return w.multiPassEq(&cells[k], n, l, t, ch) },
		func(k, l, t int) rules.Choice {
			w.load(&cells[k])
			return w.seatChoiceAt(t, cells[k].st, l)
		},
		func(k int) [rules.NumChoices]bool { return cells[k].legal },
		func(k, l, t int) int { return multiIndex(k, l, t, p) })
	ch, x, err := solveReply(w.f, s)
	if err != nil {
		return fmt.Errorf("best reply of seat %d at %d seats under pass rule %s: %w", r, p, w.m.Pass, err)
	}
	for k := range cells {
		c := &cells[k]
		copy(c.levels.reply, ch[k*p:(k+1)*p])
		c.brChoice = [2]rules.Choice{ch[k*p], ch[k*p]}
	}
	w.keepMultiPass(n, cells, unturnedAll(x, r))
	return nil
}

// replyLimitPass computes, under limited memory and a pass rule, seat r's reply at every streak of
// st (passStreak.reply, and brChoice at streak 0) and every seat's expected pairs with each seat to
// move at every streak.
func (w *sweep[T]) replyLimitPass(st rules.State, c *cell[T], r int) {
	p := w.mu.Players
	s := replySys(p, r, 1,
		func(_, l, t int, ch rules.Choice) decayEq[T] { return w.limitPassEq(st, l, t, ch) },
		func(_, l, t int) rules.Choice { return w.seatChoiceAt(t, st, l) },
		func(int) [rules.NumChoices]bool { return w.legal },
		func(_, l, t int) int { return l*p + t })
	ch, x, err := solveReply(w.f, s)
	if err != nil {
		// The state's pivots are never zero (decayrow.go's solveRow), and a maximiser's policy
		// iteration settles: only a broken invariant gets here.
		panic("exact: " + err.Error())
	}
	copy(w.streak.reply, ch)
	w.brChoice = [2]rules.Choice{ch[0], ch[0]}
	w.keepLimitPass(c, unturnedAll(x, r))
}
