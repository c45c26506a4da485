package exact

import (
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// leadArcs calls visit for every outcome of choice x made in the k-th state of a group that
// solveLeadGroup solves: with probability p the turn ends in state to (an index of the caller's
// cells); keep says that the mover took a pair and moves again, otherwise the other role moves,
// first taking the handed pairs the turn left known whole.
type leadArcs[T any] func(k int, x rules.Choice, visit func(p T, to int, keep bool, handed int))

// solveLeadGroup solves a group of states of a two-seat game valued in leads, which refer to each
// other (a cycle of forgetting) and otherwise to solved states, as one system of linear
// equations. idx holds the group's states (indices of the caller's cells); role r's lead in idx[k]
// is unknown k·roles + r, played with choice ch[k·roles + r]. solved gives role r's lead in a
// state outside the group. Where maximises(r), policy iteration improves role r's choices among
// the legal ones, keeping a choice unless another is strictly better (the first such in the order
// of rules.Choices), until none changes; ch then holds the choices played. It returns the leads,
// x[u][0] for unknown u.
func solveLeadGroup[T any](f field.Field[T], idx []int, roles int, ch []rules.Choice, maximises func(r int) bool,
	legal func(k int, x rules.Choice) bool, arcs leadArcs[T], solved func(to, r int) T) ([][]T, error) {
	pos := make(map[int]int, len(idx))
	for k, i := range idx {
		pos[i] = k
	}
	one, minusOne := f.FromInt(1), f.FromInt(-1)
	eq := func(k, r int, x rules.Choice) decayEq[T] {
		e := decayEq[T]{a: []T{f.FromInt(0)}}
		arcs(k, x, func(p T, to int, keep bool, handed int) {
			r2, sign := r, one
			if keep {
				e.a[0] = f.Add(e.a[0], p)
			} else {
				r2, sign = (r+1)%roles, minusOne
				if handed > 0 {
					e.a[0] = f.Sub(e.a[0], f.Mul(p, f.FromInt(int64(handed))))
				}
			}
			if l, ok := pos[to]; ok {
				e.to = append(e.to, l*roles+r2)
				e.coef = append(e.coef, f.Mul(sign, p))
				return
			}
			e.a[0] = f.Add(e.a[0], f.Mul(f.Mul(sign, p), solved(to, r2)))
		})
		e.merge(f)
		return e
	}
	for iter := 0; ; iter++ {
		if iter == decayIterations {
			return nil, fmt.Errorf("policy iteration did not settle in %d steps", decayIterations)
		}
		eqs := make([]decayEq[T], len(ch))
		for k := range idx {
			for r := range roles {
				eqs[k*roles+r] = eq(k, r, ch[k*roles+r])
			}
		}
		x, err := solveRow(f, eqs)
		if err != nil {
			return nil, err
		}
		changed := false
		for k := range idx {
			for r := range roles {
				if !maximises(r) {
					continue
				}
				u := k*roles + r
				c, bv := ch[u], x[u][0]
				for _, y := range rules.Choices() {
					if !legal(k, y) {
						continue
					}
					e := eq(k, r, y)
					if v := eval(f, &e, x); f.Cmp(v, bv) > 0 {
						c, bv = y, v
					}
				}
				if c != ch[u] {
					ch[u], changed = c, true
				}
			}
		}
		if !changed {
			return x, nil
		}
	}
}

// solveSoloGroup solves a group of solitaire states that refer to each other (a cycle of
// forgetting) and otherwise to solved states, as one system of linear equations: unknown k is
// the expected turns and lucky matches, x[k][0] and x[k][1], of the k-th state played with choice
// ch[k], and eq(k, y) is the equation of choice y there, its unknowns the group's. Where optimal,
// policy iteration lowers the expected turns among the legal choices, a choice replaced by one
// strictly better, until none changes; then each state's choice in ch is the first of the fewest
// turns in the order of rules.Choices. A state with no legal choice (the table cleared) keeps its
// equation and choice.
func solveSoloGroup[T any](f field.Field[T], ch []rules.Choice, optimal bool,
	legal func(k int, y rules.Choice) bool, eq func(k int, y rules.Choice) decayEq[T]) ([][]T, error) {
	var x [][]T
	for iter := 0; ; iter++ {
		if iter == decayIterations {
			return nil, fmt.Errorf("policy iteration did not settle in %d steps", decayIterations)
		}
		eqs := make([]decayEq[T], len(ch))
		for k := range ch {
			eqs[k] = eq(k, ch[k])
		}
		var err error
		if x, err = solveRow(f, eqs); err != nil {
			return nil, err
		}
		if !optimal {
			return x, nil
		}
		changed := false
		for k := range ch {
			bv := x[k][0]
			for _, y := range rules.Choices() {
				if !legal(k, y) {
					continue
				}
				e := eq(k, y)
				if v := eval(f, &e, x); f.Cmp(v, bv) < 0 {
					ch[k], bv, changed = y, v, true
				}
			}
		}
		if !changed {
			break
		}
	}
	for k := range ch {
		for _, y := range rules.Choices() {
			if !legal(k, y) {
				continue
			}
			if e := eq(k, y); f.Cmp(eval(f, &e, x), x[k][0]) == 0 {
				ch[k] = y
				break
			}
		}
	}
	return x, nil
}

// leadVals holds a cell's values in a two-seat game valued in leads: the mover's lead when both
// seats play the optimum (opt, optChoice), and with role r's policy to move (val[r], ch[r]).
type leadVals[T any] struct {
	opt       T
	optChoice rules.Choice
	val       [2]T
	ch        [2]rules.Choice
}

// lead returns the optimum's lead (self) or role r's.
func (v *leadVals[T]) lead(r int, self bool) T {
	if self {
		return v.opt
	}
	return v.val[r]
}

// setLead stores the optimum's lead and choice (self) or role r's.
func (v *leadVals[T]) setLead(r int, self bool, x T, ch rules.Choice) {
	if self {
		v.opt, v.optChoice = x, ch
		return
	}
	v.val[r], v.ch[r] = x, ch
}

// leadAfter returns role r's mover's lead after an outcome that ends in a cell with values next:
// a pair taken (keep) is one more and the mover moves again; otherwise the other role moves,
// first taking the handed pairs the turn left known whole.
func leadAfter[T any](f field.Field[T], next *leadVals[T], r, roles int, self, keep bool, handed int) T {
	if keep {
		return f.Add(f.FromInt(1), next.lead(r, self))
	}
	return f.Sub(f.FromInt(int64(-handed)), next.lead((r+1)%roles, self))
}

// storeLeadGroup stores the leads x and choices ch that solveLeadGroup found for the states idx
// in their values (vals gives a state's), then gives each role that maximises the first of its
// best choices in the order of rules.Choices: value(i, r, y) is role r's lead making y in state
// i, every state it leads to solved.
func storeLeadGroup[T any](f field.Field[T], idx []int, roles int, self bool, x [][]T, ch []rules.Choice,
	maximises func(r int) bool, vals func(i int) *leadVals[T], legal func(i int, y rules.Choice) bool,
	value func(i, r int, y rules.Choice) T) {
	for k, i := range idx {
		for r := range roles {
			vals(i).setLead(r, self, x[k*roles+r][0], ch[k*roles+r])
		}
	}
	for _, i := range idx {
		v := vals(i)
		for r := range roles {
			if !maximises(r) {
				continue
			}
			best := v.lead(r, self)
			for _, y := range rules.Choices() {
				if legal(i, y) && f.Cmp(value(i, r, y), best) == 0 {
					v.setLead(r, self, best, y)
					break
				}
			}
		}
	}
}
