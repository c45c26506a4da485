package review

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Values holds the solver's values of every count state of a model up to a number of pairs, for
// two seats playing optimally (expected pairs) and playing to win (P(win) + P(draw)/2 at every
// lead), in the field T. A review reads them; a caller may keep one for many reviews of games
// under the same rules.
type Values[T any] struct {
	f        field.Field[T]
	model    exact.Model
	maxPairs int
	pairs    map[stateKey]cellValues[T]
	win      map[stateKey]cellValues[T]
	half     T
}

// stateKey indexes a state by its counts and, for the win values, its lead.
type stateKey struct{ n, j, f, lead int }

// cellValues are a state's value to its mover, after a turn that was not a pass, and each legal
// choice's value.
type cellValues[T any] struct {
	value  T
	legal  [rules.NumChoices]bool
	choice [rules.NumChoices]T
}

// NewValues solves model m (perfect memory) for every state with at most maxPairs pairs, in
// expected pairs and, when win is set, in win score at every lead a game of maxPairs pairs
// reaches.
func NewValues[T any](ctx context.Context, f field.Field[T], m exact.Model, maxPairs int, win bool) (*Values[T], error) {
	if !m.Memory.Perfect() {
		return nil, fmt.Errorf("a review judges play with perfect memory, not %s", m.Memory)
	}
	v := &Values[T]{f: f, model: m, maxPairs: maxPairs, pairs: map[stateKey]cellValues[T]{},
		half: f.FromFrac(1, 2)}
	err := exact.Table(ctx, f, m, maxPairs, func(c *exact.TableCell[T]) error {
		v.pairs[stateKey{c.State.N, c.State.J, c.State.F, 0}] = cellValues[T]{value: c.Value, legal: c.Legal, choice: c.ChoiceValue}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("solving the pairs values: %w", err)
	}
	if win {
		v.win = map[stateKey]cellValues[T]{}
		mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
		err := exact.WinTable(ctx, f, m, mu, maxPairs, func(c *exact.WinCell[T]) error {
			v.win[stateKey{c.State.N, c.State.J, c.State.F, c.State.Lead}] = cellValues[T]{value: c.Value, legal: c.Legal, choice: c.ChoiceValue}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("solving the win values: %w", err)
		}
	}
	return v, nil
}

// Win reports whether the values include the win scores.
func (v *Values[T]) Win() bool { return v.win != nil }

// cell returns the pairs values of st, which must be covered.
func (v *Values[T]) cell(st rules.State) cellValues[T] {
	c, ok := v.pairs[stateKey{st.N, st.J, st.F, 0}]
	if !ok {
		panic(fmt.Sprintf("review: no value for %v", st))
	}
	return c
}

// winCell returns the win values of st at its lead, which must be covered.
func (v *Values[T]) winCell(st rules.State) cellValues[T] {
	c, ok := v.win[stateKey{st.N, st.J, st.F, st.Lead}]
	if !ok {
		panic(fmt.Sprintf("review: no win value for %v", st))
	}
	return c
}

// afterPass returns the value of a state to a mover whose opponent has just passed: it may pass
// too, ending the game in a stalemate worth stalemate, or make any other legal choice, whose value
// does not depend on the pass before (no choice but pass ends a turn without an unknown card).
func (v *Values[T]) afterPass(c cellValues[T], stalemate T) T {
	best, have := stalemate, c.legal[rules.Pass]
	for _, ch := range rules.Choices() {
		if ch == rules.Pass || !c.legal[ch] {
			continue
		}
		if !have || v.f.Cmp(c.choice[ch], best) > 0 {
			best, have = c.choice[ch], true
		}
	}
	return best
}

// pairsAt returns the mover's expected pairs in st (no pair known whole), after a pass or not.
func (v *Values[T]) pairsAt(st rules.State, afterPass bool) T {
	if st.N == 0 {
		return v.f.FromInt(0)
	}
	c := v.cell(st)
	if !afterPass {
		return c.value
	}
	return v.afterPass(c, v.f.FromFrac(int64(st.N), 2))
}

// final returns the win score of a game over at lead d: 1, 1/2 or 0.
func (v *Values[T]) final(d int) T {
	switch {
	case d > 0:
		return v.f.FromInt(1)
	case d < 0:
		return v.f.FromInt(0)
	}
	return v.half
}

// winAt returns the mover's P(win) + P(draw)/2 in st at its lead, after a pass or not.
func (v *Values[T]) winAt(st rules.State, afterPass bool) T {
	if st.N == 0 {
		return v.final(st.Lead)
	}
	if st.Lead > st.N || -st.Lead > st.N {
		return v.final(st.Lead) // decided whatever happens
	}
	c := v.winCell(st)
	if !afterPass {
		return c.value
	}
	return v.afterPass(c, v.final(st.Lead))
}

// MaxPairs returns the largest number of pairs the values cover.
func (v *Values[T]) MaxPairs() int { return v.maxPairs }
