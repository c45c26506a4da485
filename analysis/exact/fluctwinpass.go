package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective under a fluctuating capacity and the pass rules two-known and always, two
// seats (docs/models.md §4.4, §4.13). As for the pair objective (fluctpass.go), a capacity is drawn
// at every turn, a pass turn included, and a pass in (n, k) with capacity c drawn hands the other
// seat (n, passKept(k, c)) just after a pass; as under decay (decaywinpass.go), the state gains
// the pass flag beside the lead: every unknown of a group (role 0 moving at lead e, role 1 at -e;
// or win-optimal's self-play at d and -d), before the draw and after it, comes without and with a
// pass just made, the draw keeping the flag. A turn other than a pass refers to the other role's
// unknowns without the flag; a pass without the flag to the other role's unknown with it, at the
// negated lead; a pass with the flag ends the game in a stalemate, decided by the lead so far (a
// draw at lead 0) and worth no lead more. Outcomes that leave the row are read in the previous row
// without the flag, as under pass rule never.

// flags returns how many values of the pass flag the unknowns take: 2 under a pass rule, 1 under
// pass rule never.
func (w *fluctWin[T]) flags() int {
	if w.s.passes() {
		return 2
	}
	return 1
}

// idx numbers the unknowns of a group: role (or sign of the lead in self-play) r, pass flag flag,
// node i of a row of N nodes.
func (w *fluctWin[T]) idx(r, flag, N, i int) int { return (r*w.flags()+flag)*N + i }

// choices returns the choices of role r by row, capacity, known cards and lead, with the pass flag
// flag (1: just after a pass by the other seat); r < 0 asks for win-optimal's self-play.
func (w *fluctWin[T]) choices(r, flag int) *[][][][]rules.Choice {
	switch {
	case r < 0 && flag == 1:
		return &w.woA
	case r < 0:
		return &w.woC
	case flag == 1:
		return &w.chA[r]
	}
	return &w.ch[r]
}

// turnEq returns the equation of the quantities stale has components of, of the mover at node
// (k, c) of the row of n pairs with the pass flag flag making choice ch at lead d: winEq's for a
// turn other than a pass; for a pass with the flag the stalemate's values stale; for a pass
// without it the other seat's unknown just after a pass, afterIndex(passKept(k, c)), negated
// (hoSign -1) or not (hoSign 1).
func (w *fluctWin[T]) turnEq(n, k, c int, ch rules.Choice, d, flag int, index, afterIndex func(k int) int,
	prevOwn, prevOther func(k, lead int) []T, gainAt, hoSign int, stale []T) *decayEq[T] {
	if ch != rules.Pass {
		return w.winEq(n, k, c, ch, d, index, prevOwn, prevOther, gainAt, hoSign, len(stale))
	}
	e := &decayEq[T]{a: make([]T, len(stale))}
	if flag == 1 {
		copy(e.a, stale)
		return e
	}
	for i := range e.a {
		e.a[i] = w.zero
	}
	coef := w.one
	if hoSign < 0 {
		coef = w.f.Sub(w.zero, w.one)
	}
	e.to, e.coef = []int{afterIndex(passKept(k, c))}, []T{coef}
	return e
}

// FluctWinChoiceValuesAfterPass is FluctWinChoiceValues just after a pass by the other seat, under
// the pass rules two-known and always: st is the state after the draw of capacity c, seat 0 to
// move at its lead st.Lead with the other seat's pass just made, so that a pass now ends the game
// in a stalemate decided by the lead. PolicyChoice is the lineup's choice there. Under pass rule
// never it is an error.
func FluctWinChoiceValuesAfterPass[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c int) (Choices[T], WinChoices[T], error) {
	if m.Pass == rules.PassNever {
		return Choices[T]{}, WinChoices[T]{}, fmt.Errorf("pass rule %s: no pass is ever made, so there is no state just after one", m.Pass)
	}
	return fluctWinChoiceValues(ctx, f, m, mu, st, c, 1)
}
