package exact

import (
	"context"
	"slices"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The score distribution of the copies model under a shared handover-uniform or decay memory and
// a turn limit (copiesmemlimit.go; docs/models.md §4.16 and §4.18), two seats, every pass rule.
// The choices of both roles come from the layers cmLimit solved backwards; the probability of
// every position (cell, seat to move, the seats' pairs so far) then follows forwards, a layer per
// number of turns left, as in the perfect-memory model (copieslimit.go): every turn uses at least
// one. A game ends when the turns run out (the pairs left count for nobody), when no card is left
// unknown, or in a stalemate (the pairs left shared equally). Prob and Prob1 are the seats' own
// shares in half pairs, since under a limit they need not add up to the pairs.

// cmPos is a position of a game under the limit: cell i of the solver, the seat to move and the
// pairs each seat has taken.
type cmPos struct {
	i, seat, a0, a1 int
}

// distribution returns the seats' score distributions from st, the solver's start cell, with the
// limit's turns left.
func (l *cmLimit[T]) distribution(st CopiesState) (ScoreDistribution[T], error) {
	s := l.s
	f, n := s.f, st.Pairs()
	zeros := func() []T {
		out := make([]T, 2*n+1)
		for i := range out {
			out[i] = s.zero
		}
		return out
	}
	d := ScoreDistribution[T]{State: st.RulesState(), Prob: zeros(), Prob1: zeros(), Win: s.zero, Draw: s.zero, Loss: s.zero}
	// end records a game that ends with the seats' shares h0 and h1, in half pairs.
	end := func(p T, h0, h1 int) {
		d.Prob[h0] = f.Add(d.Prob[h0], p)
		d.Prob1[h1] = f.Add(d.Prob1[h1], p)
		d.addResult(f, p, h0-h1) // only the sign counts
	}
	over := func(i int) bool { c := s.cells[i]; return c.stalemate || unknownCards(c.v) == 0 }
	layers := make([]map[cmPos]T, l.limit+1)
	add := func(t int, at cmPos, p T) {
		if t == 0 || over(at.i) {
			end(p, 2*at.a0, 2*at.a1)
			return
		}
		if layers[t] == nil {
			layers[t] = map[cmPos]T{}
		}
		if q, ok := layers[t][at]; ok {
			p = f.Add(q, p)
		}
		layers[t][at] = p
	}
	add(l.limit, cmPos{}, s.one)
	for t := l.limit; t >= 1; t-- {
		if err := stoppedAtTurnsLeft(s.ctx, t); err != nil {
			return d, err
		}
		for _, at := range sortedCMPositions(layers[t]) {
			l.step(at, t, layers[t][at], add, end)
		}
		layers[t] = nil
	}
	return d, nil
}

// step carries probability p of position at, with t turns left, over the turn its mover plays
// with its role's choice: to the positions it leads to (add) or to the end of the game (end).
func (l *cmLimit[T]) step(at cmPos, t int, p T, add func(int, cmPos, T), end func(T, int, int)) {
	f := l.s.f
	c := l.s.cells[at.i]
	ch := l.layers[t][at.i].ch[at.seat] // seat 0 plays role 0's policy, seat 1 role 1's
	switch {
	case ch == rules.Pass && c.after(): // the stalemate: the pairs left shared equally
		end(p, 2*at.a0+c.pairs, 2*at.a1+c.pairs)
		return
	case ch == rules.Pass && t == 1: // the pass uses the last turn
		end(p, 2*at.a0, 2*at.a1)
		return
	}
	for k, o := range c.outs[ch] {
		q := f.Mul(p, c.probs[ch][k])
		next := cmPos{i: o.to, seat: at.seat, a0: at.a0, a1: at.a1}
		got := [2]*int{&next.a0, &next.a1}
		left := t - 1
		switch {
		case ch == rules.Pass:
			next.seat = 1 - at.seat
		case o.keep:
			*got[at.seat]++
		default:
			// The next seat takes the pair the turn left known whole in a turn of its own, if
			// one is left.
			g := min(o.handed, t-1)
			next.seat = 1 - at.seat
			*got[next.seat] += g
			left -= g
		}
		add(left, next, q)
	}
}

// sortedCMPositions returns the positions of a layer in one order, whatever the map's, so that
// the sums are made in the same order every time.
func sortedCMPositions[T any](layer map[cmPos]T) []cmPos {
	out := make([]cmPos, 0, len(layer))
	for at := range layer {
		out = append(out, at)
	}
	slices.SortFunc(out, func(a, b cmPos) int {
		switch {
		case a.i != b.i:
			return a.i - b.i
		case a.seat != b.seat:
			return a.seat - b.seat
		case a.a0 != b.a0:
			return a.a0 - b.a0
		}
		return a.a1 - b.a1
	})
	return out
}

// copiesMemLimitDistribution is CopiesDistribution under a handover-uniform or decay memory and a
// turn limit.
func copiesMemLimitDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (ScoreDistribution[T], error) {
	l, err := newCMLimit(ctx, f, m, mu, st)
	if err != nil {
		return ScoreDistribution[T]{}, err
	}
	return l.distribution(st)
}
