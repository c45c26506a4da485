package exact

import (
	"context"
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The score distribution under a fluctuating capacity (docs/models.md §4.4): as the decay model's
// (decayrow.go's decayDist), a row's lead distributions refer to each other in cycles, so they are
// the unknowns of one system whose right-hand sides are vectors (a probability per lead). Each
// unknown has a mirror image, the distribution seen from the other seat, so that handing over,
// which mirrors the next mover's distribution, is a linear term: unknown 4i + 2r + v is node i's
// (before the draw, or after drawing c) for role r, v = 1 the mirror.

// fluctDist holds the lead distributions of a row before the draw: d[r][k][L + size/2] is the
// probability that role r, to move in (n, k), ends the remaining pairs L ahead.
type fluctDist[T any] struct {
	d    [2][][]T
	size int
	// d2 is d of the row before (n - 2 pairs): under blind flips a turn can hand the next seat
	// two pairs known whole (fluctblind.go).
	d2 [2][][]T
}

// fluctDistribution is Distribution under a fluctuating capacity.
func fluctDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	var out ScoreDistribution[T]
	if m.fluctLimited() && m.Variant.Flips == rules.FlipsBlind {
		return out, fmt.Errorf("%s, turn limit %d: under blind flips a fluctuating capacity and a turn limit are solved for the values, each choice's values and the tables, not the score distribution", m.Memory, m.Variant.TurnLimit)
	}
	if m.fluctLimited() && mu.twoSeatWin() {
		return fluctLimitWinDistribution(ctx, f, m, mu, st) // fluctlimitwindist.go
	}
	if m.fluctLimited() {
		return fluctLimitDistribution(ctx, f, m, mu, st) // fluctlimitdist.go
	}
	if mu.Players == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin()) {
		return fluctWinDistribution(ctx, f, m, mu, st) // fluctwindist.go
	}
	s, err := newFluctSweep(f, m, mu)
	if err != nil {
		return out, err
	}
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return out, err
	}
	size := 2*st.N + 1
	dist := fluctDist[T]{size: size}
	for r := range 2 {
		dist.d[r] = [][]T{s.zeroVec(size)}
		dist.d[r][0][st.N] = f.FromInt(1)
	}
	dist.d2 = dist.d
	err = s.run(ctx, st.N, func(n int) error {
		next, err := s.distRow(n, dist)
		dist = next
		return err
	})
	if err != nil {
		return out, err
	}
	lead := dist.d[0][k]
	out.State = st
	out.Prob = lead
	out.Win, out.Draw, out.Loss = s.zero, s.zero, s.zero
	for l := -st.N; l <= st.N; l++ {
		out.addResult(f, lead[st.N+l], st.Lead+l)
	}
	return out, nil
}

func (s *fluctSweep[T]) zeroVec(size int) []T {
	v := make([]T, size)
	for i := range v {
		v[i] = s.zero
	}
	return v
}

// distRow solves the lead distributions of the row of n pairs from the previous row's, prev.
func (s *fluctSweep[T]) distRow(n int, prev fluctDist[T]) (fluctDist[T], error) {
	if s.passes() {
		return s.distPassRow(n, prev)
	}
	f := s.f
	nodes, caps := s.rowNodes(n)
	pos := make(map[fluctNode]int, len(nodes))
	for i, nd := range nodes {
		pos[nd] = i
	}
	index := func(k, r, v int) int { return 4*pos[fluctNode{k: k}] + 2*r + v }
	eqs := make([]decayEq[T], 4*len(nodes))
	for i, nd := range nodes {
		for r := range 2 {
			if nd.c == 0 {
				for v := range 2 {
					e := decayEq[T]{a: s.zeroVec(prev.size)}
					for _, cp := range caps {
						e.to = append(e.to, 4*pos[fluctNode{k: s.drawn(nd.k, cp.c), c: cp.c}]+2*r+v)
						e.coef = append(e.coef, f.FromFrac(cp.p.Num, cp.p.Den))
					}
					e.merge(f)
					eqs[4*i+2*r+v] = e
				}
				continue
			}
			ch, err := s.choice(r, n, nd.k, nd.c)
			if err != nil {
				return prev, err
			}
			e, to, coef := s.distEq(n, nd, ch, r, prev)
			eqs[4*i+2*r], eqs[4*i+2*r+1] = mirrored(f, e, to, coef, prev.size, r, index)
		}
	}
	x, err := solveRow(f, eqs)
	if err != nil {
		return prev, fmt.Errorf("%d pairs: %w", n, err)
	}
	next := fluctDist[T]{size: prev.size, d2: prev.d}
	for r := range 2 {
		for k := 0; k <= min(n, s.maxK); k++ {
			next.d[r] = append(next.d[r], x[index(k, r, 0)])
		}
	}
	return next, nil
}

// distEq returns the distribution equation of role r at node nd (after the draw) making choice
// ch: the outcomes leaving the row in its right-hand side, those staying in it as the other
// role's nodes to (before the draw) with probabilities coef.
func (s *fluctSweep[T]) distEq(n int, nd fluctNode, ch rules.Choice, r int, prev fluctDist[T]) (decayEq[T], []int, []T) {
	f := s.f
	mc := s.m
	mc.Memory.Capacity, mc.Memory.Fluctuation = nd.c, 0
	e := decayEq[T]{a: s.zeroVec(prev.size)}
	var to []int
	var coef []T
	for _, o := range mc.Outcomes(rules.State{N: n, J: n - nd.k}, ch, nil) {
		p := f.FromFrac(o.Prob.Num, o.Prob.Den)
		if k2 := sameRow(o, n); k2 >= 0 {
			to, coef = append(to, k2), append(coef, p)
			continue
		}
		k2 := o.Next.N - o.Next.J
		if o.Continue {
			addShifted(f, e.a, p, prev.d[r][k2], o.MoverGain)
			continue
		}
		other := s.distBefore(prev.d[1-r], n-1, k2, o.NextGain)
		if o.Next.N == n-2 {
			other = s.distBefore(prev.d2[1-r], n-2, k2, o.NextGain)
		}
		addShifted(f, e.a, p, reversed(other, prev.size), o.MoverGain-o.NextGain)
	}
	return e, to, coef
}

// distBefore is before for distributions: the distribution d[k] of a previous row of n1 pairs,
// averaged under lru over the draws of the turns that first take pairs known whole.
func (s *fluctSweep[T]) distBefore(d [][]T, n1, k, draws int) []T {
	if draws == 0 || !s.lru() {
		return d[k]
	}
	f := s.f
	v := s.zeroVec(len(d[k]))
	for _, cp := range fluctCaps(s.m.Memory, max(n1, 1)) { // a row of no pairs draws too
		addShifted(f, v, f.FromFrac(cp.p.Num, cp.p.Den), s.distBefore(d, n1, min(k, cp.c), draws-1), 0)
	}
	return v
}

// fluctDistCost returns the time and memory of the score distribution of n pairs under a
// fluctuating capacity from those of its values: twice the unknowns, each with a vector of 2n + 1
// probabilities. Measured on lru(5) with σ = 2, both seats optimal, on a loaded machine: exact
// rationals 2.9 s for 10 pairs, 12 s for 20; float64 0.7 s for 80 pairs (the values 0.13 s).
func fluctDistCost[T any](f field.Field[T], n, seconds, bytes float64) (float64, float64) {
	if _, isFloat := any(f).(field.Float); isFloat {
		return 5 * seconds, 16 * bytes
	}
	return 2.9 * math.Pow(n/10, 2.1), 16 * bytes
}
