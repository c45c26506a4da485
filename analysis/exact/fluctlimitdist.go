package exact

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The score distribution under a fluctuating capacity and a turn limit (docs/models.md §4.4,
// §4.18), two seats: the sweep (fluctlimit.go) records every choice of every layer of turns left,
// then the probability of every position of the game is carried forwards from the state, layer by
// layer, to the end, as limitdist.go does under a fixed capacity. A position before the draw is
// (n, k, the role to move, the pass flag) with the shares taken so far; the pairs left at the limit
// count for nobody, so the two seats' shares are kept apart.

// flLimitAllChoices are every choice of one layer of turns left: [n][c][k][who][flag], who 0 the
// optimum's, 1 and 2 roles 0's and 1's.
type flLimitAllChoices [][][][3][2]rules.Choice

// flLimitPos is a position before the draw in the forward pass: n pairs, k known cards, role r to
// move, pass flag flag, and the shares h0 and h1 taken so far by seats 0 and 1, in half pairs.
type flLimitPos struct{ n, k, r, flag, h0, h1 int }

// fluctLimitDistribution is Distribution under a fluctuating capacity and a turn limit, the model's
// turn limit as the turns left in st.
func fluctLimitDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	var d ScoreDistribution[T]
	if mu.Players != 2 || mu.PerSeat {
		return d, fmt.Errorf("players %d: the score distribution is computed for 2 players", mu.Players)
	}
	s, err := newFluctLimitSweep(f, m, mu, st.N)
	if err != nil {
		return d, err
	}
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return d, err
	}
	s.recordAll = true
	if err := s.run(ctx); err != nil {
		return d, err
	}
	d, _, err = s.forward(ctx, st, k, s.limit, func(t int, x flLimitPos, c, kd int) rules.Choice {
		who := 0
		if s.needRoles {
			who = 1 + x.r
		}
		return s.all[t-1][x.n][c][kd][who][x.flag]
	})
	return d, err
}

// forward carries the probability of every position before the draw forwards from st, with k
// known cards and limit turns left, layer by layer to the end of the game, the mover choosing
// choose(t, x, c, kd) in position x with t turns left after capacity c is drawn, leaving kd known
// cards. It returns the score distribution and the distribution of the lead seat 0 takes in the
// rest of the game: leads[N + l] is the probability that it ends l pairs further ahead (a
// stalemate's split adds nothing to it).
func (s *fluctLimitSweep[T]) forward(ctx context.Context, st rules.State, k, limit int, choose func(t int, x flLimitPos, c, kd int) rules.Choice) (ScoreDistribution[T], []T, error) {
	f := s.f
	N := st.N
	zero := s.zero
	d := ScoreDistribution[T]{State: st, Prob: make([]T, 2*N+1), Prob1: make([]T, 2*N+1), Win: zero, Draw: zero, Loss: zero}
	leads := make([]T, 2*N+1)
	for i := range d.Prob {
		d.Prob[i], d.Prob1[i], leads[i] = zero, zero, zero
	}
	end := func(p T, h0, h1 int) {
		d.Prob[h0] = f.Add(d.Prob[h0], p)
		d.Prob1[h1] = f.Add(d.Prob1[h1], p)
		leads[N+(h0-h1)/2] = f.Add(leads[N+(h0-h1)/2], p)
		d.addResult(f, p, 2*st.Lead+h0-h1)
	}
	at := make([]map[flLimitPos]T, limit+1)
	for t := range at {
		at[t] = map[flLimitPos]T{}
	}
	// add carries probability p to position x with t turns left: the game is over with no turn or
	// no pair left.
	add := func(t int, x flLimitPos, p T) {
		if t <= 0 || x.n == 0 {
			end(p, x.h0, x.h1)
			return
		}
		if q, ok := at[t][x]; ok {
			p = f.Add(q, p)
		}
		at[t][x] = p
	}
	// gain returns x with g pairs more for role r.
	gain := func(x flLimitPos, r, g int) flLimitPos {
		if r == 0 {
			x.h0 += 2 * g
		} else {
			x.h1 += 2 * g
		}
		return x
	}
	add(limit, flLimitPos{n: N, k: k}, f.FromInt(1))
	for t := limit; t >= 1; t-- {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return d, nil, err
		}
		// The positions in a fixed order, so that float64 sums do not depend on the map's.
		keys := slices.SortedFunc(maps.Keys(at[t]), func(a, b flLimitPos) int {
			return cmp.Or(cmp.Compare(a.n, b.n), cmp.Compare(a.k, b.k), cmp.Compare(a.r, b.r), cmp.Compare(a.flag, b.flag), cmp.Compare(a.h0, b.h0), cmp.Compare(a.h1, b.h1))
		})
		for _, x := range keys {
			p := at[t][x]
			for i, cp := range s.caps[x.n] {
				q := f.Mul(p, s.capP[x.n][i])
				c, kd := cp.c, s.drawn(x.k, cp.c)
				ch := choose(t, x, c, kd)
				if ch == rules.Pass {
					if x.flag == 1 {
						end(q, x.h0+x.n, x.h1+x.n) // a stalemate: the pairs left shared
					} else {
						add(t-1, flLimitPos{n: x.n, k: passKept(kd, c), r: 1 - x.r, flag: 1, h0: x.h0, h1: x.h1}, q)
					}
					continue
				}
				for j, o := range s.outs[x.n][c][kd][ch] {
					q2 := f.Mul(q, s.probs[x.n][c][kd][ch][j])
					next := gain(flLimitPos{n: o.Next.N, k: o.Next.N - o.Next.J, r: x.r, h0: x.h0, h1: x.h1}, x.r, o.MoverGain)
					if o.Continue {
						add(t-1, next, q2)
						continue
					}
					next.r = 1 - x.r
					taken := min(o.NextGain, t-1)
					next = gain(next, next.r, taken)
					switch left := t - 1 - taken; {
					case taken < o.NextGain:
						end(q2, next.h0, next.h1) // no turn is left to take the pair known whole
					case taken == 0 || !s.lru() || left <= 0 || next.n == 0:
						add(left, next, q2)
					default:
						// Each turn that takes a pair known whole draws its capacity: lru forgets
						// down to it.
						s.takeDraws(next.n, next.k, taken, q2, func(k int, p T) {
							y := next
							y.k = k
							add(left, y, p)
						})
					}
				}
			}
		}
		at[t] = nil
	}
	return d, leads, nil
}
