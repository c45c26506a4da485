package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// The win objective at three or more seats under decay forgetting and the pass rules two-known
// and always (docs/models.md §4.7, "Win objective", §4.14). A position of a row of n pairs is a
// known count, a standings, a mover's seat and the pass streak k = 0 .. p-1. A pass hands the
// turn over, and the hand-over forgets: at k < p-1 it hands the next seat, at streak k+1, the
// state the forgetting leaves (the same row, any known count no larger), the standings seen from
// the next seat; at k = p-1 it ends the game in a stalemate, each seat adding n/p pairs, the
// seats level with the most sharing the score (selfishwinpass.go). A turn other than a pass that
// takes no pair hands the next seat a state of the row at streak 0; every other outcome leaves
// the row for one already solved, at streak 0. Both links follow the rotation of (standings,
// seat) that pass rule never has (selfishwindecay.go), so the positions linked to each other are
// a cycle C of (standings, seat) at every known count of the row and every streak: from (t, k,
// C[i]) a pass leads to (t', k+1, C[i+1]) and a turn to (t', 0, C[i+1]). Such a block is solved
// as under pass rule never: the policy iteration with the one-step deviation test, preferBetter,
// and one linear solve of every vector under the profile chosen. Every known count of the row
// keeps its levels (every streak's vectors and choices, a pass's and each other choice's
// vectors) for the table and the evaluation.

// decayPassBlockPos numbers the positions of a block under a pass rule: streak k, place t of the
// known count among the NS of the row, place i of the cycle (of length L). A pass refers to the
// next streak, a turn to streak 0, so numbered by streak the references ahead stay within about
// a streak's positions, the band the elimination keeps (solveRow).
func decayPassBlockPos(t, k, i, L, NS int) int { return (k*NS+t)*L + i%L }

// decayPassLevels makes the pass levels of every count state of the row (the row's states row,
// index[w.decayPlace(st)] the place of count state st in it, -1 where memory cannot hold it),
// kept in w.decayPass by the same place.
func (w *selfWin[T]) decayPassLevels(n int, row []selfWinDecayState[T], index []int) {
	w.decayPass = make([]*selfWinPass[T], len(index))
	for x, t := range index {
		if t < 0 {
			continue
		}
		w.pass = &selfWinPass[T]{}
		w.allocPass(n)
		w.decayPass[x] = w.pass
		ds := &row[t]
		if ds.legal[rules.Pass] {
			ds.outs[rules.Pass], ds.probs[rules.Pass] = decayTurn(w.decay, w.m, ds.st, rules.Pass, nil, nil)
		}
	}
}

// solveDecayBlockPass selects the choices of the positions cyc at every count state of row (n
// pairs) and every pass streak, and writes their vectors and choices into the pass levels of the
// row's states and their streak 0 into the cells.
func (w *selfWin[T]) solveDecayBlockPass(n int, row []selfWinDecayState[T], index []int, cyc []winPos) error {
	f, p, L, NS := w.f, w.p, len(cyc), len(row)
	z := w.size()
	pos := func(t, k, i int) int { return decayPassBlockPos(t, k, i, L, NS) }
	size := NS * p * L
	zeros := make([]T, z)
	for s := range zeros {
		zeros[s] = w.zero
	}
	// At place t*L + i (known count t, cycle place i): as[...][ch] the vectors of choice ch (not
	// a pass) collected from the outcomes that leave the row, and to/coef its hand-overs within
	// the row (known count, probability), the same at every streak; stale the vectors of a
	// stalemate at the place's standings.
	type link struct {
		to   []int
		coef []T
	}
	as := make([][rules.NumChoices][]T, NS*L)
	links := make([][rules.NumChoices]link, NS*L)
	stale := make([][]T, NS*L)
	r := &selfRow[T]{p: p, eqs: make([][rules.NumChoices]*selfEq[T], size)}
	for t := range row {
		ds := &row[t]
		w.load(ds)
		for i, ps := range cyc {
			w.seat(ds.st, ps.q)
			b := t*L + i
			for _, ch := range rules.Choices() {
				if !w.legal[ch] {
					continue
				}
				var lk link
				if ch == rules.Pass {
					for x, o := range ds.outs[ch] {
						lk.to = append(lk.to, index[w.decayPlace(o.Next)])
						lk.coef = append(lk.coef, ds.probs[ch][x])
					}
					stale[b] = make([]T, z)
					w.stalemateVec(n, w.valid[n][ps.vi], stale[b])
				} else {
					acc := make([]T, z)
					for v := range acc {
						acc[v] = w.zero
					}
					for x, o := range w.outs[ch] {
						pr := w.probs[ch][x]
						if !o.Continue && o.Next.N == n {
							lk.to = append(lk.to, index[w.decayPlace(o.Next)])
							lk.coef = append(lk.coef, pr)
							continue
						}
						w.addOutcome(ds.st, ps.vi, o, pr, acc)
					}
					as[b][ch] = acc
				}
				e := decayEq[T]{to: lk.to, coef: lk.coef}
				e.merge(f)
				links[b][ch] = link{to: e.to, coef: e.coef}
			}
			for k := range p {
				followed := rules.Choice(rules.NumChoices)
				if w.follow != nil {
					followed = w.followedAtPass(ds.st, ps.vi, k)
				}
				for _, ch := range rules.Choices() {
					if !w.legal[ch] || (followed != rules.NumChoices && ch != followed) {
						continue
					}
					lk := links[b][ch]
					var e *selfEq[T]
					switch {
					case ch == rules.Pass && k == p-1:
						e = &selfEq[T]{a: stale[b][:p]}
					case ch == rules.Pass:
						e = &selfEq[T]{a: zeros[:p], to: w.blockRefs(lk.to, k+1, i+1, L, NS), coef: lk.coef}
					default:
						e = &selfEq[T]{a: as[b][ch][:p], to: w.blockRefs(lk.to, 0, i+1, L, NS), coef: lk.coef}
					}
					r.eqs[pos(t, k, i)][ch] = e
				}
			}
		}
	}
	sol, err := r.solve(f)
	if err == nil {
		sol, err = r.preferBetter(f, sol)
	}
	if err != nil {
		return fmt.Errorf("standings %v: %w", w.valid[n][cyc[0].vi], err)
	}
	// src returns the vectors collected and the links of choice ch at place b, streak k, cycle
	// place i: the positions it hands over to and their probabilities.
	src := func(b, k, i int, ch rules.Choice) ([]T, []int, []T) {
		lk := links[b][ch]
		switch {
		case ch == rules.Pass && k == p-1:
			return stale[b], nil, nil
		case ch == rules.Pass:
			return zeros, w.blockRefs(lk.to, k+1, i+1, L, NS), lk.coef
		}
		return as[b][ch], w.blockRefs(lk.to, 0, i+1, L, NS), lk.coef
	}
	// Every vector of the block under the profile chosen: unknown x·p + s holds seat s's entries
	// (from the mover of position x) of the nv vectors.
	eqs := make([]decayEq[T], size*p)
	for t := range row {
		for k := range p {
			for i := range cyc {
				x := pos(t, k, i)
				a, to, coef := src(t*L+i, k, i, sol.ch[x])
				for s := range p {
					e := decayEq[T]{a: make([]T, w.nv), coef: coef}
					for v := range w.nv {
						e.a[v] = a[v*p+s]
					}
					e.to = make([]int, len(to))
					for y, x2 := range to {
						e.to[y] = x2*p + (s+p-1)%p
					}
					eqs[x*p+s] = e
				}
			}
		}
	}
	sx, err := solveRow(f, eqs)
	if err != nil {
		return fmt.Errorf("standings %v: %w", w.valid[n][cyc[0].vi], err)
	}
	// read writes into dst the vectors a plus the positions to, with probabilities coef, seen
	// from the previous seat.
	read := func(dst, a []T, to []int, coef []T) {
		for v := range w.nv {
			for s := range p {
				y := a[v*p+s]
				for c, x2 := range to {
					y = f.Add(y, f.Mul(coef[c], sx[x2*p+(s+p-1)%p][v]))
				}
				dst[v*p+s] = y
			}
		}
	}
	for t := range row {
		ds := &row[t]
		st := ds.st
		w.pass = w.decayPass[w.decayPlace(st)]
		nvalid := w.pass.nvalid
		for i, ps := range cyc {
			b := t*L + i
			for k := range p {
				x := pos(t, k, i)
				lv := w.passLevel(k, ps.q, ps.vi)
				for v := range w.nv {
					for s := range p {
						lv[v*p+s] = sx[x*p+s][v]
					}
				}
				w.pass.choice[k][ps.q*nvalid+ps.vi] = sol.ch[x]
				if ds.legal[rules.Pass] {
					a, to, coef := src(b, k, i, rules.Pass)
					read(w.passedLevel(k, ps.q, ps.vi), a, to, coef)
				}
				w.noteGap(st, ps, k, sol.ch[x], sol.gain[x])
			}
			for _, ch := range rules.Choices() {
				if ds.legal[ch] && ch != rules.Pass {
					a, to, coef := src(b, 0, i, ch)
					read(w.passMove(ps.q, ps.vi, ch), a, to, coef)
				}
			}
			c := w.atSeat(n, st.J, st.F, ps.q)
			copy(c.vals[ps.vi*z:(ps.vi+1)*z], w.passLevel(0, ps.q, ps.vi))
			c.choice[ps.vi] = w.pass.choice[0][ps.q*nvalid+ps.vi]
		}
	}
	return nil
}

// blockRefs returns the positions of a block at the known counts' places to of the row (NS of
// them), streak k and cycle place i (of a cycle of length L).
func (w *selfWin[T]) blockRefs(to []int, k, i, L, NS int) []int {
	out := make([]int, len(to))
	for x, t := range to {
		out[x] = decayPassBlockPos(t, k, i, L, NS)
	}
	return out
}

// selfWinDecayPassWork returns how many times the work of a sweep of the win objective at p seats
// under decay and pass rule never (selfWinDecayOps) a sweep under two-known or always takes: a
// block has p times the positions and about p times the band, so its elimination costs about p²
// times more; measured, 3 seats take 13 times longer in float64 (memsim solve --table --pairs-max
// 12 --forget decay --q 0.2 --players 3 --pass always --policy win-optimal --float: 18 s of CPU
// time against 1.4 s under never) and 5.6 times in exact rationals (5 pairs: 9.5 s against 1.7 s).
func selfWinDecayPassWork(p int, exact bool) float64 {
	if exact {
		return float64(p * p)
	}
	return 1.5 * float64(p*p)
}
