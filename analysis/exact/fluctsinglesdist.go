package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The score distribution of singletons under a fluctuating handover-uniform capacity
// (docs/models.md §4.4), two seats, every pass rule: husinglesdist.go's equations over the cells
// after the draw, whose arcs already average over the next turn's draw. The lineup's choices are
// the solved ones (fluctsingles.go); the distribution before the draw is the average of its
// capacities'. A row's cells refer to each other only by hand-overs that take nothing (a mirror,
// passes included), so with x the distributions of a row, b what the solved rows give and P the
// row's hand-over probabilities (to the other role), x[l] = b[l] + P x[-l], solved as two systems
// for the sums x[l] + x[-l] and differences x[l] - x[-l]. A stalemate leaves the lead where it is.

// fsLeadDists returns, for every cell, each role's distribution of the mover's lead in the rest of
// the game (index l + n for a lead of l in a state of n pairs), with the choices s.solve found.
func (s *fsSolver[T]) fsLeadDists() ([][2][]T, error) {
	f := s.f
	dists := make([][2][]T, len(s.cells))
	for n, row := range s.rows {
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
				b := s.zeroVec(size)
				var to []int
				var coef, neg []T
				ch := c.ch[r]
				for _, a := range c.arcs[ch] {
					if k2, ok := pos[a.to]; ok {
						if a.keep || a.handed != 0 {
							return nil, fmt.Errorf("%v %s: an outcome in the same row takes a pair", c.key.st, ch)
						}
						to = append(to, 2*k2+1-r)
						coef, neg = append(coef, a.p), append(neg, f.Sub(s.zero, a.p))
						continue
					}
					next := dists[a.to]
					role, shift, mirror := r, 1, false
					if !a.keep {
						role, shift, mirror = 1-r, -a.handed, true
					}
					src, n2 := next[role], s.cells[a.to].key.st.N
					if src == nil || n2 >= n {
						return nil, fmt.Errorf("%v %s: outcome %v is not a solved state", c.key.st, ch, s.cells[a.to].key.st)
					}
					for j, q := range src {
						l := j - n2
						if mirror {
							l = -l
						}
						if l += shift; l < -n || l > n {
							return nil, fmt.Errorf("%v %s: a lead of %d beyond %d pairs", c.key.st, ch, l, n)
						}
						b[l+n] = f.Add(b[l+n], f.Mul(a.p, q))
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
			return nil, fmt.Errorf("solver stopped at %d pairs: %w", n, err)
		}
	}
	return dists, nil
}

// zeroVec returns a vector of size zeros.
func (s *fsSolver[T]) zeroVec(size int) []T {
	v := make([]T, size)
	for i := range v {
		v[i] = s.zero
	}
	return v
}

// fluctSinglesDistribution is Distribution for singletons under a fluctuating handover-uniform
// capacity: the distribution of seat 0's lead from st, before the draw, in the two-seat matchup mu.
func fluctSinglesDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	var d ScoreDistribution[T]
	if mu.Players >= 3 {
		return d, fluctSinglesSeatsDistErr(m, mu.Players) // fluctsingles_seats.go
	}
	if t := m.Variant.TurnLimit; t > 0 {
		return d, fmt.Errorf("singletons %d with %s, turn limit %d: the score distribution is solved without a turn limit only", m.Singletons, m.Memory, t)
	}
	s, err := fsStart(ctx, f, m, mu, st)
	if err != nil {
		return d, err
	}
	dists, err := s.fsLeadDists()
	if err != nil {
		return d, err
	}
	lead := s.zeroVec(2*st.N + 1)
	for _, dr := range s.draws[st.Counts()] {
		for i, p := range dists[dr.to][0] {
			lead[i] = f.Add(lead[i], f.Mul(dr.p, p))
		}
	}
	d.State = st
	d.Prob = lead
	d.Win, d.Draw, d.Loss = s.zero, s.zero, s.zero
	for i, p := range lead {
		d.addResult(f, p, i-st.N)
	}
	return d, nil
}
