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
	N := st.N
	d = ScoreDistribution[T]{State: st, Prob: make([]T, 2*N+1), Prob1: make([]T, 2*N+1), Win: s.zero, Draw: s.zero, Loss: s.zero}
	for i := range d.Prob {
		d.Prob[i], d.Prob1[i] = s.zero, s.zero
	}
	end := func(p T, h0, h1 int) {
		d.Prob[h0] = f.Add(d.Prob[h0], p)
		d.Prob1[h1] = f.Add(d.Prob1[h1], p)
		d.addResult(f, p, 2*st.Lead+h0-h1)
	}
	at := make([]map[flLimitPos]T, s.limit+1)
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
	// gain returns x with g pairs more for seat r.
	gain := func(x flLimitPos, r, g int) flLimitPos {
		if r == 0 {
			x.h0 += 2 * g
		} else {
			x.h1 += 2 * g
		}
		return x
	}
	add(s.limit, flLimitPos{n: N, k: k}, f.FromInt(1))
	done := ctx.Done()
	for t := s.limit; t >= 1; t-- {
		select {
		case <-done:
			return d, fmt.Errorf("score distribution stopped at %d turns left: %w", t, ctx.Err())
		default:
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
				who := 0
				if s.needRoles {
					who = 1 + x.r
				}
				ch := s.all[t-1][x.n][c][kd][who][x.flag]
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
					next := flLimitPos{n: o.Next.N, k: o.Next.N - o.Next.J, r: x.r, h0: x.h0, h1: x.h1}
					if o.Continue {
						add(t-1, gain(next, x.r, o.MoverGain), q2)
						continue
					}
					next.r = 1 - x.r
					switch {
					case o.NextGain == 0:
						add(t-1, next, q2)
					case t-1 < o.NextGain:
						end(q2, x.h0, x.h1) // no turn is left to take the pair known whole
					case next.n == 0 || !s.lru():
						add(t-2, gain(next, next.r, o.NextGain), q2)
					default:
						// The turn that takes the pair draws its capacity: lru forgets down to it.
						next = gain(next, next.r, o.NextGain)
						for i2, cp2 := range s.caps[next.n] {
							y := next
							y.k = min(next.k, cp2.c)
							add(t-2, y, f.Mul(q2, s.capP[next.n][i2]))
						}
					}
				}
			}
		}
		at[t] = nil
	}
	return d, nil
}
