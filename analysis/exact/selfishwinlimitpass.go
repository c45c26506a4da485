package exact

import "memsim/sim/rules"

// The win objective at three to eight seats under a turn limit and a pass rule (two-known or
// always), perfect memory (docs/models.md §4.7, §4.13, §4.18). The state of selfishwinlimit.go, a
// count state at every standings and mover's seat with t turns left, gains the pass streak
// k = 0 .. p-1, the seats that passed in a row just before the turn. A pass uses a turn, as every
// turn does: at k < p-1 it hands the same count state to the next seat at streak k+1 with t-1
// turns left, the standings seen from that seat (with no turn left the game is over and the
// standings decide); at k = p-1 it ends the game in a stalemate whatever the turns left (the
// engine ends the game at the p-th pass in a row before it looks at the limit), each seat adding
// n/p of the n pairs left, so the final totals rank as the standings do and the seats of deficit
// 0 share the score (selfishwinpass.go's stalemateVec). Every other choice leads to a state at
// streak 0 with fewer turns left, whose values are those of the same choice at every streak. So
// every step still goes to fewer turns left: backward induction over t, no self-reference. The
// mover takes the first choice with the largest own score in the order daring, safe, known-first,
// pass; a seat that follows a table reads its choice at the streak and the turns left.

// limitPassScratch holds what a state's streaks are computed from: every non-pass choice's
// vectors at one standings (the same at every streak) and the vectors of a pass.
type limitPassScratch[T any] struct {
	moves [rules.NumChoices][]T
	pass  []T
	// rot[n][vi] is the place of standings vi of a state with n pairs seen from the next seat.
	rot [][]int
}

// allocStreaks makes the buffers of the streaks and the standings seen from the next seat.
func (l *selfWinLimit[T]) allocStreaks() {
	w := l.w
	z := w.nv * w.p
	s := &limitPassScratch[T]{pass: make([]T, z), rot: make([][]int, w.maxPairs+1)}
	for ch := range s.moves {
		s.moves[ch] = make([]T, z)
	}
	d := make([]int, w.p)
	for n := range s.rot {
		s.rot[n] = make([]int, len(w.valid[n]))
		for vi, v := range w.valid[n] {
			for i := range d {
				d[i] = v[(i+1)%w.p]
			}
			s.rot[n][vi] = int(w.place[n][rules.StandingsIndex(d, n)])
		}
	}
	l.scratch = s
}

// streaksOf computes the count state st (made the one in use) with t turns left at every pass
// streak, mover's seat and standings.
func (l *selfWinLimit[T]) streaksOf(st rules.State, t int) {
	w := l.w
	f, z := w.f, w.nv*w.p
	s := l.scratch
	for q := range w.nq {
		l.seat(st, q, t)
		for k := range l.streaks {
			w.alloc(l.cellAt(st, q, k, t), st.N)
		}
		for vi := range w.valid[st.N] {
			l.moveVectors(st, t, vi)
			for k := range l.streaks {
				l.passVector(st, q, k, t, vi, s.pass)
				follow := rules.Choice(rules.NumChoices)
				if w.follow != nil {
					follow = l.followAt(st, k, t)
				}
				var best []T
				bestCh := rules.Daring
				for _, ch := range rules.Choices() {
					if !w.legal[ch] || (follow != rules.NumChoices && ch != follow) {
						continue
					}
					vec := s.moves[ch]
					if ch == rules.Pass {
						vec = s.pass
					}
					if best == nil || f.Cmp(vec[0], best[0]) > 0 {
						best, bestCh = vec, ch
					}
				}
				c := l.cellAt(st, q, k, t)
				copy(c.vals[vi*z:(vi+1)*z], best)
				c.choice[vi] = bestCh
			}
		}
	}
}

// moveVectors writes into the scratch every legal choice's vectors but a pass, made by the mover
// (w.q) in st with t turns left at standings vi: the same at every streak.
func (l *selfWinLimit[T]) moveVectors(st rules.State, t, vi int) {
	w := l.w
	for _, ch := range rules.Choices() {
		if w.legal[ch] && ch != rules.Pass {
			l.accumulate(st, t, vi, ch, l.scratch.moves[ch])
		}
	}
}

// passVector writes into dst the vectors of a pass by seat q in st at streak k with t turns left
// at standings vi (when a pass is legal): a stalemate at the last streak, the end of the game
// when the pass uses the last turn, and otherwise the same count state with the next seat to move
// at streak k+1 and t-1 turns left, its vectors turned to be read from the mover.
func (l *selfWinLimit[T]) passVector(st rules.State, q, k, t, vi int, dst []T) {
	w := l.w
	p := w.p
	if !w.legal[rules.Pass] {
		return
	}
	switch {
	case k == p-1:
		w.stalemateVec(st.N, w.valid[st.N][vi], dst) // selfishwinpass.go
	case t == 1:
		for i := range dst {
			dst[i] = w.zero
		}
		l.ending(st.N, vi, true, 0, w.one, dst)
	case w.decay != nil:
		l.decayPassVector(st, q, k, t, vi, dst) // selfishwinlimitdecay.go
	default:
		c := l.cellAt(st, (q+1)%w.nq, k+1, t-1)
		o := l.scratch.rot[st.N][vi] * w.nv * p
		src := c.vals[o : o+w.nv*p]
		for v := range w.nv {
			for s := range p {
				dst[v*p+s] = src[v*p+(s+p-1)%p]
			}
		}
	}
}

// followAt returns the choice of the table the mover follows in st at streak k with t turns
// left; a choice the table lacks or that is not legal falls to the first legal one.
func (l *selfWinLimit[T]) followAt(st rules.State, k, t int) rules.Choice {
	w := l.w
	if c, ok := w.follow.LookupTurnsLeftPasses(st, k, t); ok && w.legal[c] {
		return c
	}
	for _, c := range rules.Choices() {
		if w.legal[c] {
			return c
		}
	}
	return rules.Daring
}
