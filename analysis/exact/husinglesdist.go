package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The score distribution of singletons under a shared handover-uniform memory (docs/models.md
// §4.4). The lineup's choices are the solved ones (husingles.go); the distribution of the mover's
// lead in a state follows the same equations as the expected lead: taking a pair shifts the
// mover's own distribution by one, handing over mirrors the next seat's distribution and shifts it
// by the pair the next seat takes. The states of one number of pairs refer to each other only by
// hand-overs that take nothing (a mirror), so with x the distributions of a row, b what the
// solved rows give and P the row's hand-over probabilities (to the other role),
//
//	x[l] = b[l] + P x[-l]  for every lead l.
//
// The sums x[l] + x[-l] and differences x[l] - x[-l] then solve (I - P) u = b[l] + b[-l] and
// (I + P) v = b[l] - b[-l]: two systems of the row's size, each with the row's leads as
// right-hand sides. Both have a unique solution (P is substochastic and the game ends, so P's
// spectral radius is below 1).

// husLeadDists returns, for every cell with at most maxPairs pairs, each role's distribution of
// the mover's lead in the rest of the game (index l + n for a lead of l in a state of n pairs),
// with the choices s.solve found.
func (s *husSolver[T]) husLeadDists(maxPairs int) ([][2][]T, error) {
	f := s.f
	dists := make([][2][]T, len(s.cells))
	for n := 0; n <= maxPairs && n < len(s.rows); n++ {
		row := s.rows[n]
		if n == 0 {
			for _, i := range row {
				dists[i] = [2][]T{{s.one}, {s.one}}
			}
			continue
		}
		pos := make(map[int]int, len(row))
		for k, i := range row {
			pos[i] = k
		}
		size := 2*n + 1
		sym := make([]decayEq[T], 2*len(row))
		anti := make([]decayEq[T], 2*len(row))
		for k, i := range row {
			c := s.cells[i]
			for r := range 2 {
				b := make([]T, size)
				for l := range b {
					b[l] = s.zero
				}
				var to []int
				var coef, neg []T
				ch := c.ch[r]
				for t, o := range c.outs[ch] {
					p := c.probs[ch][t]
					if k2, ok := pos[o.to]; ok {
						if o.keep || o.handed != 0 {
							return nil, fmt.Errorf("%v %s: an outcome in the same row takes a pair", c.st, ch)
						}
						to = append(to, 2*k2+1-r)
						coef, neg = append(coef, p), append(neg, f.Sub(s.zero, p))
						continue
					}
					next := dists[o.to]
					role, shift, mirror := r, 1, false
					if !o.keep {
						role, shift, mirror = 1-r, -o.handed, true
					}
					src, n2 := next[role], s.cells[o.to].st.N
					if src == nil || n2 >= n {
						return nil, fmt.Errorf("%v %s: outcome %v is not a solved state", c.st, ch, s.cells[o.to].st)
					}
					for j, q := range src {
						l := j - n2
						if mirror {
							l = -l
						}
						if l += shift; l < -n || l > n {
							return nil, fmt.Errorf("%v %s: a lead of %d beyond %d pairs", c.st, ch, l, n)
						}
						b[l+n] = f.Add(b[l+n], f.Mul(p, q))
					}
				}
				sym[2*k+r], anti[2*k+r] = splitLeadEq(f, b, n, to, coef, neg)
			}
		}
		xs, err := solveSplitLeadRow(f, sym, anti, n)
		if err != nil {
			return nil, fmt.Errorf("singletons with %s, %d pairs: %w", s.m.Memory, n, err)
		}
		for k, i := range row {
			for r := range 2 {
				dists[i][r] = xs[2*k+r]
			}
		}
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
	}
	return dists, nil
}

// husDistribution is Distribution for singletons under a handover-uniform memory: the
// distribution of seat 0's lead from st in the two-seat matchup mu.
func husDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	var d ScoreDistribution[T]
	if mu.Players >= 3 {
		return d, fmt.Errorf("players %d: the score distribution is computed for 2 players (every seat's at 3 or more: SeatsScoreDistribution)", mu.Players)
	}
	if m.Variant.TurnLimit > 0 {
		return husLimitDistribution(ctx, f, m, mu, st) // husingles_limit.go
	}
	s, c, err := husStart(ctx, f, m, mu, st)
	if err != nil {
		return d, err
	}
	dists, err := s.husLeadDists(st.N)
	if err != nil {
		return d, err
	}
	lead := dists[s.at[c.st]][0]
	zero := f.FromInt(0)
	d.State = st
	d.Prob = lead
	d.Win, d.Draw, d.Loss = zero, zero, zero
	for i, p := range lead {
		d.addResult(f, p, i-st.N)
	}
	return d, nil
}

// splitLeadEq returns the equations of one state's lead distribution split into its symmetric
// part (the probabilities of leads l and -l added, l = 0..n) and its antisymmetric part (their
// difference, l = 1..n), x[l] = b[l] + P x[-l] above: b is what the solved rows give by lead,
// shifted by n, and to the states of the row it hands over to (taking nothing, so the lead
// changes sign) with their probabilities coef and those negated, neg. The handover-uniform
// singletons models, with a fixed or a fluctuating capacity, share it.
func splitLeadEq[T any](f field.Field[T], b []T, n int, to []int, coef, neg []T) (decayEq[T], decayEq[T]) {
	sym := decayEq[T]{a: make([]T, n+1), to: to, coef: coef}
	anti := decayEq[T]{a: make([]T, n), to: append([]int(nil), to...), coef: neg}
	for l := 0; l <= n; l++ {
		sym.a[l] = f.Add(b[n+l], b[n-l])
		if l > 0 {
			anti.a[l-1] = f.Sub(b[n+l], b[n-l])
		}
	}
	sym.merge(f)
	anti.merge(f)
	return sym, anti
}

// solveSplitLeadRow solves a row's symmetric and antisymmetric systems (splitLeadEq) and returns
// each state's lead distribution, leads -n..n shifted by n.
func solveSplitLeadRow[T any](f field.Field[T], sym, anti []decayEq[T], n int) ([][]T, error) {
	us, err := solveRow(f, sym)
	if err != nil {
		return nil, err
	}
	vs, err := solveRow(f, anti)
	if err != nil {
		return nil, err
	}
	half := f.FromFrac(1, 2)
	xs := make([][]T, len(us))
	for i, u := range us {
		v := vs[i]
		x := make([]T, 2*n+1)
		x[n] = f.Mul(half, u[0])
		for l := 1; l <= n; l++ {
			x[n+l] = f.Mul(half, f.Add(u[l], v[l-1]))
			x[n-l] = f.Mul(half, f.Sub(u[l], v[l-1]))
		}
		xs[i] = x
	}
	return xs, nil
}
