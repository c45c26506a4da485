package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// Decay forgetting under the pass rules two-known and always, two players (docs/models.md §4.14):
// a pass hands the turn over, so the hand-over's forgetting acts on the cards remembered, and the
// next seat moves just after a pass; a pass answered by a pass ends the game in a stalemate, lead
// 0, whatever was forgotten in between, as the engine counts passes in a row. Every unknown of a
// row comes twice, without and with a pass just made (the flag); a turn other than a pass leads
// to the unknowns without the flag, a pass without the flag to the ones with it, and a pass with
// it ends the game. Outcomes that leave the row (a pair taken) always lead to a state without the
// flag, so the previous row is read as under pass rule never.

// decayPasses reports whether the sweep solves decay forgetting under a pass rule other than
// never.
func (w *sweep[T]) decayPasses() bool {
	return w.m.isDecay() && (w.m.Pass != rules.PassNever || w.passRows)
}

// checkDecayPass reports an error for what the sweep cannot compute under decay forgetting and a
// pass rule other than never: it computes two players' leads, score distributions and the
// optimum's choices, and at three or more seats every seat's expected pairs under the optimum of
// every seat for itself or a policy per seat (selfishdecaypass.go), not the two-player optimum's
// choices there.
func (w *sweep[T]) checkDecayPass() error {
	what := ""
	switch {
	case w.lead != nil && w.mu.Players != 2:
		what = "a policy that plays to win"
	case w.streak != nil && w.needOpt:
		what = fmt.Sprintf("the two-player optimum's choices at %d seats", w.mu.Players)
	case w.streak != nil && (w.needPair || w.needDist || w.needSolo):
		what = fmt.Sprintf("a best response at %d seats", w.mu.Players)
	case w.streak != nil:
	case w.needSolo || w.needSelf || w.needMulti:
		what = fmt.Sprintf("%d players", w.mu.Players)
	}
	if what == "" {
		return nil
	}
	return fmt.Errorf("pass rule %s: decay forgetting under a pass rule is solved for two players' values and choices and for every seat's own optimum and fixed policies at 3 to %d seats, not %s", w.m.Pass, rules.MaxPlayers, what)
}

// passIndex numbers the unknowns of the self-play optimum of a row under a pass rule: state k
// (known cards), flag 1 just after a pass.
func passIndex(k, flag int) int { return 2*k + flag }

// passEq returns the equation of a pass made in cells[k] with the pass flag flag, as the role
// whose successor's unknowns after a pass are index(k'): with the flag it ends the game (lead 0);
// without it, the next seat moves just after a pass in the state the hand-over leaves.
func (w *sweep[T]) passEq(c *decayCell[T], n, flag int, index func(k int) int) *decayEq[T] {
	f := w.f
	e := &decayEq[T]{a: []T{w.zero}}
	if flag == 1 {
		return e
	}
	for i, o := range c.outs[rules.Pass] {
		k := sameRow(o, n)
		if k < 0 {
			continue // a pass removes no pair: every outcome stays in the row
		}
		e.to = append(e.to, index(k))
		e.coef = append(e.coef, f.Sub(w.zero, c.probs[rules.Pass][i]))
	}
	e.merge(f)
	return e
}

// decayPassOptimal solves the self-play optimum of the row under a pass rule: x(k, 0) and
// x(k, 1), the lead of the mover without and with a pass just made, each the largest over the
// legal choices, by policy iteration verified exactly (choiceSys.solve).
func (w *sweep[T]) decayPassOptimal(n int, cells []decayCell[T]) error {
	s := w.passOptimalSys(n, cells)
	_, x, vals, err := s.solve(w.f)
	if err != nil {
		return err
	}
	for k := range cells {
		c := &cells[k]
		w.at(c.st).opt = x[passIndex(k, 0)][0]
		w.at(c.st).optAfterPass = x[passIndex(k, 1)][0]
		c.optChoice = w.keepBest(c, x[passIndex(k, 0)][0], vals[passIndex(k, 0)], &c.optDev, &c.optBest)
		c.optAfter = w.keepBest(c, x[passIndex(k, 1)][0], vals[passIndex(k, 1)], &c.optDevAfter, &c.optBestAfter)
		c.hasAfter = true
	}
	return nil
}

// keepBest copies the legal choices' values vals of state c into dev, marks in best those equal
// to the state's value top, and returns the first of them.
func (w *sweep[T]) keepBest(c *decayCell[T], top T, vals choiceVals[T], dev *[rules.NumChoices]T, best *[rules.NumChoices]bool) rules.Choice {
	first, found := rules.Daring, false
	for _, ch := range rules.Choices() {
		best[ch] = false
		if !c.legal[ch] {
			continue
		}
		dev[ch] = vals[ch]
		best[ch] = w.f.Cmp(vals[ch], top) == 0
		if best[ch] && !found {
			first, found = ch, true
		}
	}
	return first
}

// passOptimalSys returns the equations of the self-play optimum of the row under a pass rule,
// the previous row solved: one position per unknown passIndex(k, flag).
func (w *sweep[T]) passOptimalSys(n int, cells []decayCell[T]) *choiceSys[T] {
	prev := func(_ int, st rules.State) T { return w.at(st).opt }
	plain := func(k, _ int) int { return passIndex(k, 0) }
	afterPass := func(k int) int { return passIndex(k, 1) }
	size := 2 * len(cells)
	s := &choiceSys[T]{fixed: make([]decayEq[T], size), at: make([]int, size),
		eqs: make([][rules.NumChoices]*decayEq[T], size), sign: 1}
	for k := range cells {
		c := &cells[k]
		var turn [rules.NumChoices]*decayEq[T] // the same for both flags
		for _, ch := range rules.Choices() {
			if c.legal[ch] && ch != rules.Pass {
				turn[ch] = w.leadEq(c, ch, n, prev, 0, 0, plain)
			}
		}
		for flag := range 2 {
			i := passIndex(k, flag)
			s.at[i] = i
			s.eqs[i] = turn
			if c.legal[rules.Pass] {
				s.eqs[i][rules.Pass] = w.passEq(c, n, flag, afterPass)
			}
		}
	}
	return s
}

// pairPassIndex numbers the unknowns of the two roles' leads in a row under a pass rule: state k,
// role r, flag 1 just after a pass.
func pairPassIndex(k, r, flag int) int { return 4*k + 2*r + flag }

// roleChoicesAfter returns the choice of each role just after a pass in every state of the row,
// as roleChoices does without one.
func (w *sweep[T]) roleChoicesAfter(cells []decayCell[T]) [2][]rules.Choice {
	var ch [2][]rules.Choice
	for r := range ch {
		ch[r] = make([]rules.Choice, len(cells))
		if w.pol[r] == rules.PolicyBestResponse {
			continue
		}
		for k := range cells {
			w.load(&cells[k])
			ch[r][k] = w.choice(r, cells[k].st, true)
		}
	}
	return ch
}

// roleEq returns the equation of the lead of role r in cells[k] with the pass flag flag making
// choice ch.
func (w *sweep[T]) roleEq(c *decayCell[T], ch rules.Choice, n, r, flag int) *decayEq[T] {
	if ch == rules.Pass {
		return w.passEq(c, n, flag, func(k int) int { return pairPassIndex(k, 1-r, 1) })
	}
	prev := func(r int, st rules.State) T { return w.at(st).lead[r] }
	plain := func(k, r int) int { return pairPassIndex(k, r, 0) }
	return w.leadEq(c, ch, n, prev, r, 1-r, plain)
}

// decayPassPair solves the leads of the two roles of the matchup in the row under a pass rule,
// without and with a pass just made; a best-response role chooses at both by policy iteration
// against the other.
func (w *sweep[T]) decayPassPair(n int, cells []decayCell[T]) error {
	ch := [2][2][]rules.Choice{}
	plain, after := w.roleChoices(cells), w.roleChoicesAfter(cells)
	for r := range 2 {
		ch[r] = [2][]rules.Choice{plain[r], after[r]}
	}
	br := -1
	for r, p := range w.pol {
		if p == rules.PolicyBestResponse {
			br = r
		}
	}
	s := &choiceSys[T]{fixed: make([]decayEq[T], 4*len(cells)), sign: 1}
	for k := range cells {
		for r := range 2 {
			for flag := range 2 {
				if r != br {
					s.fixed[pairPassIndex(k, r, flag)] = *w.roleEq(&cells[k], ch[r][flag][k], n, r, flag)
				}
			}
		}
	}
	var x [][]T
	var err error
	var brCh []rules.Choice
	if br < 0 {
		x, err = solveRow(w.f, s.fixed)
	} else {
		s.at = make([]int, 2*len(cells))
		s.eqs = make([][rules.NumChoices]*decayEq[T], 2*len(cells))
		for k := range cells {
			for flag := range 2 {
				pos := passIndex(k, flag)
				s.at[pos] = pairPassIndex(k, br, flag)
				for _, c := range rules.Choices() {
					if cells[k].legal[c] {
						s.eqs[pos][c] = w.roleEq(&cells[k], c, n, br, flag)
					}
				}
			}
		}
		brCh, x, _, err = s.solve(w.f)
	}
	if err != nil {
		return err
	}
	for k := range cells {
		at := w.at(cells[k].st)
		at.lead = [2]T{x[pairPassIndex(k, 0, 0)][0], x[pairPassIndex(k, 1, 0)][0]}
		at.leadAfter = [2]T{x[pairPassIndex(k, 0, 1)][0], x[pairPassIndex(k, 1, 1)][0]}
		if br >= 0 {
			cells[k].brChoice = [2]rules.Choice{brCh[passIndex(k, 0)], brCh[passIndex(k, 1)]}
		}
	}
	return nil
}

// decayPassRow solves the row of states with n pairs under a pass rule other than never.
func (w *sweep[T]) decayPassRow(n int, cells []decayCell[T]) error {
	if w.needOpt {
		if err := w.decayPassOptimal(n, cells); err != nil {
			return err
		}
	}
	if w.needPair || w.needDist {
		if err := w.decayPassPair(n, cells); err != nil {
			return err
		}
	}
	if w.needDist {
		return w.decayPassDist(n, cells)
	}
	return nil
}

// passDistIndex numbers the unknowns of a row's lead distributions under a pass rule: state k,
// role r, flag 1 just after a pass, and v = 1 for the distribution reversed.
func passDistIndex(k, r, flag, v int) int { return 8*k + 4*r + 2*flag + v }

// decayPassDist solves the lead distributions of the two roles under a pass rule, without and
// with a pass just made (passDistRow), every turn into a later row as distEquations's.
func (w *sweep[T]) decayPassDist(n int, cells []decayCell[T]) error {
	size := 2*w.maxPairs + 1
	plain, after := w.roleChoices(cells), w.roleChoicesAfter(cells)
	for r := range 2 {
		if w.pol[r] == rules.PolicyBestResponse {
			for k := range cells {
				plain[r][k], after[r][k] = cells[k].brChoice[0], cells[k].brChoice[1]
			}
		}
	}
	x, err := w.passDistRow(n, cells, func(r, flag, k int) rules.Choice {
		if flag == 1 {
			return after[r][k]
		}
		return plain[r][k]
	}, func(r int, o Outcome) ([]T, int) {
		if o.Continue {
			return w.at(o.Next).dist[r], o.MoverGain
		}
		return reversed(w.at(o.Next).dist[1-r], size), -o.NextGain
	})
	if err != nil {
		return err
	}
	for k := range cells {
		w.at(cells[k].st).dist = [2][]T{x[passDistIndex(k, 0, 0, 0)], x[passDistIndex(k, 1, 0, 0)]}
	}
	return nil
}

// passDistRow solves row n's score distributions under a pass rule, unknowns passDistIndex(k, r,
// flag, v): choice(r, flag, k) is role r's choice in cells[k] (flag 1: just after a pass by the
// other seat); a pass with the flag ends the game at lead 0 (the pairs left shared), a pass without
// it hands the next role the reversed distribution just after a pass in the state the hand-over
// leaves, and an outcome o in a later row adds later(r, o)'s distribution shifted by the gain it
// returns.
func (w *sweep[T]) passDistRow(n int, cells []decayCell[T], choice func(r, flag, k int) rules.Choice, later func(r int, o Outcome) ([]T, int)) ([][]T, error) {
	f := w.f
	size := 2*w.maxPairs + 1
	stalemate := w.zeros(size)
	stalemate[w.maxPairs] = w.one
	eqs := make([]decayEq[T], 8*len(cells))
	for k := range cells {
		c := &cells[k]
		for r := range 2 {
			for flag := range 2 {
				ch := choice(r, flag, k)
				e := decayEq[T]{a: w.zeros(size)}
				var to []int
				var coef []T
				target := 0 // the flag of the unknowns the same-row outcomes refer to
				switch {
				case ch == rules.Pass && flag == 1:
					e.a = append([]T(nil), stalemate...)
				case ch == rules.Pass:
					target = 1
					for i, o := range c.outs[ch] {
						if k2 := sameRow(o, n); k2 >= 0 {
							to, coef = append(to, k2), append(coef, c.probs[ch][i])
						}
					}
				default:
					for i, o := range c.outs[ch] {
						pr := c.probs[ch][i]
						if k2 := sameRow(o, n); k2 >= 0 {
							to, coef = append(to, k2), append(coef, pr)
							continue
						}
						dist, shift := later(r, o)
						addShifted(f, e.a, pr, dist, shift)
					}
				}
				index := func(k2, r2, v int) int { return passDistIndex(k2, r2, target, v) }
				eqs[passDistIndex(k, r, flag, 0)], eqs[passDistIndex(k, r, flag, 1)] = mirrored(f, e, to, coef, size, r, index)
			}
		}
	}
	return solveRow(f, eqs)
}

// optimalAfterPass returns the optimal policy's choice in the current state just after a pass by
// the other seat: under decay forgetting and a pass rule, its own; elsewhere the same as without
// a pass (docs/models.md §4.5).
func (w *sweep[T]) optimalAfterPass() rules.Choice {
	if w.hasAfter {
		return w.optAfter
	}
	return w.optimalChoice()
}

// decayPassLead returns seat 0's lead in the current state after a pass, the lineup played
// afterwards: the other seat moves just after a pass in the state the hand-over leaves.
func (w *sweep[T]) decayPassLead() T {
	f := w.f
	v := w.zero
	for i, o := range w.outs[rules.Pass] {
		v = f.Sub(v, f.Mul(w.probs[rules.Pass][i], w.at(o.Next).leadAfter[1]))
	}
	return v
}
