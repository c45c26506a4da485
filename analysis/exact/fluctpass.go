package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// A fluctuating capacity under the pass rules two-known and always, two seats (docs/models.md
// §4.4, §4.5). A capacity is drawn at every turn, a pass turn included: under lru the draw
// forgets the cards beyond it before the mover chooses; a pass shows no card, and the hand-over
// after it keeps the capacity drawn (handover-uniform forgets down to it, lru already has), so
// a pass in (n, k) with capacity c drawn hands the other seat (n, min(k, c)), to move just after
// a pass. A pass answered by a pass ends the game in a stalemate, the pairs left shared (lead 0),
// as the engine counts passes in a row.
//
// Every unknown of a row, before and after the draw, comes twice: without and with a pass just
// made (the flag, which the mover knows and the draw keeps). A turn other than a pass leads to the
// unknowns without the flag, a pass without it to the other seat's unknown with it, and a pass
// with it ends the game. Outcomes that leave the row (a pair taken) lead to a state without the
// flag, so the previous row is read as under pass rule never.

// passes reports whether the sweep solves a pass rule other than never.
func (s *fluctSweep[T]) passes() bool { return s.m.Pass != rules.PassNever }

// afterPass returns the choices just after a pass for a table: after under a pass rule, nil
// under pass rule never.
func (s *fluctSweep[T]) afterPass(after [][][]rules.Choice) [][][]rules.Choice {
	if !s.passes() {
		return nil
	}
	return after
}

// passKept returns the known cards a pass made with k known and capacity c drawn hands the other
// seat: the hand-over keeps the capacity drawn (lru has forgotten down to it at the draw,
// handover-uniform forgets down to it at the hand-over), min(k, c).
func passKept(k, c int) int { return min(k, c) }

// passEq returns the equation of a pass made in (n, k) with capacity c drawn and the pass flag
// flag: with the flag it ends the game (lead 0); without it the other seat moves just after a
// pass, before its draw, with passKept(k, c) known cards, its unknown at afterPass.
func (s *fluctSweep[T]) passEq(k, c, flag int, afterPass func(k int) int) *decayEq[T] {
	e := &decayEq[T]{a: []T{s.zero}}
	if flag == 1 {
		return e
	}
	e.to, e.coef = []int{afterPass(passKept(k, c))}, []T{s.f.FromInt(-1)}
	return e
}

// passChoiceEqs returns the equation of every legal choice at node nd (after the draw) of the
// row of n pairs with the pass flag flag, nil where a choice is illegal: a turn as choiceEq reads
// it (own and other the previous row's values, other2 the other role's in the row of n - 2 pairs
// after two pairs known whole under blind flips, plain the other role's unknowns without the
// flag), a pass as passEq.
func (s *fluctSweep[T]) passChoiceEqs(n int, nd fluctNode, flag int, own, other, other2 []T, otherRole int, plain func(k, role int) int, afterPass func(k int) int) [rules.NumChoices]*decayEq[T] {
	var eqs [rules.NumChoices]*decayEq[T]
	for _, ch := range rules.Choices() {
		switch {
		case !s.m.Legal(rules.State{N: n, J: n - nd.k}, ch):
		case ch == rules.Pass:
			eqs[ch] = s.passEq(nd.k, nd.c, flag, afterPass)
		default:
			eqs[ch] = s.choiceEq(n, nd.k, nd.c, ch, own, other, other2, otherRole, plain)
		}
	}
	return eqs
}

// passRow solves the row of n pairs under a pass rule: the optimum's unknowns, then the matchup's.
func (s *fluctSweep[T]) passRow(n int) error {
	nodes, caps := s.rowNodes(n)
	pos := make(map[fluctNode]int, len(nodes))
	for i, nd := range nodes {
		pos[nd] = i
	}
	if s.needOpt {
		if err := s.passOptRow(n, nodes, caps, pos); err != nil {
			return err
		}
	}
	if !s.needPair {
		return nil
	}
	return s.passPairRow(n, nodes, caps, pos)
}

// passOptRow solves the self-play optimum of the row of n pairs under a pass rule: the unknown of
// node i with the flag flag at flag*N + i, each the largest over the legal choices after the draw,
// by policy iteration.
func (s *fluctSweep[T]) passOptRow(n int, nodes []fluctNode, caps []fluctCap, pos map[fluctNode]int) error {
	N := len(nodes)
	plain := func(k, _ int) int { return pos[fluctNode{k: k}] }
	afterPass := func(k int) int { return N + pos[fluctNode{k: k}] }
	sys := &choiceSys[T]{sign: 1, fixed: make([]decayEq[T], 2*N)}
	for flag := range 2 {
		at := func(k, c int) int { return flag*N + pos[fluctNode{k: k, c: c}] }
		for i, nd := range nodes {
			if nd.c == 0 {
				sys.fixed[flag*N+i] = s.drawEq(nd.k, caps, at)
				continue
			}
			sys.at = append(sys.at, flag*N+i)
			sys.eqs = append(sys.eqs, s.passChoiceEqs(n, nd, flag, s.prev.opt, s.prev.opt, s.prev2.opt, 0, plain, afterPass))
		}
	}
	ch, x, _, err := sys.solve(s.f)
	if err != nil {
		return fmt.Errorf("%d pairs: %w", n, err)
	}
	byCap := s.keepFlagChoices(n, nodes, caps, sys.at, ch, 0)
	s.optChoice, s.optAfter = append(s.optChoice, byCap[0]), append(s.optAfter, byCap[1])
	s.cur.opt, s.cur.afterOpt = make([]T, min(n, s.maxK)+1), make([]T, min(n, s.maxK)+1)
	for k := range s.cur.opt {
		s.cur.opt[k], s.cur.afterOpt[k] = x[plain(k, 0)][0], x[afterPass(k)][0]
	}
	return nil
}

// keepFlagChoices lays out the chooser's choices ch at the positions at (base + flag*N + node)
// as [flag][c][k].
func (s *fluctSweep[T]) keepFlagChoices(n int, nodes []fluctNode, caps []fluctCap, at []int, ch []rules.Choice, base int) [2][][]rules.Choice {
	N := len(nodes)
	var byCap [2][][]rules.Choice
	for flag := range 2 {
		byCap[flag] = make([][]rules.Choice, caps[len(caps)-1].c+1)
	}
	for t, i := range at {
		flag, nd := (i-base)/N, nodes[(i-base)%N]
		if byCap[flag][nd.c] == nil {
			byCap[flag][nd.c] = make([]rules.Choice, min(n, s.maxK)+1)
		}
		byCap[flag][nd.c][nd.k] = ch[t]
	}
	return byCap
}

// passPairRow solves the two roles' leads in the row of n pairs under a pass rule: the unknown of
// role r at node i with the flag flag at r*2N + flag*N + i. A best-response role chooses at its
// nodes after the draw by policy iteration against the other role's fixed equations.
func (s *fluctSweep[T]) passPairRow(n int, nodes []fluctNode, caps []fluctCap, pos map[fluctNode]int) error {
	N := len(nodes)
	plain := func(k, role int) int { return role*2*N + pos[fluctNode{k: k}] }
	sys := &choiceSys[T]{sign: 1, fixed: make([]decayEq[T], 4*N)}
	for r := range 2 {
		afterPass := func(k int) int { return (1-r)*2*N + N + pos[fluctNode{k: k}] }
		for flag := range 2 {
			at := func(k, c int) int { return r*2*N + flag*N + pos[fluctNode{k: k, c: c}] }
			for i, nd := range nodes {
				idx := r*2*N + flag*N + i
				switch {
				case nd.c == 0:
					sys.fixed[idx] = s.drawEq(nd.k, caps, at)
				case r == s.br:
					sys.at = append(sys.at, idx)
					sys.eqs = append(sys.eqs, s.passChoiceEqs(n, nd, flag, s.prev.w[r], s.prev.w[1-r], s.prev2.w[1-r], 1-r, plain, afterPass))
				default:
					ch, err := s.choiceAt(r, n, nd.k, nd.c, flag)
					if err != nil {
						return err
					}
					if ch == rules.Pass {
						sys.fixed[idx] = *s.passEq(nd.k, nd.c, flag, afterPass)
					} else {
						sys.fixed[idx] = *s.choiceEq(n, nd.k, nd.c, ch, s.prev.w[r], s.prev.w[1-r], s.prev2.w[1-r], 1-r, plain)
					}
				}
			}
		}
	}
	var x [][]T
	var err error
	if s.br < 0 {
		x, err = solveRow(s.f, sys.fixed)
	} else {
		var ch []rules.Choice
		ch, x, _, err = sys.solve(s.f)
		if err == nil {
			byCap := s.keepFlagChoices(n, nodes, caps, sys.at, ch, s.br*2*N)
			s.brChoice, s.brAfter = append(s.brChoice, byCap[0]), append(s.brAfter, byCap[1])
		}
	}
	if err != nil {
		return fmt.Errorf("%d pairs: %w", n, err)
	}
	for r := range 2 {
		s.cur.w[r], s.cur.afterW[r] = make([]T, min(n, s.maxK)+1), make([]T, min(n, s.maxK)+1)
		for k := range s.cur.w[r] {
			s.cur.w[r][k], s.cur.afterW[r][k] = x[plain(k, r)][0], x[r*2*N+N+pos[fluctNode{k: k}]][0]
		}
	}
	return nil
}

// distPassRow is distRow under a pass rule: the unknown 8i + 4flag + 2r + v is node i's
// distribution for role r with the pass flag flag, v = 1 its mirror. A stalemate leaves the lead
// where it is.
func (s *fluctSweep[T]) distPassRow(n int, prev fluctDist[T]) (fluctDist[T], error) {
	f := s.f
	nodes, caps := s.rowNodes(n)
	pos := make(map[fluctNode]int, len(nodes))
	for i, nd := range nodes {
		pos[nd] = i
	}
	index := func(flag int) func(k, r, v int) int {
		return func(k, r, v int) int { return 8*pos[fluctNode{k: k}] + 4*flag + 2*r + v }
	}
	eqs := make([]decayEq[T], 8*len(nodes))
	for i, nd := range nodes {
		for flag := range 2 {
			for r := range 2 {
				base := 8*i + 4*flag + 2*r
				if nd.c == 0 {
					for v := range 2 {
						e := decayEq[T]{a: s.zeroVec(prev.size)}
						for _, cp := range caps {
							e.to = append(e.to, 8*pos[fluctNode{k: s.drawn(nd.k, cp.c), c: cp.c}]+4*flag+2*r+v)
							e.coef = append(e.coef, f.FromFrac(cp.p.Num, cp.p.Den))
						}
						e.merge(f)
						eqs[base+v] = e
					}
					continue
				}
				ch, err := s.choiceAt(r, n, nd.k, nd.c, flag)
				if err != nil {
					return prev, err
				}
				switch {
				case ch == rules.Pass && flag == 1:
					for v := range 2 {
						e := decayEq[T]{a: s.zeroVec(prev.size)}
						e.a[prev.size/2] = f.FromInt(1)
						eqs[base+v] = e
					}
				case ch == rules.Pass:
					e := decayEq[T]{a: s.zeroVec(prev.size)}
					eqs[base], eqs[base+1] = mirrored(f, e, []int{passKept(nd.k, nd.c)}, []T{f.FromInt(1)}, prev.size, r, index(1))
				default:
					e, to, coef := s.distEq(n, nd, ch, r, prev)
					eqs[base], eqs[base+1] = mirrored(f, e, to, coef, prev.size, r, index(0))
				}
			}
		}
	}
	x, err := solveRow(f, eqs)
	if err != nil {
		return prev, fmt.Errorf("%d pairs: %w", n, err)
	}
	next := fluctDist[T]{size: prev.size, d2: prev.d}
	for r := range 2 {
		for k := 0; k <= min(n, s.maxK); k++ {
			next.d[r] = append(next.d[r], x[index(0)(k, r, 0)])
		}
	}
	return next, nil
}
