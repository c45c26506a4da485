package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// decayEq is the equation of one unknown of a row of the decay model: x = a + sum_i coef[i] *
// x[to[i]], a being a vector of values (one per seat, say), the to[i] other unknowns of the same
// row.
type decayEq[T any] struct {
	a    []T
	to   []int
	coef []T
}

// merge adds together the coefficients of an unknown referred to more than once (outcomes of
// different events may lead to the same successor), keeping its first place.
func (e *decayEq[T]) merge(f field.Field[T]) {
	if len(e.to) < 2 {
		return
	}
	at := make(map[int]int, len(e.to))
	to, coef := e.to[:0], e.coef[:0]
	for i, l := range e.to {
		c := e.coef[i]
		if j, ok := at[l]; ok {
			coef[j] = f.Add(coef[j], c)
			continue
		}
		at[l] = len(to)
		to, coef = append(to, l), append(coef, c)
	}
	e.to, e.coef = to, coef
}

// solveRow solves x = a + C x for the unknowns of one row by Gaussian elimination without
// pivoting. Every unknown of the decay model refers to unknowns with at most a few more known
// cards (a turn adds at most two), so that, numbered by known cards, C has few diagonals above the
// main one: the elimination keeps that band and costs O(N^2 * band). Every row of I - C is strictly
// diagonally dominant (each choice leaves the row with positive probability, and the coefficients'
// magnitudes sum to the probability of staying), a property elimination keeps, so no pivot is
// zero; the check guards the arithmetic.
func solveRow[T any](f field.Field[T], eqs []decayEq[T]) ([][]T, error) {
	if _, ok := any(f).(field.Rat); ok {
		x, err := solveRowRat(any(eqs).([]decayEq[*big.Rat]))
		return any(x).([][]T), err
	}
	n := len(eqs)
	zero, one := f.FromInt(0), f.FromInt(1)
	m := make([][]T, n)
	rhs := make([][]T, n)
	band := 0
	for i, e := range eqs {
		row := make([]T, n)
		for l := range row {
			row[l] = zero
		}
		row[i] = one
		for t, l := range e.to {
			row[l] = f.Sub(row[l], e.coef[t])
			band = max(band, l-i)
		}
		m[i] = row
		rhs[i] = append([]T(nil), e.a...)
	}
	for c := range n {
		piv := m[c][c]
		if f.IsZero(piv) {
			return nil, fmt.Errorf("exact: the decay equations are singular at unknown %d", c)
		}
		end := min(n-1, c+band)
		for r := c + 1; r < n; r++ {
			if f.IsZero(m[r][c]) {
				continue
			}
			fac := f.Div(m[r][c], piv)
			for l := c + 1; l <= end; l++ {
				if !f.IsZero(m[c][l]) {
					m[r][l] = f.Sub(m[r][l], f.Mul(fac, m[c][l]))
				}
			}
			m[r][c] = zero
			for s, v := range rhs[c] {
				if !f.IsZero(v) {
					rhs[r][s] = f.Sub(rhs[r][s], f.Mul(fac, v))
				}
			}
		}
	}
	x := make([][]T, n)
	for c := n - 1; c >= 0; c-- {
		v := append([]T(nil), rhs[c]...)
		for l := c + 1; l <= min(n-1, c+band); l++ {
			if f.IsZero(m[c][l]) {
				continue
			}
			for s := range v {
				v[s] = f.Sub(v[s], f.Mul(m[c][l], x[l][s]))
			}
		}
		for s := range v {
			v[s] = f.Div(v[s], m[c][c])
		}
		x[c] = v
	}
	return x, nil
}

// choiceSys is a row's equations in which one role chooses: the unknown at[k] of state k (k known
// cards) has equation eqs[k][c] for the choice c made there (nil where c is illegal); every other
// unknown's equation is fixed. The chooser maximises (sign 1) or minimises (sign -1) the first
// component of its unknowns.
type choiceSys[T any] struct {
	fixed []decayEq[T]
	at    []int
	eqs   [][rules.NumChoices]*decayEq[T]
	sign  int
}

// system returns the equations of every unknown for the chooser's choices ch.
func (s *choiceSys[T]) system(ch []rules.Choice) []decayEq[T] {
	out := append([]decayEq[T](nil), s.fixed...)
	for k, i := range s.at {
		out[i] = *s.eqs[k][ch[k]]
	}
	return out
}

// eval returns the first component of e's right-hand side at x: the value of making e's choice
// now, with the row's solution x afterwards.
func eval[T any](f field.Field[T], e *decayEq[T], x [][]T) T {
	vs := make([]T, len(e.to))
	for t, l := range e.to {
		vs[t] = x[l][0]
	}
	return dot(f, e.a[0], e.coef, vs)
}

// choiceVals holds the value of every legal choice at a position (the others are not set).
type choiceVals[T any] [rules.NumChoices]T

// best returns, for position k and the solution x, every legal choice's value, the first legal
// choice (in the order of rules.Choices) of best value, and that value.
func (s *choiceSys[T]) best(f field.Field[T], k int, x [][]T) (choiceVals[T], rules.Choice, T) {
	return bestOfChoices(f, &s.eqs[k], s.sign, func(e *decayEq[T]) T { return eval(f, e, x) })
}

// bestOfChoices returns the value of every legal choice (those with an equation in eqs), the
// first legal choice in the order of rules.Choices whose value is the largest (sign 1) or the
// smallest (sign -1), and that value.
func bestOfChoices[T, E any](f field.Field[T], eqs *[rules.NumChoices]*E, sign int, value func(*E) T) (choiceVals[T], rules.Choice, T) {
	var vals choiceVals[T]
	var bc rules.Choice
	var bv T
	have := false
	for _, c := range rules.Choices() {
		e := eqs[c]
		if e == nil {
			continue
		}
		vals[c] = value(e)
		if !have || sign*f.Cmp(vals[c], bv) > 0 {
			bc, bv, have = c, vals[c], true
		}
	}
	return vals, bc, bv
}

// firstBest returns the first legal choice (in the order of rules.Choices) at position k whose
// value equals v.
func (s *choiceSys[T]) firstBest(f field.Field[T], k int, vals choiceVals[T], v T) rules.Choice {
	for _, c := range rules.Choices() {
		if s.eqs[k][c] != nil && f.Cmp(vals[c], v) == 0 {
			return c
		}
	}
	return firstOf(s.eqs[k])
}

// check reports an error unless ch is optimal for the chooser given the row's solution x under ch:
// no other choice in any state is strictly better. It is exact in an exact field.
func (s *choiceSys[T]) check(f field.Field[T], ch []rules.Choice, x [][]T) error {
	for k := range s.at {
		_, c, v := s.best(f, k, x)
		if s.sign*f.Cmp(v, x[s.at[k]][0]) > 0 {
			return fmt.Errorf("state with %d known cards: %s is better than %s (%g against %g)",
				k, c, ch[k], f.Float64(v), f.Float64(x[s.at[k]][0]))
		}
	}
	return nil
}

// decayIterations bounds policy iteration on one row; it ends in a few steps in practice.
const decayIterations = 200

// iterate runs policy iteration from the choices seed: solve the row for the current choices,
// switch every position whose best choice is strictly better than its current one, and repeat
// until none is; the result passes check by construction. It returns the choices, the row's
// solution and every legal choice's value at every position.
func (s *choiceSys[T]) iterate(f field.Field[T], seed []rules.Choice) ([]rules.Choice, [][]T, []choiceVals[T], error) {
	ch := append([]rules.Choice(nil), seed...)
	vals := make([]choiceVals[T], len(s.at))
	for range decayIterations {
		x, err := solveRow(f, s.system(ch))
		if err != nil {
			return nil, nil, nil, err
		}
		changed := false
		for k := range s.at {
			var c rules.Choice
			var v T
			vals[k], c, v = s.best(f, k, x)
			if c != ch[k] && s.sign*f.Cmp(v, x[s.at[k]][0]) > 0 {
				ch[k], changed = c, true
			}
		}
		if !changed {
			return ch, x, vals, nil
		}
	}
	return nil, nil, nil, fmt.Errorf("exact: policy iteration on the decay equations did not settle in %d steps", decayIterations)
}

// toFloat returns the system in float64, to find the choices fast before solving exactly.
func (s *choiceSys[T]) toFloat(f field.Field[T]) *choiceSys[float64] {
	conv := func(e *decayEq[T]) *decayEq[float64] {
		out := &decayEq[float64]{to: e.to}
		for _, v := range e.a {
			out.a = append(out.a, f.Float64(v))
		}
		for _, v := range e.coef {
			out.coef = append(out.coef, f.Float64(v))
		}
		return out
	}
	g := &choiceSys[float64]{at: s.at, sign: s.sign, eqs: make([][rules.NumChoices]*decayEq[float64], len(s.eqs))}
	for _, e := range s.fixed {
		g.fixed = append(g.fixed, *conv(&e))
	}
	for k := range s.eqs {
		for c, e := range s.eqs[k] {
			if e != nil {
				g.eqs[k][c] = conv(e)
			}
		}
	}
	return g
}

// solve finds the chooser's optimal choices: by policy iteration in float64 first (in an exact
// field), then in the field itself from those choices, which ends by solving the row exactly and
// verifying that no choice improves on them in any state.
func (s *choiceSys[T]) solve(f field.Field[T]) ([]rules.Choice, [][]T, []choiceVals[T], error) {
	seed := make([]rules.Choice, len(s.at))
	for k := range seed {
		seed[k] = firstOf(s.eqs[k])
	}
	if _, isFloat := any(f).(field.Float); !isFloat {
		ch, _, _, err := s.toFloat(f).iterate(field.Float{}, seed)
		if err != nil {
			return nil, nil, nil, err
		}
		seed = ch
	}
	return s.iterate(f, seed)
}

func firstOf[T any](eqs [rules.NumChoices]*decayEq[T]) rules.Choice {
	for _, c := range rules.Choices() {
		if eqs[c] != nil {
			return c
		}
	}
	return rules.Daring
}

// decayCell is what the row solution of the decay model keeps of one state for the visitors of a
// sweep: its outcomes and the decisions made in it.
type decayCell[T any] struct {
	st         rules.State
	hole       bool // a state beyond the capacity, with singletons (decayCells)
	legal      [rules.NumChoices]bool
	outs       [rules.NumChoices][]Outcome
	probs      [rules.NumChoices][]T
	optChoice  rules.Choice
	optDev     [rules.NumChoices]T
	optBest    [rules.NumChoices]bool
	brChoice   [2]rules.Choice
	soloChoice rules.Choice
	selfChoice rules.Choice
	selfGap    T
	selfDev    [rules.NumChoices]T
	// Under a pass rule (decaypass.go), the optimum just after a pass by the other seat.
	hasAfter     bool
	optAfter     rules.Choice
	optDevAfter  [rules.NumChoices]T
	optBestAfter [rules.NumChoices]bool
	// Under a pass rule at three or more seats (selfishdecaypass.go), the values and choices at
	// every pass streak.
	levels *passStreak[T]
}

// load makes c the sweep's current state, as sweep.state leaves it for the visitors.
func (w *sweep[T]) load(c *decayCell[T]) {
	w.legal, w.outs, w.probs = c.legal, c.outs, c.probs
	w.optChoice, w.optDev, w.optBest = c.optChoice, c.optDev, c.optBest
	w.brChoice, w.soloChoice = c.brChoice, c.soloChoice
	w.selfChoice, w.selfGap, w.selfDev = c.selfChoice, c.selfGap, c.selfDev
	w.hasAfter, w.optAfter, w.optBestAfter = c.hasAfter, c.optAfter, c.optBestAfter
	if c.levels != nil {
		w.streak = c.levels
	}
}

// runDecay is sweep.run for the decay model: each row of states with n pairs is solved as a
// system of equations, then visited in order of j.
func (w *sweep[T]) runDecay(ctx context.Context, maxPairs int, visit func(st rules.State) error) error {
	if w.decayPasses() {
		if err := w.checkDecayPass(); err != nil {
			return err
		}
	}
	h, err := newDecayHand(w.f, w.m.Memory, maxPairs+w.m.Singletons)
	if err != nil {
		return err
	}
	if w.decayRat == nil && useDecayOptRat(w) {
		// A visitor reads every state's values, Evaluate only the last state's and ChoiceValues
		// only those of sweep.from.
		w.decayRat = newDecayOptRat(visit != nil && w.from == nil)
	}
	done := ctx.Done()
	prog := progressOf(ctx)
	for n := 0; n <= maxPairs; n++ {
		select {
		case <-done:
			return fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
		default:
		}
		if n == 0 {
			for fu := 0; fu <= w.m.Singletons; fu++ {
				st := rules.State{S: w.m.Singletons, F: fu}
				if !w.m.Memory.Holds(st.Known()) {
					continue
				}
				w.state(st)
				if visit != nil {
					if err := visit(st); err != nil {
						return err
					}
				}
			}
			continue
		}
		cells := w.decayCells(h, n)
		if err := w.decayRow(n, cells); err != nil {
			return fmt.Errorf("%d pairs: %w", n, err)
		}
		if w.lead != nil {
			if err := w.lead.decayRow(n, cells); err != nil {
				return fmt.Errorf("%d pairs: %w", n, err)
			}
		}
		if w.sdist != nil {
			if err := w.decaySeatsDist(n, cells); err != nil { // decayseatsdist.go
				return fmt.Errorf("%d pairs: %w", n, err)
			}
		}
		for k := len(cells) - 1; k >= 0; k-- { // in order of j
			if cells[k].hole {
				continue
			}
			w.load(&cells[k])
			if visit != nil {
				if err := visit(cells[k].st); err != nil {
					return err
				}
			}
		}
		prog.add(w.rowOps(n))
	}
	return nil
}

// decayCells returns the states with n pairs, indexed by decayIndex (by their known cards without
// singletons), with their outcomes. With singletons and a capacity, an index whose state holds
// more cards than the capacity is a hole: a cell whose only legal choice, daring, has no outcome
// (value 0), which no state refers to and no visitor sees.
func (w *sweep[T]) decayCells(h *decayHand[T], n int) []decayCell[T] {
	s := w.m.Singletons
	cells := make([]decayCell[T], (n-w.jMin(n)+1)*(s+1))
	for i := range cells {
		c := &cells[i]
		k, g := i/(s+1), i%(s+1)
		c.st = rules.State{N: n, J: n - k, S: s, F: s - g}
		if !w.m.Memory.Holds(c.st.Known()) {
			c.hole = true
			c.legal[rules.Daring] = true
			continue
		}
		for _, ch := range rules.Choices() {
			c.legal[ch] = w.m.Legal(c.st, ch)
			switch {
			case c.legal[ch] && w.blindFlips():
				c.outs[ch], c.probs[ch] = blindDecayOutcomes(h, c.st, ch, nil, nil) // blinddecay.go
			case c.legal[ch] && s > 0:
				c.outs[ch], c.probs[ch] = decaySinglesOutcomes(h, c.st, ch, nil, nil) // decaysingles.go
			case c.legal[ch]:
				c.outs[ch], c.probs[ch] = decayOutcomes(h, c.st, ch, nil, nil)
			}
		}
	}
	return cells
}

// sameRow returns the index in its row (decayIndex: without singletons, the known cards) of an
// outcome's successor when it has the same number of pairs (and the next seat moves), or -1.
func sameRow(o Outcome, n int) int {
	if o.Continue || o.Next.N != n {
		return -1
	}
	return decayIndex(o.Next)
}

// leadEq returns the equation of the lead of the mover in cells[k] making choice ch, as role r
// (self: both seats play the same values, the self-play optimum): outcomes that leave the row are
// read in the previous row with prev, those that stay refer to the other role's unknown of the
// successor, index(k', other role).
func (w *sweep[T]) leadEq(c *decayCell[T], ch rules.Choice, n int, prev func(role int, st rules.State) T, r, other int, index func(k, role int) int) *decayEq[T] {
	f := w.f
	e := &decayEq[T]{}
	var ps, vs []T
	for i, o := range c.outs[ch] {
		p := c.probs[ch][i]
		if k := sameRow(o, n); k >= 0 {
			e.to = append(e.to, index(k, other))
			e.coef = append(e.coef, f.Sub(w.zero, p))
			continue
		}
		var v T
		if o.Continue {
			v = f.Add(w.ints[o.MoverGain], prev(r, o.Next))
		} else {
			v = f.Sub(f.Sub(w.zero, w.ints[o.NextGain]), prev(other, o.Next))
		}
		ps, vs = append(ps, p), append(vs, v)
	}
	e.a = []T{dot(f, w.zero, ps, vs)}
	e.merge(f)
	return e
}

// decayRow solves the row of states with n pairs for the values the sweep needs.
func (w *sweep[T]) decayRow(n int, cells []decayCell[T]) error {
	switch {
	case w.decayPasses() && w.streak != nil:
		return w.decayStreakRow(n, cells)
	case w.decayPasses():
		return w.decayPassRow(n, cells)
	}
	if w.needOpt {
		if err := w.decayOptimal(n, cells); err != nil {
			return err
		}
	}
	if w.needSelf {
		if err := w.decaySelfish(n, cells); err != nil {
			return err
		}
	}
	if w.needSolo {
		if err := w.decaySolo(n, cells); err != nil {
			return err
		}
	}
	if w.needPair || w.needDist {
		if err := w.decayPair(n, cells); err != nil {
			return err
		}
	}
	if w.needMulti {
		if err := w.decayMulti(n, cells); err != nil {
			return err
		}
	}
	if w.needDist {
		return w.decayDist(n, cells)
	}
	return nil
}

// decayOptimal solves the self-play optimum of the row: x(k) = max_c [a_c(k) - sum p x(k')],
// found by policy iteration and verified exactly (choiceSys.solve).
func (w *sweep[T]) decayOptimal(n int, cells []decayCell[T]) error {
	if w.decayRat != nil {
		return w.decayRat.row(any(w).(*sweep[*big.Rat]), n, any(cells).([]decayCell[*big.Rat]))
	}
	s := w.optimalSys(n, cells)
	_, x, vals, err := s.solve(w.f)
	if err != nil {
		return err
	}
	for k := range cells {
		c := &cells[k]
		w.at(c.st).opt = x[k][0]
		c.optChoice = w.keepBest(c, x[k][0], vals[k], &c.optDev, &c.optBest)
	}
	return nil
}

// optimalSys returns the equations of the self-play optimum of the row, the previous row solved.
func (w *sweep[T]) optimalSys(n int, cells []decayCell[T]) *choiceSys[T] {
	prev := func(_ int, st rules.State) T { return w.at(st).opt }
	self := func(k, _ int) int { return k }
	s := &choiceSys[T]{fixed: make([]decayEq[T], len(cells)), at: make([]int, len(cells)),
		eqs: make([][rules.NumChoices]*decayEq[T], len(cells)), sign: 1}
	for k := range cells {
		s.at[k] = k
		for _, ch := range rules.Choices() {
			if cells[k].legal[ch] {
				s.eqs[k][ch] = w.leadEq(&cells[k], ch, n, prev, 0, 0, self)
			}
		}
	}
	return s
}

// decayCheckOptimal solves the self-play optimum of model m (decay) up to n pairs exactly, lets
// alter change the optimal choices of the row of n pairs (indexed by known cards), solves the row
// for the altered choices and returns the exact optimality check's verdict on them.
func decayCheckOptimal(m Model, n int, alter func(ch []rules.Choice)) error {
	f := field.Rat{}
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	w, err := newSweep[*big.Rat](f, m, mu, rules.State{N: n, J: n})
	if err != nil {
		return err
	}
	// A visitor, for every state's values: optimalSys reads the row before n.
	if err := w.run(context.Background(), n, func(rules.State) error { return nil }); err != nil {
		return err
	}
	h, err := newDecayHand[*big.Rat](f, m.Memory, n)
	if err != nil {
		return err
	}
	s := w.optimalSys(n, w.decayCells(h, n))
	ch, _, _, err := s.solve(f)
	if err != nil {
		return err
	}
	alter(ch)
	x, err := solveRow(f, s.system(ch))
	if err != nil {
		return err
	}
	return s.check(f, ch, x)
}

// roleChoices returns the choice of each role in every state of the row, for roles that do not
// choose by best response (whose entries are left as they are).
func (w *sweep[T]) roleChoices(cells []decayCell[T]) [2][]rules.Choice {
	var ch [2][]rules.Choice
	for r := range ch {
		ch[r] = make([]rules.Choice, len(cells))
		if w.pol[r] == rules.PolicyBestResponse {
			continue
		}
		for k := range cells {
			if cells[k].hole {
				continue // daring, of value 0
			}
			w.load(&cells[k])
			ch[r][k] = w.choice(r, cells[k].st, false)
		}
	}
	return ch
}

// decayPair solves the leads of the two roles of the matchup (unknown 2k + r), a best-response
// role choosing by policy iteration against the other.
func (w *sweep[T]) decayPair(n int, cells []decayCell[T]) error {
	prev := func(r int, st rules.State) T { return w.at(st).lead[r] }
	index := func(k, r int) int { return 2*k + r }
	ch := w.roleChoices(cells)
	br := -1
	for r, p := range w.pol {
		if p == rules.PolicyBestResponse {
			br = r
		}
	}
	s := &choiceSys[T]{fixed: make([]decayEq[T], 2*len(cells)), sign: 1}
	for k := range cells {
		for r := range 2 {
			if r == br {
				continue
			}
			s.fixed[index(k, r)] = *w.leadEq(&cells[k], ch[r][k], n, prev, r, 1-r, index)
		}
	}
	var x [][]T
	var err error
	if br < 0 {
		x, err = solveRow(w.f, s.fixed)
	} else {
		s.at = make([]int, len(cells))
		s.eqs = make([][rules.NumChoices]*decayEq[T], len(cells))
		for k := range cells {
			s.at[k] = index(k, br)
			for _, c := range rules.Choices() {
				if cells[k].legal[c] {
					s.eqs[k][c] = w.leadEq(&cells[k], c, n, prev, br, 1-br, index)
				}
			}
		}
		ch[br], x, _, err = s.solve(w.f)
	}
	if err != nil {
		return err
	}
	for k := range cells {
		w.at(cells[k].st).lead = [2]T{x[index(k, 0)][0], x[index(k, 1)][0]}
		if br >= 0 {
			cells[k].brChoice = [2]rules.Choice{ch[br][k], ch[br][k]}
		}
	}
	return nil
}

// decayMulti solves every seat's expected pairs with each seat to move (unknown k*p + t); a seat
// that plays best-response chooses by policy iteration (decayReply).
func (w *sweep[T]) decayMulti(n int, cells []decayCell[T]) error {
	p := w.mu.Players
	if r := w.mu.replySeat(); r >= 0 {
		return w.decayReply(n, cells, r)
	}
	eqs := make([]decayEq[T], p*len(cells))
	for k := range cells {
		c := &cells[k]
		w.load(c)
		for t := range p {
			eqs[k*p+t] = w.multiEq(c, n, t, w.seatChoice(t, c.st))
		}
	}
	x, err := solveRow(w.f, eqs)
	if err != nil {
		return err
	}
	for k := range cells {
		w.at(cells[k].st).seats = x[k*p : (k+1)*p]
	}
	return nil
}

// soloEq returns the equation of the expected turns and lucky matches of one player making choice
// ch in cells[k].
func (w *sweep[T]) soloEq(c *decayCell[T], ch rules.Choice, n int) *decayEq[T] {
	f := w.f
	e := &decayEq[T]{a: []T{w.zero, w.zero}}
	for i, o := range c.outs[ch] {
		p := c.probs[ch][i]
		e.a[0] = f.Add(e.a[0], f.Mul(p, w.ints[1+o.NextGain]))
		if o.Event == EventLucky {
			e.a[1] = f.Add(e.a[1], p)
		}
		if k := sameRow(o, n); k >= 0 {
			e.to = append(e.to, k)
			e.coef = append(e.coef, p)
			continue
		}
		next := w.at(o.Next)
		e.a[0] = f.Add(e.a[0], f.Mul(p, next.solo[0]))
		e.a[1] = f.Add(e.a[1], f.Mul(p, next.solo[1]))
	}
	e.merge(f)
	return e
}

// decaySolo solves solitaire's expected turns and lucky matches; optimal minimises the turns.
func (w *sweep[T]) decaySolo(n int, cells []decayCell[T]) error {
	s := &choiceSys[T]{fixed: make([]decayEq[T], len(cells)), at: make([]int, len(cells)),
		eqs: make([][rules.NumChoices]*decayEq[T], len(cells)), sign: -1}
	optimal := w.pol[0] == rules.PolicyOptimal
	ch := make([]rules.Choice, len(cells))
	for k := range cells {
		s.at[k] = k
		if !optimal {
			w.load(&cells[k])
			ch[k] = w.choice(0, cells[k].st, false)
			s.eqs[k][ch[k]] = w.soloEq(&cells[k], ch[k], n)
			continue
		}
		for _, c := range rules.Choices() {
			if cells[k].legal[c] && c != rules.Pass {
				s.eqs[k][c] = w.soloEq(&cells[k], c, n)
			}
		}
	}
	var x [][]T
	var err error
	if optimal {
		ch, x, _, err = s.solve(w.f)
	} else {
		x, err = solveRow(w.f, s.system(ch))
	}
	if err != nil {
		return err
	}
	for k := range cells {
		w.at(cells[k].st).solo = [2]T{x[k][0], x[k][1]}
		cells[k].soloChoice = ch[k]
	}
	return nil
}

// decayDist solves the lead distributions of the two roles: unknowns 4k + 2r + v, v = 1 for the
// reversed distribution, so that handing over (which mirrors the next seat's distribution) is a
// linear term.
func (w *sweep[T]) decayDist(n int, cells []decayCell[T]) error {
	f := w.f
	size := 2*w.maxPairs + 1
	ch := w.roleChoices(cells)
	for r := range ch {
		if w.pol[r] == rules.PolicyBestResponse {
			for k := range cells {
				ch[r][k] = cells[k].brChoice[0]
			}
		}
	}
	x, err := solveRow(f, w.distEquations(n, cells, ch, func(o Outcome, r int) ([]T, int) {
		if o.Continue {
			return w.at(o.Next).dist[r], o.MoverGain
		}
		return reversed(w.at(o.Next).dist[1-r], size), -o.NextGain
	}))
	if err != nil {
		return err
	}
	for k := range cells {
		w.at(cells[k].st).dist = [2][]T{x[distIndex(k, 0, 0)], x[distIndex(k, 1, 0)]}
	}
	return nil
}

// The work of a row of the decay model (see Estimate), measured: opsDecayRow operations per
// squared state of the row and per system solved (the elimination, the outcomes, the policy
// iteration's steps), in float64; in exact rationals each weighs scalarWeight(n) +
// rationalDecay·(n·K)^2.2 more, K the row's states, for the numbers grow with both and every
// value kept is reduced (a table: memsim solve --pairs 50 --forget decay --q 0.1 --big took 28 s
// so, 30 pairs 1.2 s; with --memory 8, 100 pairs 1.7 s). The self-play optimum over common
// denominators (decayOptRat), which reduces only the values asked for, weighs scalarWeight(n) +
// rationalDecayRat·(n·K)^2 instead (BenchmarkDecayExact60 and 100: 2.7 s and 72 s).
const (
	opsDecayRow      = 60
	rationalDecay    = 0.0000135
	rationalDecayRat = 0.000001
)

// decayRowOps returns the estimated operations of the row of n pairs of a decay sweep.
func (w *sweep[T]) decayRowOps(n int) float64 {
	k := w.rowStates(n)
	units, optUnits := 0.0, 0.0
	if w.needOpt {
		optUnits++
		if w.decayPasses() {
			// The unknowns double with the pass flag (measured: 24 pairs in exact rationals take
			// 4.7 s under pass rule always, 2.5 s under never).
			units++
		}
	}
	if w.needSolo {
		units++
	}
	if w.needSelf {
		units += w.selfDecayUnits()
	}
	if w.needPair {
		units += 4
		if w.mu.hasBestResponse() {
			units += 4
		}
	}
	if w.needMulti {
		// A seat's unknowns refer to the next seat's only; in exact rationals the numbers grow
		// with the seats too, by about p³/12 (measured with --two-player-optimal, q = 0.1, 8 to
		// 12 pairs: 3 seats 0.46 s, 4 seats 1.35 s, 8 seats 22 s at 12 pairs).
		p := float64(w.mu.Players)
		seats := p
		if w.exact() {
			seats *= max(1, p*p*p/12)
		}
		if isSeatReply(w.mu) {
			// A seat's reply adds the policy iteration's steps (measured, q = 0.2: best-response
			// to safe at 3 seats and 60 pairs takes 0.56 s in float64, safe at every seat 0.35 s;
			// 8 seats and 12 pairs in exact rationals 42 s against 33 s).
			seats *= 1.5
		}
		units += seats
	}
	if w.needDist {
		units += 5 * float64(2*w.maxPairs+1)
		if w.decayPasses() {
			units += 5 * float64(2*w.maxPairs+1) // the pass flag doubles the unknowns
		}
	}
	if l := w.lead; l != nil {
		// Every lead's group of the row is a system of twice the row's states, each role's
		// unknowns referring to the other's only (measured: 40 pairs of win-optimal take 2.5 s in
		// float64, 12 pairs 12 s in exact rationals).
		per := 0.0
		for _, need := range []bool{l.needWinOpt, l.needWin, l.needEval} {
			if need {
				per++
			}
		}
		if l.needWDL {
			per += 2
		}
		if l.needDist {
			per += 2 * float64(2*w.maxPairs+1)
		}
		if w.exact() {
			per *= 4
		}
		if w.decayPasses() {
			// The pass flag doubles a group's unknowns (measured, q = 0.1, win-optimal: 10 pairs
			// in exact rationals take 12.8 s under pass rule always, 7.1 s under never; 30 pairs
			// in float64 5.6 s and 4.1 s).
			per *= 2
		}
		units += float64(2*l.reach(n)+1) * per
	}
	weight, optWeight := 1.0, 1.0
	if w.exact() {
		weight = scalarWeight(n) + rationalDecay*math.Pow(float64(n)*k, 2.2)
		optWeight = weight
		if useDecayOptRat(w) && !w.needDev {
			optWeight = scalarWeight(n) + rationalDecayRat*float64(n)*k*float64(n)*k
		}
	}
	return opsDecayRow * k * k * (units*weight + optUnits*optWeight)
}

// addShifted adds pr times the share distribution src, moved up by shift (the pairs the seat
// gains before it), to a; what falls outside a's range is impossible and left out.
func addShifted[T any](f field.Field[T], a []T, pr T, src []T, shift int) {
	for i := range a {
		if j := i - shift; j >= 0 && j < len(src) {
			a[i] = f.Add(a[i], f.Mul(pr, src[j]))
		}
	}
}

// mirrored merges the same-row references (to, coef) of the distribution equation e of role r in
// state k and returns e and its mirror image (the distribution seen from the other seat), each
// referring to the other role's unknowns: e to their mirrors (v = 1), the mirror to them (v = 0).
func mirrored[T any](f field.Field[T], e decayEq[T], to []int, coef []T, size, r int, index func(k, r, v int) int) (decayEq[T], decayEq[T]) {
	m := decayEq[T]{to: to, coef: coef}
	m.merge(f)
	to, coef = m.to, m.coef
	rev := decayEq[T]{a: reversed(e.a, size), coef: coef}
	e.coef = coef
	for _, k2 := range to {
		e.to = append(e.to, index(k2, 1-r, 1))
		rev.to = append(rev.to, index(k2, 1-r, 0))
	}
	return e, rev
}

// distIndex numbers the unknowns of a row's lead distributions: state k, role r, and v = 1 for
// the distribution reversed (seen from the other seat).
func distIndex(k, r, v int) int { return 4*k + 2*r + v }

// distEquations returns the equations of the lead distributions of a row's states cells (n pairs)
// when role r chooses ch[r][k] in cells[k], numbered by distIndex: each same-row outcome refers to
// the other role's unknowns, and next gives the distribution an outcome leaving the row leads to,
// for role r, with the pairs it moves the lead by.
func (w *sweep[T]) distEquations(n int, cells []decayCell[T], ch [2][]rules.Choice, next func(o Outcome, r int) ([]T, int)) []decayEq[T] {
	f := w.f
	size := 2*w.maxPairs + 1
	eqs := make([]decayEq[T], 4*len(cells))
	for k := range cells {
		c := &cells[k]
		for r := range 2 {
			choice := ch[r][k]
			e := decayEq[T]{a: w.zeros(size)}
			var to []int
			var coef []T
			for i, o := range c.outs[choice] {
				pr := c.probs[choice][i]
				if k2 := sameRow(o, n); k2 >= 0 {
					to = append(to, k2)
					coef = append(coef, pr)
					continue
				}
				src, shift := next(o, r)
				addShifted(f, e.a, pr, src, shift)
			}
			eqs[distIndex(k, r, 0)], eqs[distIndex(k, r, 1)] = mirrored(f, e, to, coef, size, r, distIndex)
		}
	}
	return eqs
}
