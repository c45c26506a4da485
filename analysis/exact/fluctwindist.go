package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The score distribution of a two-seat matchup in which a role plays to win, under a fluctuating
// capacity (docs/models.md §4.4, §4.13), under every pass rule. The roles' choices are those of
// the win objective's sweep (fluctwin.go), by state, capacity drawn, lead so far and pass flag;
// the distribution of the pairs still to be taken then follows row by row as for the pair
// policies (fluctdist.go), with a group of unknowns per lead as the win values have: role 0 moving
// at lead e and role 1 at -e, every node of the row before the draw and after it, without and
// with a pass just made, each with its mirror image (the distribution seen from the other seat),
// so that a hand-over in the row, which negates the lead and mirrors the next mover's
// distribution, is a linear term. A pass answered by a pass ends the game in a stalemate that
// splits the pairs left, adding nothing to the lead.

// fluctWinDistRow holds the distributions of a row before the draw, without the pass flag:
// d[r][k][i] is the distribution of the lead role r, to move in (n, k) at lead index i, takes in
// the remaining pairs, indexed by that lead plus size/2; nil at a lead the asked state does not
// reach.
type fluctWinDistRow[T any] struct {
	d [2][][][]T
}

// fluctWinDistribution is Distribution under a fluctuating capacity for a matchup in which a role
// plays to win (two players), from st before the draw at seat 0's lead st.Lead.
func fluctWinDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	var out ScoreDistribution[T]
	w, err := newFluctWin(f, m, mu, st)
	if err != nil {
		return out, err
	}
	k, err := fluctKnown(st, w.s.maxK)
	if err != nil {
		return out, err
	}
	size := 2*st.N + 1
	var prev fluctWinDistRow[T]
	for r := range 2 {
		byLead := make([][]T, 2*w.D+1)
		for i := range byLead {
			byLead[i] = w.s.zeroVec(size)
			byLead[i][st.N] = w.one
		}
		prev.d[r] = [][][]T{byLead}
	}
	err = w.run(ctx, st.N, func(n int) error {
		next, err := w.distRow(n, prev, size)
		prev = next
		return err
	})
	if err != nil {
		return out, err
	}
	lead := prev.d[0][k][w.li(st.Lead)]
	out.State = st
	out.Prob = lead
	out.Win, out.Draw, out.Loss = w.zero, w.zero, w.zero
	for l := -st.N; l <= st.N; l++ {
		out.addResult(f, lead[st.N+l], st.Lead+l)
	}
	return out, nil
}

// distRow solves the distributions of the row of n pairs, whose choices the sweep has just made,
// from the previous row's, prev, at every lead the asked state reaches.
func (w *fluctWin[T]) distRow(n int, prev fluctWinDistRow[T], size int) (fluctWinDistRow[T], error) {
	nodes, caps := w.s.rowNodes(n)
	pos := make(map[fluctNode]int, len(nodes))
	for i, nd := range nodes {
		pos[nd] = i
	}
	var cur fluctWinDistRow[T]
	for r := range 2 {
		cur.d[r] = make([][][]T, min(n, w.s.maxK)+1)
		for k := range cur.d[r] {
			cur.d[r][k] = make([][]T, 2*w.D+1)
		}
	}
	for d := 0; d <= w.reach(n); d++ {
		for _, e := range []int{d, -d} {
			x, err := w.distGroup(n, e, nodes, caps, pos, prev, size)
			if err != nil {
				return cur, fmt.Errorf("%d pairs: the score distribution at lead %d: %w", n, e, err)
			}
			lead := [2]int{e, -e}
			for r := range 2 {
				for k := range cur.d[r] {
					cur.d[r][k][w.li(lead[r])] = x[2*w.idx(r, 0, len(nodes), pos[fluctNode{k: k}])]
				}
			}
			if d == 0 {
				break
			}
		}
	}
	return cur, nil
}

// distGroup solves the distributions of the group of the row of n pairs in which role 0 moves at
// lead e and role 1 at -e: unknown 2·w.idx(r, flag, N, i) + v, v = 1 the mirror image.
func (w *fluctWin[T]) distGroup(n, e int, nodes []fluctNode, caps []fluctCap, pos map[fluctNode]int, prev fluctWinDistRow[T], size int) ([][]T, error) {
	f := w.f
	N, F := len(nodes), w.flags()
	lead := [2]int{e, -e}
	index := func(flag int) func(k, r, v int) int {
		return func(k, r, v int) int { return 2*w.idx(r, flag, N, pos[fluctNode{k: k}]) + v }
	}
	eqs := make([]decayEq[T], 2*2*F*N)
	for r := range 2 {
		for flag := range F {
			for i, nd := range nodes {
				base := 2 * w.idx(r, flag, N, i)
				if nd.c == 0 {
					for v := range 2 {
						eq := decayEq[T]{a: w.s.zeroVec(size)}
						for _, cp := range caps {
							eq.to = append(eq.to, 2*w.idx(r, flag, N, pos[fluctNode{k: w.s.drawn(nd.k, cp.c), c: cp.c}])+v)
							eq.coef = append(eq.coef, f.FromFrac(cp.p.Num, cp.p.Den))
						}
						eq.merge(f)
						eqs[base+v] = eq
					}
					continue
				}
				ch := (*w.choices(r, flag))[n-1][nd.c][nd.k][w.li(lead[r])]
				switch {
				case ch == rules.Pass && flag == 1:
					// A stalemate: the pairs left are split, the lead stays.
					for v := range 2 {
						eq := decayEq[T]{a: w.s.zeroVec(size)}
						eq.a[size/2] = w.one
						eqs[base+v] = eq
					}
				case ch == rules.Pass:
					eq := decayEq[T]{a: w.s.zeroVec(size)}
					eqs[base], eqs[base+1] = mirrored(f, eq, []int{passKept(nd.k, nd.c)}, []T{w.one}, size, r, index(1))
				default:
					eq, to, coef := w.distEq(n, nd, ch, r, lead[r], prev, size)
					eqs[base], eqs[base+1] = mirrored(f, eq, to, coef, size, r, index(0))
				}
			}
		}
	}
	return solveRow(f, eqs)
}

// distEq returns the distribution equation of role r at node nd (after the draw) of the row of n
// pairs making choice ch at lead d: the outcomes leaving the row in its right-hand side (the
// previous row's distributions at the lead there), those staying in it as the other role's nodes
// to (before the draw) with probabilities coef.
func (w *fluctWin[T]) distEq(n int, nd fluctNode, ch rules.Choice, r, d int, prev fluctWinDistRow[T], size int) (decayEq[T], []int, []T) {
	f := w.f
	eq := decayEq[T]{a: w.s.zeroVec(size)}
	var to []int
	var coef []T
	outs, probs := w.outcomes(n, nd.k, nd.c, ch)
	for i, o := range outs {
		p := probs[i]
		if k2 := sameRow(o, n); k2 >= 0 {
			to, coef = append(to, k2), append(coef, p)
			continue
		}
		k2 := o.Next.N - o.Next.J
		if o.Continue {
			addShifted(f, eq.a, p, prev.d[r][k2][w.li(d+o.MoverGain)], o.MoverGain)
			continue
		}
		other := w.distBefore(prev.d[1-r], n-1, k2, o.NextGain > 0, w.li(-(d+o.MoverGain)+o.NextGain), size)
		addShifted(f, eq.a, p, reversed(other, size), o.MoverGain-o.NextGain)
	}
	return eq, to, coef
}

// distBefore is before for distributions: the distribution d[k][i] of the previous row (n1 pairs)
// at lead index i, averaged over a second draw when twice under lru.
func (w *fluctWin[T]) distBefore(d [][][]T, n1, k int, twice bool, i, size int) []T {
	if !twice || !w.s.lru() {
		return d[k][i]
	}
	f := w.f
	v := w.s.zeroVec(size)
	for _, cp := range fluctCaps(w.s.m.Memory, n1) {
		addShifted(f, v, f.FromFrac(cp.p.Num, cp.p.Den), d[min(k, cp.c)][i], 0)
	}
	return v
}

// fluctWinDistCost returns the time and memory of the score distribution of n pairs under a
// fluctuating capacity, a role playing to win, from those of its values: the sweep again, then a
// system per lead with twice the unknowns, each with a vector of 2n + 1 probabilities. Measured
// on lru(5) with σ = 2, win-optimal against itself, on a loaded machine (memsim solve --pairs N
// --memory 5 --forget lru --fluctuation 2 --policy win-optimal --distribution, less the same
// without --distribution): exact rationals 3.4 s for 10 pairs against 3.9 s for the values,
// 7.5 s for 12 against 3.3 s; float64 7.1 s for 40 against 3.0 s.
func fluctWinDistCost[T any](f field.Field[T], n, seconds, bytes float64) (float64, float64) {
	return 2.5 * seconds, 4 * bytes
}
