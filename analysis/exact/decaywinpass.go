package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// The win objective under decay forgetting and the pass rules two-known and always, two players
// (docs/models.md §4.13, §4.14). The state is (n, k, lead, a pass just made): the groups of
// decaywin.go (role 0 moving at lead e, role 1 at -e) gain the flag of decaypass.go, unknown
// winPassIndex(k, r, flag). A turn other than a pass refers to the other role's unknowns without
// the flag; a pass without the flag hands the other role every state the hand-over's forgetting
// leaves, with the flag, at the negated lead; a pass with the flag ends the game in a stalemate,
// decided by the lead so far (a draw at lead 0). Outcomes that leave the row are read in the
// previous row without the flag, as under pass rule never.

// winPassIndex numbers the unknowns of a group under a pass rule: state k (known cards), role r
// (or the sign of the lead in self-play), flag 1 just after a pass.
func winPassIndex(k, r, flag int) int { return 4*k + 2*r + flag }

// passGroupEq returns the equation of role r's quantity in cells[k] with the pass flag flag when
// it passes: with the flag the game ends, worth stale; without it, the other role moves just
// after a pass in each state the hand-over leaves, negated (hoSign -1) or not (hoSign 1).
func (l *leadSweep[T]) passGroupEq(c *decayCell[T], n, r, flag int, stale T, hoSign int) *decayEq[T] {
	w, f := l.w, l.w.f
	if flag == 1 {
		return &decayEq[T]{a: []T{stale}}
	}
	e := &decayEq[T]{a: []T{w.zero}}
	for i, o := range c.outs[rules.Pass] {
		k := sameRow(o, n)
		if k < 0 {
			continue // a pass takes no pair: every outcome stays in the row
		}
		coef := c.probs[rules.Pass][i]
		if hoSign < 0 {
			coef = f.Sub(w.zero, coef)
		}
		e.to = append(e.to, winPassIndex(k, 1-r, 1))
		e.coef = append(e.coef, coef)
	}
	e.merge(f)
	return e
}

// winPassEq returns the equation of role r's quantity in cells[k] at lead lead with the pass flag
// flag making choice ch: groupEq's for a turn, passGroupEq's for a pass.
func (l *leadSweep[T]) winPassEq(c *decayCell[T], ch rules.Choice, n, r, flag, lead int,
	val func(r int, st rules.State, lead int) T, gainW, stale T, hoSign int) *decayEq[T] {
	if ch == rules.Pass {
		return l.passGroupEq(c, n, r, flag, stale, hoSign)
	}
	plain := func(k, r int) int { return winPassIndex(k, r, 0) }
	return l.groupEq(c, ch, n, r, lead, plain, val, gainW, hoSign)
}

// decayPassSelfPlay solves win-optimal self-play at leads d and -d under a pass rule: unknown
// winPassIndex(k, s, flag), s = 0 at lead d, s = 1 at lead -d; every unknown chooses, maximising
// its own value.
func (l *leadSweep[T]) decayPassSelfPlay(n int, cells []decayCell[T], d int) error {
	w := l.w
	leads := [2]int{d, -d}
	if d > n {
		for k := range cells {
			c, first := l.at(cells[k].st), firstLegalOf(&cells[k])
			for _, e := range leads {
				for g := range 2 {
					c.wo[g][l.li(e)], c.woC[g][l.li(e)] = l.final(e), first
				}
			}
		}
		return nil
	}
	val := func(_ int, st rules.State, lead int) T { return l.at(st).wo[0][l.li(lead)] }
	size := 4 * len(cells)
	sys := &choiceSys[T]{fixed: make([]decayEq[T], size), sign: 1}
	for k := range cells {
		for s := range 2 {
			for flag := range 2 {
				sys.at = append(sys.at, winPassIndex(k, s, flag))
				var eqs [rules.NumChoices]*decayEq[T]
				for _, ch := range rules.Choices() {
					if cells[k].legal[ch] {
						eqs[ch] = l.winPassEq(&cells[k], ch, n, s, flag, leads[s], val, w.zero, l.final(leads[s]), -1)
					}
				}
				sys.eqs = append(sys.eqs, eqs)
			}
		}
	}
	_, x, vals, err := sys.solve(w.f)
	if err != nil {
		return fmt.Errorf("win-optimal at lead %d: %w", d, err)
	}
	for pos, i := range sys.at {
		k, s, flag := i/4, (i/2)%2, i%2
		best := sys.firstBest(w.f, pos, vals[pos], x[i][0])
		c := l.at(cells[k].st)
		c.wo[flag][l.li(leads[s])], c.woC[flag][l.li(leads[s])] = x[i][0], best
	}
	return nil
}

// decayPassMatchup solves the matchup's group in which role 0 moves at lead e and role 1 at -e
// under a pass rule, without and with a pass just made: the roles' choices (a win best response
// maximising its win value against the other role), then, as asked, the expected leads, the win,
// draw and loss probabilities and the lead distributions.
func (l *leadSweep[T]) decayPassMatchup(n int, cells []decayCell[T], e int) error {
	w, f := l.w, l.w.f
	lead := [2]int{e, -e}
	decided := e > n || -e > n
	var ch [2][2][]rules.Choice // ch[r][flag][k]
	var free [2]bool
	for r := range 2 {
		for g := range 2 {
			ch[r][g] = make([]rules.Choice, len(cells))
		}
	}
	for k := range cells {
		st := cells[k].st
		w.load(&cells[k])
		c := l.at(st)
		for r, p := range l.pol {
			for g := range 2 {
				switch p {
				case rules.PolicyWinOptimal:
					ch[r][g][k] = c.woC[g][l.li(lead[r])]
				case rules.PolicyWinBestResponse:
					free[r] = true
					ch[r][g][k] = firstLegalOf(&cells[k])
				case policyTable:
					s := st
					s.Lead = lead[r]
					ch[r][g][k] = w.tableChoice(w.tab[r], s, g == 1)
				default:
					ch[r][g][k] = w.choice(r, st, g == 1)
				}
			}
		}
	}
	store := func(k, r, g int, set func(c *leadCell[T], i int)) { set(l.at(cells[k].st), l.li(lead[r])) }
	if l.needWin {
		if err := l.decayPassWinValues(n, cells, lead, decided, free, &ch); err != nil {
			return err
		}
	}
	for k := range cells {
		for r := range 2 {
			for g := range 2 {
				store(k, r, g, func(c *leadCell[T], i int) { c.ch[r][g][i] = ch[r][g][k] })
			}
		}
	}
	// The linear evaluations of the group for the roles' choices: one scalar system per quantity.
	linear := func(val func(r int, st rules.State, d int) T, gainW T, stale func(r int) T, hoSign int) ([][]T, error) {
		eqs := make([]decayEq[T], 4*len(cells))
		for k := range cells {
			for r := range 2 {
				for g := range 2 {
					eqs[winPassIndex(k, r, g)] = *l.winPassEq(&cells[k], ch[r][g][k], n, r, g, lead[r], val, gainW, stale(r), hoSign)
				}
			}
		}
		return solveRow(f, eqs)
	}
	if l.needEval {
		x, err := linear(func(r int, st rules.State, d int) T { return l.at(st).lead[r][0][l.li(d)] }, w.one,
			func(int) T { return w.zero }, -1)
		if err != nil {
			return err
		}
		for k := range cells {
			for r := range 2 {
				for g := range 2 {
					store(k, r, g, func(c *leadCell[T], i int) { c.lead[r][g][i] = x[winPassIndex(k, r, g)][0] })
				}
			}
		}
	}
	if l.needWDL {
		var u, v [][]T
		if !decided {
			var err error
			u, err = linear(func(r int, st rules.State, d int) T { return l.at(st).wdl[r][0][l.li(d)][0] }, w.zero,
				func(r int) T { return l.finalWDL(lead[r])[0] }, -1)
			if err != nil {
				return err
			}
			v, err = linear(func(r int, st rules.State, d int) T { return l.at(st).wdl[r][0][l.li(d)][1] }, w.zero,
				func(r int) T { return l.finalWDL(lead[r])[1] }, 1)
			if err != nil {
				return err
			}
		}
		for k := range cells {
			for r := range 2 {
				for g := range 2 {
					val := l.finalWDL(lead[r])
					if !decided {
						i := winPassIndex(k, r, g)
						val = []T{u[i][0], v[i][0]}
					}
					store(k, r, g, func(c *leadCell[T], i int) { c.wdl[r][g][i] = val })
				}
			}
		}
	}
	if l.needDist {
		x, err := l.decayPassDistGroup(n, cells, lead, &ch)
		if err != nil {
			return err
		}
		for k := range cells {
			for r := range 2 {
				for g := range 2 {
					store(k, r, g, func(c *leadCell[T], i int) { c.dist[r][g][i] = x[passDistIndex(k, r, g, 0)] })
				}
			}
		}
	}
	return nil
}

// decayPassWinValues solves the roles' win values of a group under a pass rule, a win best
// response choosing at both flags by policy iteration against the other role, and stores them;
// it sets the free roles' choices in ch.
func (l *leadSweep[T]) decayPassWinValues(n int, cells []decayCell[T], lead [2]int, decided bool, free [2]bool, ch *[2][2][]rules.Choice) error {
	w, f := l.w, l.w.f
	var x [][]T
	if !decided {
		val := func(r int, st rules.State, d int) T { return l.at(st).win[r][0][l.li(d)] }
		sys := &choiceSys[T]{fixed: make([]decayEq[T], 4*len(cells)), sign: 1}
		for k := range cells {
			for r := range 2 {
				for g := range 2 {
					i := winPassIndex(k, r, g)
					if !free[r] {
						sys.fixed[i] = *l.winPassEq(&cells[k], ch[r][g][k], n, r, g, lead[r], val, w.zero, l.final(lead[r]), -1)
						continue
					}
					sys.at = append(sys.at, i)
					var eqs [rules.NumChoices]*decayEq[T]
					for _, c := range rules.Choices() {
						if cells[k].legal[c] {
							eqs[c] = l.winPassEq(&cells[k], c, n, r, g, lead[r], val, w.zero, l.final(lead[r]), -1)
						}
					}
					sys.eqs = append(sys.eqs, eqs)
				}
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
			return fmt.Errorf("win values at lead %d: %w", lead[0], err)
		}
		for pos, i := range sys.at {
			ch[(i/2)%2][i%2][i/4] = sys.firstBest(f, pos, vals[pos], x[i][0])
		}
	}
	for k := range cells {
		c := l.at(cells[k].st)
		for r := range 2 {
			for g := range 2 {
				v := l.final(lead[r])
				if !decided {
					v = x[winPassIndex(k, r, g)][0]
				}
				c.win[r][g][l.li(lead[r])] = v
			}
		}
	}
	return nil
}

// decayPassDistGroup solves the lead distributions of a group under a pass rule, as
// decayPassDist does for the counts: unknowns passDistIndex(k, r, flag, v).
func (l *leadSweep[T]) decayPassDistGroup(n int, cells []decayCell[T], lead [2]int, ch *[2][2][]rules.Choice) ([][]T, error) {
	w := l.w
	size := 2*w.maxPairs + 1
	return w.passDistRow(n, cells, func(r, flag, k int) rules.Choice { return ch[r][flag][k] }, func(r int, o Outcome) ([]T, int) {
		if o.Continue {
			return l.at(o.Next).dist[r][0][l.li(lead[r]+o.MoverGain)], o.MoverGain
		}
		return reversed(l.at(o.Next).dist[1-r][0][l.li(-lead[r]+o.NextGain)], size), -o.NextGain
	})
}

// passOuts returns the states a pass by the mover in the current state st hands the other seat,
// with their probabilities: under decay forgetting and a pass rule, those the hand-over's
// forgetting leaves; elsewhere st itself.
func (l *leadSweep[T]) passOuts(st rules.State) ([]Outcome, []T) {
	w := l.w
	if w.decayPasses() {
		return w.outs[rules.Pass], w.probs[rules.Pass]
	}
	return []Outcome{{Next: st.Counts()}}, []T{w.one}
}

// afterPass returns the sum over the states a pass in st hands over of their probability times
// val of the other role's cell there just after a pass.
func (l *leadSweep[T]) afterPass(st rules.State, val func(c *leadCell[T]) T) T {
	f := l.w.f
	outs, probs := l.passOuts(st)
	v := l.w.zero
	for i, o := range outs {
		v = f.Add(v, f.Mul(probs[i], val(l.at(o.Next))))
	}
	return v
}
