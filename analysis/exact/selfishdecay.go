package exact

import (
	"fmt"
	"math"
	"strings"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat for itself under decay forgetting (docs/models.md §4.7, §4.14). A forgotten card can
// hand the next seat a state of the same size, so the vectors of a row's states refer to each
// other: with choice c in state k the mover's vector is a_c(k) + sum_k' p_c(k, k') rot(v(k')),
// rot turning the seats by one (the next seat moves in k'). Written per seat, the row is one
// linear system of p unknowns per state, unknown (k, s) referring to the unknowns (k', s-1) only.
//
// A stationary optimum is a choice per state such that, every seat playing it, no mover gains by
// deviating once: a_c'(k)[0] + sum p_c'(k, k') v(k')[p-1] <= v(k)[0] for every choice c'. The
// solver finds one by policy iteration on the row: solve the system for the current choices,
// switch every state where some choice gives the mover strictly more than its current one to the
// first choice of the largest value (in the order daring, safe, known-first; a state keeps its
// choice while none beats it strictly), and repeat until no state switches. Unlike a maximum this
// need not settle. When a profile of choices comes back, the iteration starts again from the
// profile of the smallest largest gain so far, switching one state at a time (the first of the
// largest gain); when a profile comes back again, or after selfDecayIterations steps in all, the
// row takes the profile visited whose largest one-step gain is smallest (the first visited among
// equals), and its states with a gain are listed by SelfishGaps.

// DecaySelfishRationalLimit is DecayRationalLimit for the optimum of every seat for itself at
// three or more seats, whose rows have p unknowns per state and whose numbers grow faster (8 seats
// take 8 s at 12 pairs, 42 s at 16): tables and tournaments' exact values are exact up to it.
const DecaySelfishRationalLimit = 12

// SeatsRationalLimit is RationalLimit for a matchup of players seats in which a seat plays
// optimal: DecaySelfishRationalLimit under decay forgetting at three or more seats,
// DecayStreakRationalLimit under decay and a pass rule other than never, FluctSelfishRationalLimit
// under a fluctuating capacity (FluctStreakRationalLimit under a pass rule other than never).
func (m Model) SeatsRationalLimit(players int) int {
	if players > 2 && m.Memory.Fluctuation > 0 && m.Pass != rules.PassNever {
		return min(m.RationalLimit(), FluctStreakRationalLimit)
	}
	if players > 2 && m.Memory.Fluctuation > 0 {
		return min(m.RationalLimit(), FluctSelfishRationalLimit)
	}
	if players > 2 && m.isDecay() && m.Pass != rules.PassNever {
		return min(m.RationalLimit(), DecayStreakRationalLimit)
	}
	if players > 2 && m.isDecay() {
		return min(m.RationalLimit(), DecaySelfishRationalLimit)
	}
	return m.RationalLimit()
}

// selfDecayIterations bounds the policy iteration of a row of every seat for itself.
const selfDecayIterations = 100

// selfEq is the equation of one state's vector for one choice: every seat's expected pairs a
// collected from the outcomes that leave the row (in order from the mover), and the probabilities
// coef of handing the next seat the row's states to.
type selfEq[T any] struct {
	a    []T
	to   []int
	coef []T
}

// selfRow is a row of the decay model for every seat for itself: eqs[k][c] is state k's equation
// for choice c, nil where c is illegal.
type selfRow[T any] struct {
	p   int
	eqs [][rules.NumChoices]*selfEq[T]
}

// vectorSystem returns the row's equations of every vector under the choices ch, for the win
// objective's vectors of nv entries per seat: unknown k·p + s holds seat s's entries (from the
// mover of state k) of the nv vectors, as[k][c][v·p + s] the part of state k's vector v for
// choice c known from outside the row; the states a choice refers to are moved by the next seat.
func (r *selfRow[T]) vectorSystem(ch []rules.Choice, as [][rules.NumChoices][]T, nv int) []decayEq[T] {
	p := r.p
	out := make([]decayEq[T], len(r.eqs)*p)
	for k := range r.eqs {
		e := r.eqs[k][ch[k]]
		for s := range p {
			a := make([]T, nv)
			for v := range nv {
				a[v] = as[k][ch[k]][v*p+s]
			}
			to := make([]int, len(e.to))
			for t, k2 := range e.to {
				to[t] = k2*p + (s+p-1)%p
			}
			out[k*p+s] = decayEq[T]{a: a, to: to, coef: e.coef}
		}
	}
	return out
}

// system returns the row's scalar equations for the choices ch, unknown k*p + s being seat s's
// (from the mover) expected pairs in state k.
func (r *selfRow[T]) system(ch []rules.Choice) []decayEq[T] {
	p := r.p
	out := make([]decayEq[T], p*len(r.eqs))
	for k := range r.eqs {
		e := r.eqs[k][ch[k]]
		for s := range p {
			to := make([]int, len(e.to))
			for i, k2 := range e.to {
				to[i] = k2*p + (s+p-1)%p
			}
			out[k*p+s] = decayEq[T]{a: []T{e.a[s]}, to: to, coef: e.coef}
		}
	}
	return out
}

// deviations returns every legal choice's value to the mover of state k made once, the row's
// solution x played afterwards, the first legal choice of the largest value and that value.
func (r *selfRow[T]) deviations(f field.Field[T], k int, x [][]T) (choiceVals[T], rules.Choice, T) {
	return bestOfChoices(f, &r.eqs[k], 1, func(e *selfEq[T]) T {
		v := e.a[0]
		for i, k2 := range e.to {
			v = f.Add(v, f.Mul(e.coef[i], x[k2*r.p+r.p-1][0]))
		}
		return v
	})
}

// selfRowSolution is a profile of choices of a row with the row's solution for it: x[k*p+s][0]
// is seat s's value in state k, vals[k] every legal choice's value to the mover of state k, gain[k]
// how much the best of them gives the mover more than the profile's choice (zero: no gain).
type selfRowSolution[T any] struct {
	ch   []rules.Choice
	x    [][]T
	vals []choiceVals[T]
	best []rules.Choice
	gain []T
	eps  T
}

// evaluate solves the row for the choices ch and measures every state's one-step gain.
func (r *selfRow[T]) evaluate(f field.Field[T], ch []rules.Choice) (*selfRowSolution[T], error) {
	x, err := solveRow(f, r.system(ch))
	if err != nil {
		return nil, err
	}
	zero := f.FromInt(0)
	s := &selfRowSolution[T]{ch: append([]rules.Choice(nil), ch...), x: x, eps: zero,
		vals: make([]choiceVals[T], len(ch)), best: make([]rules.Choice, len(ch)), gain: make([]T, len(ch))}
	for k := range ch {
		var v T
		s.vals[k], s.best[k], v = r.deviations(f, k, x)
		s.gain[k] = zero
		if d := f.Sub(v, x[k*r.p][0]); f.Cmp(d, zero) > 0 {
			s.gain[k] = d
			if f.Cmp(d, s.eps) > 0 {
				s.eps = d
			}
		}
	}
	return s, nil
}

// iterate runs the policy iteration from the choices seed (see above) for at most limit steps:
// switching every state with a gain at once, then, should a profile come back, only the state of
// the largest gain (the first such state) at a time. It returns the profile reached, or without one
// the profile visited of the smallest largest gain, and whether no state of it has a gain.
func (r *selfRow[T]) iterate(f field.Field[T], seed []rules.Choice, limit int) (*selfRowSolution[T], bool, error) {
	zero := f.FromInt(0)
	ch := append([]rules.Choice(nil), seed...)
	seen := map[string]bool{}
	var least *selfRowSolution[T]
	single := false
	for range limit {
		s, err := r.evaluate(f, ch)
		if err != nil {
			return nil, false, err
		}
		if f.Cmp(s.eps, zero) == 0 {
			return s, true, nil
		}
		if least == nil || f.Cmp(s.eps, least.eps) < 0 {
			least = s
		}
		seen[profileKey(ch)] = true
		for k := range ch {
			if f.Cmp(s.gain[k], zero) > 0 && (!single || f.Cmp(s.gain[k], s.eps) == 0) {
				ch[k] = s.best[k]
				if single {
					break
				}
			}
		}
		if seen[profileKey(ch)] {
			if single {
				break
			}
			single, seen = true, map[string]bool{}
			copy(ch, least.ch)
		}
	}
	return least, false, nil
}

// profileKey names a profile of choices, to find one that comes back.
func profileKey(ch []rules.Choice) string {
	var b strings.Builder
	for _, c := range ch {
		b.WriteByte(byte('0' + c))
	}
	return b.String()
}

// toFloat returns the row in float64, to find the choices fast before solving exactly.
func (r *selfRow[T]) toFloat(f field.Field[T]) *selfRow[float64] {
	g := &selfRow[float64]{p: r.p, eqs: make([][rules.NumChoices]*selfEq[float64], len(r.eqs))}
	for k := range r.eqs {
		for c, e := range r.eqs[k] {
			if e == nil {
				continue
			}
			out := &selfEq[float64]{to: e.to}
			for _, v := range e.a {
				out.a = append(out.a, f.Float64(v))
			}
			for _, v := range e.coef {
				out.coef = append(out.coef, f.Float64(v))
			}
			g.eqs[k][c] = out
		}
	}
	return g
}

// solve finds the row's stationary optimum: by policy iteration in float64 first (in an exact
// field), then in the field itself from those choices, which ends by solving the row exactly and
// measuring every state's gain exactly. Where float64 finds no profile without a gain, the field
// evaluates the profile float64 chose, without iterating further.
func (r *selfRow[T]) solve(f field.Field[T]) (*selfRowSolution[T], error) {
	seed := make([]rules.Choice, len(r.eqs))
	for k := range seed {
		seed[k] = firstOfSelf(r.eqs[k])
	}
	if _, isFloat := any(f).(field.Float); isFloat {
		s, _, err := r.iterate(f, seed, selfDecayIterations)
		return s, err
	}
	fs, settled, err := r.toFloat(f).iterate(field.Float{}, seed, selfDecayIterations)
	if err != nil {
		return nil, err
	}
	if !settled {
		return r.evaluate(f, fs.ch)
	}
	s, _, err := r.iterate(f, fs.ch, selfDecayIterations)
	return s, err
}

// firstOfSelf returns the first legal choice of a state (in the order of rules.Choices).
func firstOfSelf[T any](eqs [rules.NumChoices]*selfEq[T]) rules.Choice {
	for _, c := range rules.Choices() {
		if eqs[c] != nil {
			return c
		}
	}
	return rules.Daring
}

// selfEquation returns the equation of the vector of the mover in cells[k] making choice ch:
// outcomes that leave the row are read in the previous row's vectors (turned by one seat when the
// next seat moves), those that hand the next seat a state of the row are kept as references.
func (w *sweep[T]) selfEquation(c *decayCell[T], ch rules.Choice, n int) *selfEq[T] {
	f := w.f
	p := w.mu.Players
	e := &selfEq[T]{a: w.zeros(p)}
	for i, o := range c.outs[ch] {
		pr := c.probs[ch][i]
		if k := sameRow(o, n); k >= 0 {
			e.to = append(e.to, k)
			e.coef = append(e.coef, pr)
			continue
		}
		succ := w.at(o.Next).self
		if o.Continue {
			w.addSeats(e.a, pr, succ, 0, o.MoverGain)
			continue
		}
		for s := range e.a {
			v := succ[(s+p-1)%p]
			if s == 1 {
				v = f.Add(v, w.ints[o.NextGain])
			}
			e.a[s] = f.Add(e.a[s], f.Mul(pr, v))
		}
	}
	m := decayEq[T]{to: e.to, coef: e.coef}
	m.merge(f)
	e.to, e.coef = m.to, m.coef
	return e
}

// decaySelfish solves the row of n pairs for the optimum of every seat for itself and keeps, for
// every state, its vector, choice, gain and every legal choice's value to the mover.
func (w *sweep[T]) decaySelfish(n int, cells []decayCell[T]) error {
	f := w.f
	p := w.mu.Players
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], len(cells))}
	for k := range cells {
		for _, ch := range rules.Choices() {
			if cells[k].legal[ch] && ch != rules.Pass {
				r.eqs[k][ch] = w.selfEquation(&cells[k], ch, n)
			}
		}
	}
	s, err := r.solve(f)
	if err != nil {
		return fmt.Errorf("every seat for itself: %w", err)
	}
	for k := range cells {
		c := &cells[k]
		vec := make([]T, p)
		for t := range vec {
			vec[t] = s.x[k*p+t][0]
		}
		w.at(c.st).self = vec
		c.selfChoice, c.selfGap = s.ch[k], s.gain[k]
		top := s.vals[k][s.best[k]]
		for _, ch := range rules.Choices() {
			c.optBest[ch] = false
			if r.eqs[k][ch] != nil {
				c.selfDev[ch] = s.vals[k][ch]
				c.optBest[ch] = f.Cmp(c.selfDev[ch], top) == 0
			}
		}
	}
	return nil
}

// The work of a row of every seat for itself (see decayRowOps), measured with q = 0.1: p seats
// make a system of p unknowns per state, whose elimination and policy iteration cost about p³/40
// units of a row of the two-player optimum in float64 (memsim solve --players P --forget decay
// --q 0.1 --float: 3 seats and 100 pairs take 0.6 s, 4 seats 1.4 s, 8 seats and 50 pairs 1.6 s);
// in exact rationals the rotation of the seats makes the numbers grow with p as well, by about
// rationalSelfDecay·p^0.85 more (3 seats and 30 pairs take 75 s, 6 seats and 16 pairs 14 s, 8
// seats 42 s).
const (
	floatSelfDecay    = 1.0 / 40
	rationalSelfDecay = 2.6
)

// selfDecayUnits returns the units of work of a row of every seat for itself under decay.
func (w *sweep[T]) selfDecayUnits() float64 {
	p := float64(w.mu.Players)
	units := floatSelfDecay * p * p * p
	if w.exact() {
		units *= rationalSelfDecay * math.Pow(p, 0.85)
	}
	if w.streak != nil {
		units *= w.streakFactor()
	}
	return units
}
