package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// The win objective under decay forgetting (docs/models.md §4.13, §4.14). As in the lead sweep, the
// unknowns of a row come in groups: role 0 moving at lead e and role 1 at lead -e (handing over
// negates the lead), for every state of the row; a group's equations refer to the group itself
// and to the previous row, so each group is solved as a system of its own, by policy iteration
// where a role chooses. Pass rule never: a turn never follows a pass, so the values after a pass
// (flag 1) are those without.

// groupEq returns the equation of the unknown of role r in cells[k] making choice c at lead
// lead, in a group numbered by index(k', role): an outcome that stays in the row refers to the
// other role's unknown of its successor with coefficient hoSign·p; one that leaves it reads
// val(role, successor, lead there) in the previous row, plus gainW times the pairs taken, the
// next seat's negated (hoSign -1) or not (hoSign 1, for the probability of a draw).
func (l *leadSweep[T]) groupEq(c *decayCell[T], ch rules.Choice, n, r, lead int, index func(k, r int) int,
	val func(r int, st rules.State, lead int) T, gainW T, hoSign int) *decayEq[T] {
	w, f := l.w, l.w.f
	e := &decayEq[T]{a: []T{w.zero}}
	for i, o := range c.outs[ch] {
		p := c.probs[ch][i]
		if k := sameRow(o, n); k >= 0 {
			coef := p
			if hoSign < 0 {
				coef = f.Sub(w.zero, p)
			}
			e.to = append(e.to, index(k, 1-r))
			e.coef = append(e.coef, coef)
			continue
		}
		var v T
		if o.Continue {
			v = f.Add(f.Mul(gainW, w.ints[o.MoverGain]), val(r, o.Next, lead+o.MoverGain))
		} else {
			v = f.Add(f.Mul(gainW, w.ints[o.NextGain]), val(1-r, o.Next, -lead+o.NextGain))
			if hoSign < 0 {
				v = f.Sub(w.zero, v)
			}
		}
		e.a[0] = f.Add(e.a[0], f.Mul(p, v))
	}
	e.merge(f)
	return e
}

// firstLegalOf returns the first legal choice of a cell in the order daring, safe, known-first.
func firstLegalOf[T any](c *decayCell[T]) rules.Choice {
	for _, ch := range rules.Choices() {
		if c.legal[ch] {
			return ch
		}
	}
	return rules.Daring
}

// decayRow computes every lead of the states of row n, whose counts' values are solved.
func (l *leadSweep[T]) decayRow(n int, cells []decayCell[T]) error {
	if l.needBR {
		return fmt.Errorf("decay forgetting: a best response to a table that depends on the lead has no exact model")
	}
	for k := range cells {
		l.alloc(l.at(cells[k].st))
	}
	selfPlay, matchup := l.decaySelfPlay, l.decayMatchup
	if l.w.decayPasses() {
		selfPlay, matchup = l.decayPassSelfPlay, l.decayPassMatchup // with the pass flag (decaywinpass.go)
	}
	for d := 0; d <= l.reach(n); d++ {
		if l.needWinOpt {
			if err := selfPlay(n, cells, d); err != nil {
				return err
			}
		}
		for _, e := range []int{d, -d} {
			if err := matchup(n, cells, e); err != nil {
				return err
			}
			if d == 0 {
				break
			}
		}
	}
	return nil
}

// decaySelfPlay solves win-optimal self-play at leads d and -d: unknown 2k + s, s = 0 at lead d,
// s = 1 at lead -d; every unknown chooses, maximising its own value.
func (l *leadSweep[T]) decaySelfPlay(n int, cells []decayCell[T], d int) error {
	w := l.w
	leads := [2]int{d, -d}
	if d > n {
		for k := range cells {
			c, first := l.at(cells[k].st), firstLegalOf(&cells[k])
			for s, e := range leads {
				for g := range 2 {
					c.wo[g][l.li(e)], c.woC[g][l.li(e)] = l.final(leads[s]), first
				}
			}
		}
		return nil
	}
	index := func(k, s int) int { return 2*k + s }
	val := func(_ int, st rules.State, lead int) T { return l.at(st).wo[0][l.li(lead)] }
	sys := &choiceSys[T]{fixed: make([]decayEq[T], 2*len(cells)), sign: 1}
	for k := range cells {
		for s := range 2 {
			sys.at = append(sys.at, index(k, s))
			var eqs [rules.NumChoices]*decayEq[T]
			for _, ch := range rules.Choices() {
				if cells[k].legal[ch] {
					eqs[ch] = l.groupEq(&cells[k], ch, n, s, leads[s], index, val, w.zero, -1)
				}
			}
			sys.eqs = append(sys.eqs, eqs)
		}
	}
	_, x, vals, err := sys.solve(w.f)
	if err != nil {
		return fmt.Errorf("win-optimal at lead %d: %w", d, err)
	}
	for pos, i := range sys.at {
		k, s := pos/2, pos%2
		best := sys.firstBest(w.f, pos, vals[pos], x[i][0])
		c := l.at(cells[k].st)
		for g := range 2 {
			c.wo[g][l.li(leads[s])], c.woC[g][l.li(leads[s])] = x[i][0], best
		}
	}
	return nil
}

// decayMatchup solves the matchup's group in which role 0 moves at lead e and role 1 at -e
// (unknown 2k + r): the roles' choices (a win best response maximising its win value against the
// other role), then, as asked, the expected leads, the win, draw and loss probabilities and the
// lead distributions.
func (l *leadSweep[T]) decayMatchup(n int, cells []decayCell[T], e int) error {
	w, f := l.w, l.w.f
	lead := [2]int{e, -e}
	index := func(k, r int) int { return 2*k + r }
	decided := e > n || -e > n
	ch := [2][]rules.Choice{make([]rules.Choice, len(cells)), make([]rules.Choice, len(cells))}
	var free [2]bool
	for k := range cells {
		st := cells[k].st
		w.load(&cells[k])
		c := l.at(st)
		for r, p := range l.pol {
			switch p {
			case rules.PolicyWinOptimal:
				ch[r][k] = c.woC[0][l.li(lead[r])]
			case rules.PolicyWinBestResponse:
				free[r] = true
				ch[r][k] = firstLegalOf(&cells[k])
			case policyTable:
				s := st
				s.Lead = lead[r]
				ch[r][k] = w.tableChoice(w.tab[r], s, false)
			default:
				ch[r][k] = w.choice(r, st, false)
			}
		}
	}
	store := func(k, r int, set func(c *leadCell[T], g, i int)) {
		c := l.at(cells[k].st)
		for g := range 2 {
			set(c, g, l.li(lead[r]))
		}
	}
	if l.needWin {
		var x [][]T
		if !decided {
			val := func(r int, st rules.State, d int) T { return l.at(st).win[r][0][l.li(d)] }
			sys := &choiceSys[T]{fixed: make([]decayEq[T], 2*len(cells)), sign: 1}
			for k := range cells {
				for r := range 2 {
					if !free[r] {
						sys.fixed[index(k, r)] = *l.groupEq(&cells[k], ch[r][k], n, r, lead[r], index, val, w.zero, -1)
						continue
					}
					sys.at = append(sys.at, index(k, r))
					var eqs [rules.NumChoices]*decayEq[T]
					for _, c := range rules.Choices() {
						if cells[k].legal[c] {
							eqs[c] = l.groupEq(&cells[k], c, n, r, lead[r], index, val, w.zero, -1)
						}
					}
					sys.eqs = append(sys.eqs, eqs)
				}
			}
			var vals []choiceVals[T]
			var err error
			if len(sys.at) == 0 {
				x, err = solveRow(f, sys.fixed)
			} else {
				_, x, vals, err = sys.solve(f)
			}
			if err != nil {
				return fmt.Errorf("win values at lead %d: %w", e, err)
			}
			for pos, i := range sys.at {
				ch[i%2][i/2] = sys.firstBest(f, pos, vals[pos], x[i][0])
			}
		}
		for k := range cells {
			for r := range 2 {
				v := l.final(lead[r])
				if !decided {
					v = x[index(k, r)][0]
				}
				store(k, r, func(c *leadCell[T], g, i int) { c.win[r][g][i] = v })
			}
		}
	}
	for k := range cells {
		for r := range 2 {
			store(k, r, func(c *leadCell[T], g, i int) { c.ch[r][g][i] = ch[r][k] })
		}
	}
	// The linear evaluations of the group for the roles' choices: one scalar system per quantity.
	linear := func(val func(r int, st rules.State, d int) T, gainW T, hoSign int) ([][]T, error) {
		eqs := make([]decayEq[T], 2*len(cells))
		for k := range cells {
			for r := range 2 {
				eqs[index(k, r)] = *l.groupEq(&cells[k], ch[r][k], n, r, lead[r], index, val, gainW, hoSign)
			}
		}
		return solveRow(f, eqs)
	}
	if l.needEval {
		x, err := linear(func(r int, st rules.State, d int) T { return l.at(st).lead[r][0][l.li(d)] }, w.one, -1)
		if err != nil {
			return err
		}
		for k := range cells {
			for r := range 2 {
				store(k, r, func(c *leadCell[T], g, i int) { c.lead[r][g][i] = x[index(k, r)][0] })
			}
		}
	}
	if l.needWDL {
		var u, v [][]T
		if !decided {
			var err error
			if u, err = linear(func(r int, st rules.State, d int) T { return l.at(st).wdl[r][0][l.li(d)][0] }, w.zero, -1); err != nil {
				return err
			}
			if v, err = linear(func(r int, st rules.State, d int) T { return l.at(st).wdl[r][0][l.li(d)][1] }, w.zero, 1); err != nil {
				return err
			}
		}
		for k := range cells {
			for r := range 2 {
				val := l.finalWDL(lead[r])
				if !decided {
					val = []T{u[index(k, r)][0], v[index(k, r)][0]}
				}
				store(k, r, func(c *leadCell[T], g, i int) { c.wdl[r][g][i] = val })
			}
		}
	}
	if l.needDist {
		x, err := l.decayDistGroup(n, cells, lead, ch)
		if err != nil {
			return err
		}
		for k := range cells {
			for r := range 2 {
				store(k, r, func(c *leadCell[T], g, i int) { c.dist[r][g][i] = x[4*k+2*r] })
			}
		}
	}
	return nil
}

// decayDistGroup solves the lead distributions of a group, as decayDist does for the counts:
// unknowns 4k + 2r + v, v = 1 for the reversed distribution.
func (l *leadSweep[T]) decayDistGroup(n int, cells []decayCell[T], lead [2]int, ch [2][]rules.Choice) ([][]T, error) {
	w, f := l.w, l.w.f
	size := 2*w.maxPairs + 1
	return solveRow(f, w.distEquations(n, cells, ch, func(o Outcome, r int) ([]T, int) {
		if o.Continue {
			return l.at(o.Next).dist[r][0][l.li(lead[r]+o.MoverGain)], o.MoverGain
		}
		return reversed(l.at(o.Next).dist[1-r][0][l.li(-lead[r]+o.NextGain)], size), -o.NextGain
	}))
}
