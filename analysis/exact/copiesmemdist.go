package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The distributions of the copies model under a shared handover-uniform memory (copiesmem.go;
// docs/models.md §4.16, "A handover-uniform memory"): at two seats, seat 0's share of the pairs,
// and in solitaire, the number of turns.
//
// At two seats each cell holds, for each role to move, the distribution of the mover's lead in
// the pairs left, played with the choices the values were solved with. A turn that takes a pair
// (or hands one over) leads to a state of fewer pairs, already solved; the cells of one group
// (copiesMemSolver.groups) refer to each other only through hand-overs that take nothing, which
// mirror the next mover's distribution. So each group is one system of linear equations whose
// unknowns are every cell's two roles' distributions and their mirror images (as decay's rows,
// decayDist), each distribution a vector of right-hand sides.
//
// In solitaire every turn costs at least one, so the probability of exactly t turns from a cell
// is that of t - 1 (or t - 2, when the turn leaves a pair known whole) from the cells its choice
// leads to: computed in order of t, no equation solved.

// copiesMemDistribution is CopiesDistribution under a handover-uniform memory.
func copiesMemDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (ScoreDistribution[T], error) {
	var d ScoreDistribution[T]
	if m.Variant.TurnLimit > 0 {
		return copiesMemLimitDistribution(ctx, f, m, mu, st) // copiesmemlimitdist.go
	}
	s, err := newCopiesMemSolver(ctx, f, m, mu, st)
	if err != nil {
		return d, err
	}
	if err := s.solve(); err != nil {
		return d, err
	}
	return s.scoreDistribution(s.groups(), st)
}

// scoreDistribution returns seat 0's score distribution from st, the start cell, the values
// solved: groups are the cells' groups, each after every group it leads to.
func (s *copiesMemSolver[T]) scoreDistribution(groups [][]int, st CopiesState) (ScoreDistribution[T], error) {
	var d ScoreDistribution[T]
	f := s.f
	n := st.Pairs()
	dist := make([][2][]T, len(s.cells))
	for _, g := range groups {
		if err := s.ctx.Err(); err != nil {
			return d, err
		}
		if err := s.distGroup(g, n, dist); err != nil {
			return d, err
		}
	}
	d.State = st.RulesState()
	d.Prob = dist[0][0]
	d.Win, d.Draw, d.Loss = s.zero, s.zero, s.zero
	for i, p := range d.Prob {
		d.addResult(f, p, i-n)
	}
	return d, nil
}

// distGroup solves the lead distributions (index lead + n) of the cells of group idx, both
// roles, every cell outside the group already in dist: unknown 4k + 2r + v is role r's
// distribution in idx[k], mirrored when v = 1.
func (s *copiesMemSolver[T]) distGroup(idx []int, n int, dist [][2][]T) error {
	f := s.f
	size := 2*n + 1
	pos := make(map[int]int, len(idx))
	for k, i := range idx {
		pos[i] = k
	}
	eqs := make([]decayEq[T], 4*len(idx))
	for k, i := range idx {
		c := s.cells[i]
		for r := range 2 {
			a := make([]T, size)
			for j := range a {
				a[j] = s.zero
			}
			var e decayEq[T]
			if c.stalemate || c.pairs == 0 {
				a[n] = s.one // nothing more to take, or the pairs left shared equally
			} else {
				ch := c.ch[r]
				for o, out := range c.outs[ch] {
					p := c.probs[ch][o]
					if l, ok := pos[out.to]; ok {
						if out.keep || out.handed > 0 {
							return fmt.Errorf("copies with %s: a turn that takes a pair leads within its group of states", s.m.Memory)
						}
						e.to = append(e.to, 4*l+2*(1-r)+1)
						e.coef = append(e.coef, p)
						continue
					}
					if out.keep {
						from := dist[out.to][r]
						for j := 0; j+1 < size; j++ {
							if !f.IsZero(from[j]) {
								a[j+1] = f.Add(a[j+1], f.Mul(p, from[j]))
							}
						}
						continue
					}
					// The mover's lead is -handed minus the next mover's lead.
					from := dist[out.to][1-r]
					for j := range size {
						if src := 2*n - out.handed - j; src >= 0 && src < size && !f.IsZero(from[src]) {
							a[j] = f.Add(a[j], f.Mul(p, from[src]))
						}
					}
				}
			}
			e.a = a
			e.merge(f)
			mirror := decayEq[T]{a: reversed(a, size), coef: e.coef}
			for _, u := range e.to {
				mirror.to = append(mirror.to, u-1) // the mirror of a mirror is the distribution
			}
			eqs[4*k+2*r], eqs[4*k+2*r+1] = e, mirror
		}
	}
	x, err := solveRow(f, eqs)
	if err != nil {
		return fmt.Errorf("copies with %s: the score distribution: %w", s.m.Memory, err)
	}
	for k, i := range idx {
		dist[i] = [2][]T{x[4*k], x[4*k+2]}
	}
	return nil
}

// copiesMemSolitaireTurns is SolitaireTurns with copies of a face under a handover-uniform
// memory, from the start of a game of st.N pairs (solitaireTurnsCopies checks st).
func copiesMemSolitaireTurns[T any](ctx context.Context, f field.Field[T], m Model, p rules.Policy, st rules.State, start CopiesState, maxTurns int) (TurnsDistribution[T], error) {
	var d TurnsDistribution[T]
	s, err := newCopiesMemSolver(ctx, f, m, Lineup{Players: 1, Policy: p, Opponent: p}, start)
	if err != nil {
		return d, err
	}
	if err := s.solve(); err != nil {
		return d, err
	}
	return s.solitaireTurns(st, maxTurns)
}

// solitaireTurns returns solitaire's distribution of the number of turns from the start cell,
// the choices solved, st the rules state it is reported for.
func (s *copiesMemSolver[T]) solitaireTurns(st rules.State, maxTurns int) (TurnsDistribution[T], error) {
	var d TurnsDistribution[T]
	f, ctx := s.f, s.ctx
	prob := make([][]T, len(s.cells))
	for i, c := range s.cells {
		prob[i] = make([]T, maxTurns+1)
		for t := range prob[i] {
			prob[i][t] = s.zero
		}
		if c.pairs == 0 {
			prob[i][0] = s.one
		}
	}
	for t := 1; t <= maxTurns; t++ {
		if err := ctx.Err(); err != nil {
			return d, err
		}
		for i, c := range s.cells {
			if c.pairs == 0 {
				continue
			}
			sum := s.zero
			for o, out := range c.outs[c.soloChoice] {
				if u := t - 1 - out.handed; u >= 0 && !f.IsZero(prob[out.to][u]) {
					sum = f.Add(sum, f.Mul(c.probs[c.soloChoice][o], prob[out.to][u]))
				}
			}
			prob[i][t] = sum
		}
	}
	d.State, d.MaxTurns, d.Prob = st, maxTurns, prob[0]
	d.Tail = s.one
	for _, x := range d.Prob {
		d.Tail = f.Sub(d.Tail, x)
	}
	return d, nil
}
