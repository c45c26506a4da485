package exact

import "memsim/sim/rules"

// The win objective at three to eight seats under decay forgetting (with or without a capacity)
// and a turn limit (docs/models.md §4.7, §4.14, §4.18). Without a limit a hand-over that takes no
// pair leaves the next seat in a state of the same size, which ties a row's positions together
// in blocks solved for a selected stationary equilibrium (selfishwindecay.go); under a limit that
// turn uses one of the turns left, so the state reached has one turn fewer, a cell of a layer
// already computed, and the sweep of selfishwinlimit.go solves it by backward induction over the
// turns left with the decay model's turn outcomes (decayOutcomes: each remembered card forgotten
// with probability q at the hand-over, then the capacity applied; a pair left known whole is
// taken by the next seat first, a turn of its own, while one is left). A pass hands over too:
// under a pass rule its hand-over forgets among the remembered cards, and the next seat moves at
// streak k+1 with t-1 turns left in whichever state of the same size is left (decayPassVector);
// the p-th pass in a row is the stalemate whatever was forgotten in between. The values are the
// subgame-perfect equilibrium at count level, the first choice of largest own score in the order
// daring, safe, known-first, pass; a seat of win-best-response beside win-optimal plays
// win-optimal's choices, as under lru.

// decayPassVector writes into dst the vectors of a pass by seat q in st at streak k < p-1 with
// t >= 2 turns left at standings vi under decay forgetting: the states the pass's hand-over
// leaves, weighed by their probabilities, with the next seat to move at streak k+1 and t-1 turns
// left, their vectors turned to be read from the mover.
func (l *selfWinLimit[T]) decayPassVector(st rules.State, q, k, t, vi int, dst []T) {
	w := l.w
	f, p := w.f, w.p
	for i := range dst {
		dst[i] = w.zero
	}
	o := l.scratch.rot[st.N][vi] * w.nv * p
	ls := &l.states[l.index(st)]
	for x, out := range ls.outs[rules.Pass] {
		pr := ls.probs[rules.Pass][x]
		c := l.cellAt(out.Next, (q+1)%w.nq, k+1, t-1)
		src := c.vals[o : o+w.nv*p]
		for v := range w.nv {
			for s := range p {
				dst[v*p+s] = f.Add(dst[v*p+s], f.Mul(pr, src[v*p+(s+p-1)%p]))
			}
		}
	}
}

// SelfWinDecayLimitRationalWork bounds the exact values and tables of the win objective at three
// or more seats under decay forgetting and a turn limit: exact while the deal's pairs times the
// limit are at most this (and the deal at most SelfWinDecayRationalLimit, under a pass rule
// SelfWinDecayPassRationalLimit), float64 beyond. Each layer of turns left multiplies the
// denominators by powers of q and 1 - q at every standings: memsim solve --pairs 4 --forget decay
// --q 0.2 --players 3 --policy win-optimal --turn-limit 8 --value-only takes 1.6 s of CPU time,
// 5 pairs under a limit of 10 6.0 s (0.03 s with --float).
const SelfWinDecayLimitRationalWork = 40

// selfWinDecayLimitOps returns the estimated operations of the sweep of the win objective at p
// seats under decay forgetting and a turn limit of limit turns up to n pairs: the sweep of
// perfect memory under the limit (selfWinOps once per turn left), a decay hand-over leading to
// up to n + 1 count states where perfect memory's leads to one or two.
func selfWinDecayLimitOps(p, n, limit int, exact, eval bool) float64 {
	return selfWinOps(p, n, 0, exact, eval) * float64(n+1) * float64(max(limit, 1))
}

// SelfWinDecayLimitTableLimit returns the largest deal size a player of win-optimal at players
// seats (3 or more) can play under decay forgetting and a turn limit of limit turns (mixed:
// beside other policies, a sweep per mover's seat): the largest whose table's work is at most
// SelfWinTableOps.
func SelfWinDecayLimitTableLimit(players, limit int, mixed bool) int {
	seats := 1.0
	if mixed {
		seats = float64(players)
	}
	n := 0
	for n < WinTableLimit && seats*selfWinDecayLimitOps(players, n+1, limit, false, false) <= SelfWinTableOps {
		n++
	}
	return n
}
