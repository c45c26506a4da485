package exact

import (
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat for itself, and a policy per seat, under decay forgetting and the pass rules
// two-known and always at three to eight seats (docs/models.md §4.7, §4.14). The values of a state
// depend on the pass streak l = 0 .. p-1, as with perfect memory (selfishpass.go): a pass at
// l < p-1 hands the next seat, at streak l+1, the state the hand-over's forgetting leaves; a pass
// at l = p-1 ends the game in a stalemate (every seat n/p), whatever was forgotten in between, as
// the engine counts passes in a row; every other turn hands the next seat (or the mover, after a
// pair) a state at streak 0. A forgotten card ties the streak levels of a row's states together,
// so each (state, streak) is a position of the row's system (selfRow), the position of state k
// at streak l being k*p + l, with p unknowns each, solved by the policy iteration of
// selfishdecay.go. Outcomes that leave the row take a pair, so they are read at streak 0 in the
// previous row, as under pass rule never.

// DecayStreakRationalLimit is DecaySelfishRationalLimit under a pass rule other than never, whose
// rows have p unknowns per state and streak (8 seats take 24 s at 8 pairs, 68 s at 10; 3 seats
// 0.4 s at 8 pairs, 4.6 s at 16).
const DecayStreakRationalLimit = 8

// streakEqs holds one state's equations for a row of every seat for itself under a pass rule:
// turn[c], for each legal choice c other than a pass, refers to the states (by their index in the
// row) the next seat moves in at streak 0; pass, when a pass is legal, to the states the next
// seat moves in after the pass (its a is not read); stalemate is the vector of a game ended by a
// stalemate in the state.
type streakEqs[T any] struct {
	turn      [rules.NumChoices]*selfEq[T]
	pass      *selfEq[T]
	stalemate []T
}

// streakRow returns the row of the states' equations at every streak, 0 to p-1: the position of
// state k at streak l is k*p + l.
func streakRow[T any](f field.Field[T], p int, states []streakEqs[T]) *selfRow[T] {
	zero := f.FromInt(0)
	zeros := make([]T, p)
	for s := range zeros {
		zeros[s] = zero
	}
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], p*len(states))}
	for k, st := range states {
		var turn [rules.NumChoices]*selfEq[T]
		for c, e := range st.turn {
			if e != nil {
				turn[c] = &selfEq[T]{a: e.a, to: streakRefs(e.to, p, 0), coef: e.coef}
			}
		}
		for l := range p {
			pos := k*p + l
			r.eqs[pos] = turn
			switch {
			case st.pass == nil:
			case l == p-1:
				r.eqs[pos][rules.Pass] = &selfEq[T]{a: st.stalemate}
			default:
				r.eqs[pos][rules.Pass] = &selfEq[T]{a: zeros, to: streakRefs(st.pass.to, p, l+1), coef: st.pass.coef}
			}
		}
	}
	return r
}

// streakRefs returns the positions of the states to at streak l.
func streakRefs(to []int, p, l int) []int {
	out := make([]int, len(to))
	for i, k := range to {
		out[i] = k*p + l
	}
	return out
}

// keepLevels copies the row's solution s for state k (of legal choices legal) into the levels lv:
// every streak's vector, choice, gain, every legal choice's value to the mover and the choices
// worth the most.
func keepLevels[T any](f field.Field[T], s *selfRowSolution[T], k int, legal [rules.NumChoices]bool, lv *passStreak[T]) {
	p := len(lv.self)
	for l := range p {
		pos := k*p + l
		vec := make([]T, p)
		for t := range vec {
			vec[t] = s.x[pos*p+t][0]
		}
		lv.self[l], lv.choice[l], lv.gap[l] = vec, s.ch[pos], s.gain[pos]
		top := s.vals[pos][s.best[pos]]
		for _, ch := range rules.Choices() {
			lv.best[l][ch] = false
			if legal[ch] {
				lv.dev[l][ch] = s.vals[pos][ch]
				lv.best[l][ch] = f.Cmp(s.vals[pos][ch], top) == 0
			}
		}
	}
}

// afterPassVec returns every seat's expected pairs, in order from the mover, after a pass made at
// streak 0 by the mover of a state whose pass hands the next seat the row's states to with
// probabilities coef, at streak 1, x being the row's solution (p unknowns per position).
func afterPassVec[T any](f field.Field[T], p int, to []int, coef []T, x [][]T) []T {
	out := make([]T, p)
	for s := range out {
		out[s] = f.FromInt(0)
		for i, k := range to {
			// Seat s from the mover is seat s-1 from the next seat.
			out[s] = f.Add(out[s], f.Mul(coef[i], x[(k*p+1)*p+(s+p-1)%p][0]))
		}
	}
	return out
}

// decaySelfishPass solves the row of n pairs for the optimum of every seat for itself under a
// pass rule, at every streak, and keeps every state's levels.
func (w *sweep[T]) decaySelfishPass(n int, cells []decayCell[T]) error {
	f := w.f
	p := w.mu.Players
	states := make([]streakEqs[T], len(cells))
	for k := range cells {
		c := &cells[k]
		states[k].stalemate = w.stalemate(c.st)
		for _, ch := range rules.Choices() {
			if !c.legal[ch] {
				continue
			}
			// Every outcome of a pass stays in the row: the equation's references are all of it.
			e := w.selfEquation(c, ch, n)
			if ch == rules.Pass {
				states[k].pass = e
			} else {
				states[k].turn[ch] = e
			}
		}
	}
	s, err := streakRow(f, p, states).solve(f)
	if err != nil {
		return fmt.Errorf("every seat for itself under pass rule %s: %w", w.m.Pass, err)
	}
	for k := range cells {
		c := &cells[k]
		lv := w.cellLevels(c)
		keepLevels(f, s, k, c.legal, lv)
		if e := states[k].pass; e != nil {
			lv.afterPass = afterPassVec(f, p, e.to, e.coef, s.x)
		}
		w.at(c.st).self = lv.self[0]
		c.selfChoice, c.selfGap, c.selfDev, c.optBest = lv.choice[0], lv.gap[0], lv.dev[0], lv.best[0]
	}
	return nil
}

// cellLevels returns the levels of a row's state c, made when it has none yet.
func (w *sweep[T]) cellLevels(c *decayCell[T]) *passStreak[T] {
	if c.levels == nil {
		c.levels = newPassStreak[T](w.mu.Players)
	}
	return c.levels
}

// multiIndex numbers the unknowns of a row of p seats under a pass rule: state k, streak l, seat t
// to move.
func multiIndex(k, l, t, p int) int { return (k*p+l)*p + t }

// decayMultiPass solves every seat's expected pairs (seat 0 first) with each seat to move at every
// streak in the row of n pairs under a pass rule, every seat playing the lineup's policy; a seat
// that plays best-response chooses by policy iteration (decayReplyPass).
func (w *sweep[T]) decayMultiPass(n int, cells []decayCell[T]) error {
	f := w.f
	p := w.mu.Players
	if r := w.mu.replySeat(); r >= 0 {
		return w.decayReplyPass(n, cells, r)
	}
	eqs := make([]decayEq[T], p*p*len(cells))
	for k := range cells {
		c := &cells[k]
		w.cellLevels(c)
		w.load(c)
		for l := range p {
			for t := range p {
				eqs[multiIndex(k, l, t, p)] = w.multiPassEq(c, n, l, t, w.seatChoiceAt(t, c.st, l))
			}
		}
	}
	x, err := solveRow(f, eqs)
	if err != nil {
		return fmt.Errorf("%d seats under pass rule %s: %w", p, w.m.Pass, err)
	}
	w.keepMultiPass(n, cells, x)
	return nil
}

// keepMultiPass keeps the solution x of a row of n pairs under a pass rule (unknown multiIndex(k,
// l, t), seat 0 first) in the levels of its states.
func (w *sweep[T]) keepMultiPass(n int, cells []decayCell[T], x [][]T) {
	p := w.mu.Players
	for k := range cells {
		c := &cells[k]
		lv := c.levels
		for l := range p {
			lv.seats[l] = x[multiIndex(k, l, 0, p):multiIndex(k, l+1, 0, p)]
		}
		w.at(c.st).seats = lv.seats[0]
		if c.legal[rules.Pass] {
			vec := w.zeros(p)
			for i, o := range c.outs[rules.Pass] {
				w.addSeats(vec, c.probs[rules.Pass][i], x[multiIndex(sameRow(o, n), 1, 1, p)], 1, 0)
			}
			lv.seatsAfterPass = vec
		}
	}
}

// multiPassEq returns the equation of every seat's expected pairs in the row's state c at streak l
// with seat t to move, making choice ch.
func (w *sweep[T]) multiPassEq(c *decayCell[T], n, l, t int, ch rules.Choice) decayEq[T] {
	p := w.mu.Players
	next := (t + 1) % p
	e := decayEq[T]{a: w.zeros(p)}
	switch {
	case ch == rules.Pass && l == p-1:
		e.a = w.stalemate(c.st)
	case ch == rules.Pass:
		for i, o := range c.outs[ch] {
			e.to = append(e.to, multiIndex(sameRow(o, n), l+1, next, p))
			e.coef = append(e.coef, c.probs[ch][i])
		}
	default:
		for i, o := range c.outs[ch] {
			pr := c.probs[ch][i]
			if k2 := sameRow(o, n); k2 >= 0 {
				e.to = append(e.to, multiIndex(k2, 0, next, p))
				e.coef = append(e.coef, pr)
				continue
			}
			w.addOutcome(e.a, pr, o, t, next)
		}
	}
	e.merge(w.f)
	return e
}

// decayStreakRow solves the row of n pairs of three or more seats under a pass rule.
func (w *sweep[T]) decayStreakRow(n int, cells []decayCell[T]) error {
	if w.needSelf {
		if err := w.decaySelfishPass(n, cells); err != nil {
			return err
		}
	}
	if w.needMulti {
		return w.decayMultiPass(n, cells)
	}
	return nil
}

// streakFactor returns how many times the work of a row of every seat for itself under pass rule
// never a row under a pass rule takes, measured with q = 0.2 (memsim solve --forget decay --q 0.2
// --pass always --players P): the system has p times the unknowns and p times the band, so an
// elimination costs p³ times more, and from five seats on the policy iteration often runs to its
// bound (float64 at 20 pairs: 3 seats 0.2 s under two-known, 4 seats 1.0 s, 5 seats 36 s, 6 seats 63 s, 8 seats
// 140 s); in exact rationals the numbers' growth dominates (8 pairs: 3 seats 0.4 s, 5 seats 3.2 s,
// 6 seats 16 s, 8 seats 24 s).
func (w *sweep[T]) streakFactor() float64 {
	p := float64(w.mu.Players)
	if w.exact() {
		return 2 * p
	}
	return math.Pow(p, 4) / 4
}
