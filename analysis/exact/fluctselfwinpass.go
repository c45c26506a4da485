package exact

import "memsim/sim/rules"

// The win objective at three to eight seats under a fluctuating capacity and the pass rules
// two-known and always (docs/models.md §4.4, §4.7 "Under a fluctuating capacity"). A position of
// fluctselfwin.go's groups also holds the pass streak l = 0 .. p-1, the number of seats that
// passed in a row just before this turn; the draw keeps it. A pass is made after the draw (under
// lru the draw has forgotten down to the capacity c drawn) and shows no card, so the hand-over
// after it keeps min(k, c) known cards (handover-uniform forgets down to c there), as for every
// seat's pairs (fluctselfishpass.go): a pass at streak l < p-1 hands the next seat (n, min(k, c))
// before its draw at streak l+1, the standings seen from it (the cycle's next place), and a pass
// at l = p-1 ends the game in a stalemate, the pairs left shared n/p to every seat and the seats
// with the most pairs so far sharing the win (selfishwinpass.go's stalemateVec). Every other turn
// hands the next seat, or the mover after a pair, a state at streak 0; the outcomes that leave
// the row take a pair and are read at streak 0 in the previous row. A group thus has p times the
// positions of pass rule never, solved by the same policy iteration, tie rule and preferBetter
// step.

// passEq returns the vectors (nv·p entries, from the mover) a pass collects at pass streak l in
// the state after the draw nd, and its equation: at the last streak the stalemate's vectors
// stale and no link, before it nothing collected and a link to the next seat's states after
// its draw from (n, min(k, c)), ref giving their positions.
func (x *fluctSelfWin[T]) passEq(l int, nd fluctNode, before [][]fluctRef[T], stale []T, ref func(at int) int) ([]T, *selfEq[T]) {
	p := x.p
	if l == x.nl-1 {
		return stale, &selfEq[T]{a: stale[:p]}
	}
	zeros := make([]T, len(stale))
	for i := range zeros {
		zeros[i] = x.w.zero
	}
	to, coef := passRefs(nd.k, nd.c, before)
	for i := range to {
		to[i] = ref(to[i])
	}
	return zeros, &selfEq[T]{a: zeros[:p], to: to, coef: coef}
}

// passLevels reports the pass streaks the sweep's tables tell apart (rules.NewStandingsPassTable
// under a pass rule).
func (x *fluctSelfWin[T]) passLevels() bool { return x.nl > 1 }

var _ = rules.Pass
