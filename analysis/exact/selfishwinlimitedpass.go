package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// The win objective at three or more seats under limited shared memory (lru and handover-uniform
// of a fixed capacity) and the pass rules two-known and always (docs/models.md §4.7, "Win
// objective"). A position of a count state is a standings, a mover's seat and the pass streak k.
// A pass forgets nothing (it shows no new card): at k < p-1 it hands the same count state to the
// next seat at k+1, the standings seen from it; at k = p-1 it ends the game in a stalemate
// (selfishwinpass.go). A turn other than a pass that forgets a card hands the same count state to
// the next seat at streak 0, the standings seen from it; every other outcome leaves the count
// state for one solved before it, at streak 0. Both links follow the rotation of (standings,
// seat) that pass rule never has (selfishwinlimited.go), so the positions linked to each other
// are a cycle C of (standings, seat) of that rotation at every streak: L·p positions, from (C[i],
// k) a pass to (C[i+1], k+1) and a forgotten card to (C[i+1], 0). Such a set is solved as a
// cycle of pass rule never is, by the policy iteration with the one-step deviation test and the
// equilibrium moved to one that gives each position's mover more (preferBetter), its positions
// in the order of the streaks, then of the cycle. A count state no forgotten card hands to
// itself is solved as with perfect memory, streak by streak from p-1 down.

// stateCyclesPass computes the count state st (n >= 1, its outcomes set), some of whose outcomes
// hand st itself to the next seat, at every streak, standings and mover's seat, one cycle of
// (standings, seat) at a time, and keeps streak 0 in its cells.
func (w *selfWin[T]) stateCyclesPass(st rules.State) error {
	n := st.N
	w.allocPass(n)
	nvalid := len(w.valid[n])
	if err := w.eachCycle(nvalid, w.pass.rot, func(cyc []winPos) error { return w.solveCyclePass(st, cyc) }); err != nil {
		return err
	}
	for q := range w.nq {
		c := w.atSeat(n, st.J, st.F, q)
		w.alloc(c, n)
		for vi := range nvalid {
			copy(c.vals[vi*w.size():(vi+1)*w.size()], w.passLevel(0, q, vi))
			c.choice[vi] = w.pass.choice[0][q*nvalid+vi]
		}
	}
	w.seat(st, 0)
	return nil
}

// solveCyclePass selects the choices of the positions of cycle cyc of st at every streak and
// writes their vectors, every choice's vectors and the choices into the pass levels.
func (w *selfWin[T]) solveCyclePass(st rules.State, cyc []winPos) error {
	f, p, L := w.f, w.p, len(cyc)
	z := w.size()
	nvalid := w.pass.nvalid
	pos := func(i, k int) int { return k*L + i%L }
	// as[i][ch] and bs[i][ch]: the vectors of choice ch (not a pass) at cycle place i collected
	// from the outcomes that leave st, and the probability of handing st to place i+1 at streak 0;
	// the same at every streak.
	as := make([][rules.NumChoices][]T, L)
	bs := make([][rules.NumChoices]T, L)
	// stale[i]: the vectors of a stalemate at place i's standings.
	stale := make([][]T, L)
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], L*p)}
	zeros := make([]T, z)
	for s := range zeros {
		zeros[s] = w.zero
	}
	for i, ps := range cyc {
		w.seat(st, ps.q)
		for _, ch := range rules.Choices() {
			if !w.legal[ch] || ch == rules.Pass {
				continue
			}
			acc := make([]T, z)
			as[i][ch], bs[i][ch] = acc, w.leaving(st, ps.vi, ch, acc)
		}
		if w.legal[rules.Pass] {
			stale[i] = make([]T, z)
			w.stalemateVec(st.N, w.valid[st.N][ps.vi], stale[i])
		}
		for k := range p {
			followed := rules.Choice(rules.NumChoices)
			if w.follow != nil {
				followed = w.followedAtPass(st, ps.vi, k)
			}
			for _, ch := range rules.Choices() {
				if !w.legal[ch] || (followed != rules.NumChoices && ch != followed) {
					continue
				}
				var e *selfEq[T]
				switch {
				case ch == rules.Pass && k == p-1:
					e = &selfEq[T]{a: stale[i][:p]}
				case ch == rules.Pass:
					e = &selfEq[T]{a: zeros[:p], to: []int{pos(i+1, k+1)}, coef: []T{w.one}}
				default:
					e = &selfEq[T]{a: as[i][ch][:p]}
					if b := bs[i][ch]; !f.IsZero(b) {
						e.to, e.coef = []int{pos(i+1, 0)}, []T{b}
					}
				}
				r.eqs[pos(i, k)][ch] = e
			}
		}
	}
	sol, err := r.solve(f)
	if err == nil {
		sol, err = r.preferBetter(f, sol)
	}
	if err != nil {
		return fmt.Errorf("standings %v: %w", w.valid[st.N][cyc[0].vi], err)
	}
	// Every vector of the positions under the profile chosen: unknown x·p + s holds seat s's
	// entries (from the mover of position x) of the nv vectors.
	eqs := make([]decayEq[T], L*p*p)
	for i := range cyc {
		for k := range p {
			x := pos(i, k)
			ch := sol.ch[x]
			var src []T
			var to int
			var b T
			switch {
			case ch == rules.Pass && k == p-1:
				src, b = stale[i], w.zero
			case ch == rules.Pass:
				src, to, b = zeros, pos(i+1, k+1), w.one
			default:
				src, to, b = as[i][ch], pos(i+1, 0), bs[i][ch]
			}
			for s := range p {
				a := make([]T, w.nv)
				for v := range w.nv {
					a[v] = src[v*p+s]
				}
				e := decayEq[T]{a: a}
				if !f.IsZero(b) {
					e.to, e.coef = []int{to*p + (s+p-1)%p}, []T{b}
				}
				eqs[x*p+s] = e
			}
		}
	}
	sx, err := solveRow(f, eqs)
	if err != nil {
		return fmt.Errorf("standings %v: %w", w.valid[st.N][cyc[0].vi], err)
	}
	// read writes into dst the vectors of position x seen from the previous seat, times b, added
	// to src.
	read := func(dst, src []T, x int, b T) {
		for v := range w.nv {
			for s := range p {
				y := src[v*p+s]
				if !f.IsZero(b) {
					y = f.Add(y, f.Mul(b, sx[x*p+(s+p-1)%p][v]))
				}
				dst[v*p+s] = y
			}
		}
	}
	for i, ps := range cyc {
		for k := range p {
			x := pos(i, k)
			lv := w.passLevel(k, ps.q, ps.vi)
			for v := range w.nv {
				for s := range p {
					lv[v*p+s] = sx[x*p+s][v]
				}
			}
			w.pass.choice[k][ps.q*nvalid+ps.vi] = sol.ch[x]
			if w.legal[rules.Pass] {
				pv := w.passedLevel(k, ps.q, ps.vi)
				if k == p-1 {
					copy(pv, stale[i])
				} else {
					read(pv, zeros, pos(i+1, k+1), w.one)
				}
			}
			w.noteGap(st, ps, k, sol.ch[x], sol.gain[x])
		}
		for _, ch := range rules.Choices() {
			if w.legal[ch] && ch != rules.Pass {
				read(w.passMove(ps.q, ps.vi, ch), as[i][ch], pos(i+1, 0), bs[i][ch])
			}
		}
	}
	return nil
}

// followedAtPass returns the choice of the table the mover follows (w.follow, not nil) in st at
// standings vi and streak k: a standings table is read at the standings and the streak, any
// other at the count state and the streak (followAt).
func (w *selfWin[T]) followedAtPass(st rules.State, vi, k int) rules.Choice {
	s := w.follow.Standings()
	if s == nil {
		return w.followAt(st, k)
	}
	pairs := pairsOfDeficits(w.valid[st.N][vi])
	if c, ok := s.LookupPasses(st, pairs, k); ok && w.legal[c] {
		return c
	}
	for _, c := range rules.Choices() {
		if w.legal[c] {
			return c
		}
	}
	return rules.Daring
}
