package exact

import (
	"memsim/sim/rules"
)

// Every seat for itself, and a policy per seat, under limited memory (lru, handover-uniform) and
// the pass rules two-known and always at three to eight seats (docs/models.md §4.7). A pass
// forgets nothing here (it shows no new card), so at streak l < p-1 it hands the next seat the
// same state at streak l+1, and at l = p-1 it ends the game in a stalemate; a turn other than a
// pass can come back to the same state, at streak 0, when a card is forgotten. The streak levels
// of one state therefore refer to each other in a cycle: they are solved together, as a row of one
// state whose positions are the streaks (streakRow), by the policy iteration of selfishdecay.go.

// selfishLimitPass computes the state's vectors at every streak under the optimum of every seat
// for itself, under limited memory: level 0 is the state's value (cell.self), and selfChoice,
// selfGap, selfDev and optBest are those of level 0.
func (w *sweep[T]) selfishLimitPass(st rules.State, c *cell[T]) {
	f := w.f
	p := w.mu.Players
	eqs := streakEqs[T]{stalemate: w.stalemate(st)}
	for _, ch := range rules.Choices() {
		switch {
		case !w.legal[ch]:
		case ch == rules.Pass:
			eqs.pass = &selfEq[T]{to: []int{0}, coef: []T{w.one}}
		default:
			a, b := w.selfSum(st, ch)
			e := &selfEq[T]{a: a}
			if !f.IsZero(b) {
				e.to, e.coef = []int{0}, []T{b}
			}
			eqs.turn[ch] = e
		}
	}
	s, err := streakRow(f, p, []streakEqs[T]{eqs}).solve(f)
	if err != nil {
		// The row's pivots are never zero (decayrow.go's solveRow): only a broken invariant gets
		// here.
		panic("exact: " + err.Error())
	}
	lv := w.streak
	keepLevels(f, s, 0, w.legal, lv)
	c.self = lv.self[0]
	w.selfChoice, w.selfGap = lv.choice[0], lv.gap[0]
	w.selfDev, w.optBest = lv.dev[0], lv.best[0]
}

// multiLimitPass computes every seat's expected pairs with each seat to move at every streak,
// every seat playing the lineup's policy, under limited memory: the unknowns of seat t to move at
// streak l (index l*p + t) refer to each other through passes and forgotten cards, and are solved
// as one linear system.
func (w *sweep[T]) multiLimitPass(st rules.State, c *cell[T]) {
	p := w.mu.Players
	if r := w.mu.replySeat(); r >= 0 {
		w.replyLimitPass(st, c, r)
		return
	}
	eqs := make([]decayEq[T], p*p)
	for l := range p {
		for t := range p {
			eqs[l*p+t] = w.limitPassEq(st, l, t, w.seatChoiceAt(t, st, l))
		}
	}
	x, err := solveRow(w.f, eqs)
	if err != nil {
		panic("exact: " + err.Error()) // as in selfishLimitPass
	}
	w.keepLimitPass(c, x)
}

// limitPassEq returns the equation of every seat's expected pairs (seat 0 first) in st at streak l
// with seat t to move making choice ch, under limited memory (unknown l*p + t).
func (w *sweep[T]) limitPassEq(st rules.State, l, t int, ch rules.Choice) decayEq[T] {
	p := w.mu.Players
	next := (t + 1) % p
	e := decayEq[T]{a: w.zeros(p)}
	switch {
	case ch == rules.Pass && l == p-1:
		e.a = w.stalemate(st)
	case ch == rules.Pass:
		e.to, e.coef = []int{(l+1)*p + next}, []T{w.one}
	default:
		for i, o := range w.outs[ch] {
			pr := w.probs[ch][i]
			if selfLoop(o, st) {
				e.to, e.coef = append(e.to, next), append(e.coef, pr)
				continue
			}
			w.addOutcome(e.a, pr, o, t, next)
		}
		e.merge(w.f)
	}
	return e
}

// keepLimitPass keeps the solution x of a state's streaks under limited memory (unknown l*p + t,
// seat 0 first) in the sweep's levels.
func (w *sweep[T]) keepLimitPass(c *cell[T], x [][]T) {
	p := w.mu.Players
	s := w.streak
	for l := range p {
		s.seats[l] = x[l*p : (l+1)*p]
	}
	c.seats = s.seats[0]
}
