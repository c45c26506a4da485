package exact

import (
	"context"
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat's score distribution at three to eight seats under a fluctuating capacity and a turn
// limit (docs/models.md §4.4, §4.18). The backward induction of fluctlimitseats.go fixes every
// seat's choice at every (n, k, c, t, l); the game is then a Markov chain whose every step goes to
// fewer turns left, so the distributions follow layer by layer in the same sweep, with no system
// to solve: a state's unknowns before the draw with t turns left are, for each streak l and seat
// m to move, one vector of every seat's distribution of the pairs it takes from there on by the
// limit (seat s's block from s*width), the draw's capacities averaged as the values' are. A pair
// taken shifts its taker's block by a pair; a pair known whole that the limit leaves no turn for
// counts for nobody; at t = 0 every seat keeps its pairs so far; the p-th pass in a row is a
// stalemate, n/p pairs to every seat (shares in p-ths of a pair).

// flSeatsDist carries the distributions of a fluctLimitSeats sweep.
type flSeatsDist[T any] struct {
	s *fluctLimitSeats[T]
	// unit: shares count in 1/unit pairs; width: the length of a seat's block.
	unit, width int
	one         T
	// layers[t%3][n][k][l*p+m] is the vector of (n, k) before the draw with t turns left, seat m
	// to move at streak l.
	layers [3][][][][]T
	// after[i][k] holds the vectors of the row being computed after capacity caps[n][i] is drawn.
	after [][][][]T
	none  []T
}

// zeros returns a vector of every seat's block, all zero.
func (d *flSeatsDist[T]) zeros() []T {
	v := make([]T, d.s.p*d.width)
	for i := range v {
		v[i] = d.s.base.zero
	}
	return v
}

// before returns the vector of (n, k) before a draw with t turns left, seat m to move at streak
// l: a game over with no turn or no pair left; take as fluctLimitSeats.before.
func (d *flSeatsDist[T]) before(n, k, t int, take bool, l, m int) []T {
	if take {
		t--
	}
	if t <= 0 || n == 0 {
		return d.none
	}
	b := d.s.base
	if !take || !b.lru() {
		return d.layers[t%3][n][k][l*d.s.p+m]
	}
	out := d.zeros()
	for i, cp := range b.caps[n] {
		addShifted(d.s.f, out, b.capP[n][i], d.layers[t%3][n][min(k, cp.c)][l*d.s.p+m], 0)
	}
	return out
}

// turn returns every seat's distribution after choice ch of seat mv in (n, k) with capacity c
// drawn, t turns left, at streak l, every seat playing its policy afterwards.
func (d *flSeatsDist[T]) turn(n, k, c, t, l int, ch rules.Choice, mv int) []T {
	s := d.s
	b, f, p := s.base, s.f, s.p
	nx := (mv + 1) % p
	if ch == rules.Pass {
		switch {
		case l == p-1:
			v := d.zeros()
			for x := range p {
				v[x*d.width+n*d.unit/p] = d.one
			}
			return v
		case t == 1:
			return d.none // the pass used the last turn
		}
		return d.before(n, passKept(k, c), t-1, false, l+1, nx)
	}
	out := d.zeros()
	for i, o := range b.outs[n][c][k][ch] {
		k2 := o.Next.N - o.Next.J
		pr := b.probs[n][c][k][ch][i]
		var src []T
		who, g := mv, o.MoverGain
		if o.Continue {
			src = d.before(o.Next.N, k2, t-1, false, 0, mv)
		} else {
			who, g = nx, min(o.NextGain, t-1)
			src = d.before(o.Next.N, k2, t-1, g > 0, 0, nx)
			if g < o.NextGain {
				src = d.none // no turn is left to take the pair known whole: the game is over
			}
		}
		for x := range p {
			shift := 0
			if x == who {
				shift = g * d.unit
			}
			lo := x * d.width
			addShifted(f, out[lo:lo+d.width], pr, src[lo:lo+d.width], shift)
		}
	}
	return out
}

// afterDraw computes the vectors of (n, k) with capacity caps[n][i] drawn and t turns left, the
// seats' choices chs[l][m] fixed by the values.
func (d *flSeatsDist[T]) afterDraw(n, k, i, t int, chs [][]rules.Choice) {
	s := d.s
	c := s.base.caps[n][i].c
	vs := make([][]T, s.levels*s.p)
	for l := range s.levels {
		for m := range s.p {
			vs[l*s.p+m] = d.turn(n, k, c, t, l, chs[l][m], m)
		}
	}
	d.after[i][k] = vs
}

// row starts the row of n pairs with t turns left: after-draw vectors for each capacity.
func (d *flSeatsDist[T]) row(n int, tops []int) {
	d.after = make([][][][]T, len(tops))
	for i, top := range tops {
		d.after[i] = make([][][]T, top+1)
	}
}

// collect averages the row's after-draw vectors over the draw into (n, k) before it with t turns
// left.
func (d *flSeatsDist[T]) collect(n, k, t int) {
	s := d.s
	b := s.base
	if d.layers[t%3][n] == nil || len(d.layers[t%3][n]) != b.known(n)+1 {
		d.layers[t%3][n] = make([][][]T, b.known(n)+1)
	}
	vs := make([][]T, s.levels*s.p)
	for j := range vs {
		vs[j] = d.zeros()
	}
	for i, cp := range b.caps[n] {
		a := d.after[i][b.drawn(k, cp.c)]
		for j := range vs {
			addShifted(s.f, vs[j], b.capP[n][i], a[j], 0)
		}
	}
	d.layers[t%3][n][k] = vs
}

// fluctLimitSeatsDistribution is SeatsScoreDistribution under a fluctuating capacity and a turn
// limit: from st before the draw, seat 0 to move at streak 0, the limit the turns left.
func fluctLimitSeatsDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	s, err := newFluctLimitSeats(f, m, mu, st.N)
	if err != nil {
		return out, err
	}
	k, err := fluctKnown(st, s.base.maxK)
	if err != nil {
		return out, err
	}
	d := &flSeatsDist[T]{s: s, unit: 1, one: f.FromInt(1)}
	if s.levels > 1 {
		d.unit = s.p
	}
	d.width = d.unit*st.N + 1
	d.none = d.zeros()
	for x := range s.p {
		d.none[x*d.width] = d.one
	}
	for i := range d.layers {
		d.layers[i] = make([][][][]T, st.N+1)
	}
	s.dist = d
	if err := s.run(ctx); err != nil {
		return out, err
	}
	v := d.none
	if st.N > 0 {
		v = d.layers[s.base.limit%3][st.N][k][0]
	}
	out = SeatsDistribution[T]{State: st, Players: s.p, Unit: d.unit, Prob: make([][]T, s.p)}
	for x := range s.p {
		out.Prob[x] = append([]T(nil), v[x*d.width:(x+1)*d.width]...)
	}
	return out, nil
}

// checkFluctLimitSeatsDistribution reports whether fluctLimitSeatsDistribution solves lineup mu
// in model m: the lineups the values are solved for (validateFluctLimitSeats).
func checkFluctLimitSeatsDistribution(m Model, mu Lineup) error {
	if err := validateFluctLimitSeats(m, mu); err != nil {
		return fmt.Errorf("every seat's score distribution: %w", err)
	}
	return nil
}

// fluctLimitSeatsDistCost returns the cost of SeatsScoreDistribution under a fluctuating capacity
// and a turn limit at p seats up to pairs pairs: the values' work (cells after the draw of one
// layer, their choices' outcomes for every seat to move and streak), then for each cell, streak
// and seat to move one vector of every seat's distribution (p blocks of unit*pairs + 1 entries)
// that each outcome of the choice made adds once, in every layer; the memory holds three layers
// of those vectors before the draw. Not fitted to measurements: the values' per-operation
// weights stand for the entries'.
func fluctLimitSeatsDistCost[T any](f field.Field[T], m Model, p, pairs int, levels, cells, k, work float64) (Cost, error) {
	perOp, entry := 0.25, 16.0
	limit := float64(m.Variant.TurnLimit)
	if _, exact := f.Exact(f.FromInt(0)); exact {
		perOp *= 60 * math.Max(1, math.Log2(limit))
		entry = ratBytes
	}
	unit := 1.0
	if levels > 1 {
		unit = float64(p)
	}
	width := unit*float64(pairs) + 1
	entries := cells * levels * float64(p*p) * width * 8
	ops := (work + entries) * perOp * limit
	bytes := baseBytes + 3*float64(pairs)*k*200 + 3*float64(pairs)*k*levels*float64(p*p)*width*entry
	return Cost{Ops: ops, Bytes: bytes}, nil
}
