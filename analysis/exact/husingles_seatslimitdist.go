package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat's score distribution at three to eight seats for singletons under a shared
// handover-uniform memory and a turn limit (docs/models.md §4.4, §4.7 and §4.18). The backward
// induction of husingles_seatslimit.go fixes every seat's choice in every cell, pass streak and
// number of turns left; the game is then a Markov chain whose every step goes to fewer turns left,
// so the distributions follow layer by layer from one turn left up, with no system to solve: a
// cell's unknowns with t turns left are, for each streak l and seat m to move, one vector of every
// seat's distribution of the pairs it takes from there on by the limit (seat b's block from
// b*width, by seat). A pair the mover takes shifts its own block by a pair; a hand-over reads the
// next seat's vector, its block shifted by the pair the turn left known whole when a turn is left
// to take it (otherwise that pair counts for nobody); with no turn or no pair left every seat
// keeps its pairs so far; the p-th pass in a row is the stalemate, every seat taking n/p pairs
// (shares in p-ths of a pair under a pass rule).

// husSeatsLimitDist carries the distributions of a husSeatsLimit's layers.
type husSeatsLimitDist[T any] struct {
	l *husSeatsLimit[T]
	// unit: shares count in 1/unit pairs; width: the length of a seat's block.
	unit, width int
	// none is the vector of a game over: every seat takes nothing more.
	none []T
	// layers[t%3][i][lv*p+m] is cell i's vector with t turns left, seat m to move at streak lv.
	layers [3][][][]T
}

// zeros returns a vector of every seat's block, all zero.
func (d *husSeatsLimitDist[T]) zeros() []T {
	v := make([]T, d.l.p*d.width)
	for i := range v {
		v[i] = d.l.s.zero
	}
	return v
}

// read returns cell i's vector with u turns left, seat m to move at streak lv: none with no turn
// or no pair left.
func (d *husSeatsLimitDist[T]) read(i, u, lv, m int) []T {
	if u <= 0 || d.l.s.cells[i].st.N == 0 {
		return d.none
	}
	return d.layers[u%3][i][lv*d.l.p+m]
}

// choice returns seat m's choice in cell i with t turns left at streak lv, as the values made it.
func (d *husSeatsLimitDist[T]) choice(i, t, lv, m int) rules.Choice {
	return d.l.seatChoice(&d.l.kept[t-1][i], d.l.s.cells[i].st, lv, m)
}

// turn returns every seat's distribution after choice ch of seat mv in cell c with t turns left
// at streak lv.
func (d *husSeatsLimitDist[T]) turn(c *husCell[T], t, lv int, ch rules.Choice, mv int) []T {
	l := d.l
	f, p := l.s.f, l.p
	nx := (mv + 1) % p
	if ch == rules.Pass {
		if lv == p-1 { // the stalemate: n/p pairs to every seat, n units of 1/p
			v := d.zeros()
			for b := range p {
				v[b*d.width+c.st.N*d.unit/p] = l.s.one
			}
			return v
		}
		return d.read(c.outs[ch][0].to, t-1, lv+1, nx) // the same cell
	}
	out := d.zeros()
	for k, o := range c.outs[ch] {
		pr := c.probs[ch][k]
		who, g := mv, 1
		var src []T
		if o.keep {
			src = d.read(o.to, t-1, 0, mv)
		} else {
			who, g = nx, min(o.handed, t-1) // the pair known whole, taken in a turn of its own if one is left
			src = d.read(o.to, t-1-g, 0, nx)
		}
		for b := range p {
			shift := 0
			if b == who {
				shift = g * d.unit
			}
			lo := b * d.width
			addShifted(f, out[lo:lo+d.width], pr, src[lo:lo+d.width], shift)
		}
	}
	return out
}

// husSeatsLimitDists runs the values of m at mu over every state of at most maxPairs pairs and
// follows every seat's distribution layer by layer up to the limit.
func husSeatsLimitDists[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (*husSeatsLimitDist[T], error) {
	l, err := prepareHUSSeatsLimit(ctx, f, m, mu, maxPairs)
	if err != nil {
		return nil, err
	}
	l.keep = true
	if err := l.run(ctx); err != nil {
		return nil, err
	}
	d := &husSeatsLimitDist[T]{l: l, unit: 1}
	if l.levels > 1 {
		d.unit = l.p
	}
	d.width = d.unit*maxPairs + 1
	d.none = d.zeros()
	for b := range l.p {
		d.none[b*d.width] = l.s.one
	}
	cells := l.s.cells
	for t := 1; t <= l.limit; t++ {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return nil, err
		}
		layer := make([][][]T, len(cells))
		for i, c := range cells {
			if c.st.N == 0 {
				continue
			}
			vs := make([][]T, l.levels*l.p)
			for lv := range l.levels {
				for mv := range l.p {
					ch := d.choice(i, t, lv, mv)
					if !c.legal[ch] {
						return nil, fmt.Errorf("%v: seat %d's choice %s at streak %d with %d turns left is not legal", c.st, mv, ch, lv, t)
					}
					vs[lv*l.p+mv] = d.turn(c, t, lv, ch, mv)
				}
			}
			layer[i] = vs
		}
		d.layers[t%3] = layer
	}
	return d, nil
}

// husSeatsLimitDistribution is SeatsScoreDistribution for singletons under a handover-uniform
// memory at three to eight seats under a turn limit: every seat's distribution of its share of the
// pairs left from st by the limit, seat 0 to move after no pass with the limit's turns left.
func husSeatsLimitDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	if err := checkHUSingles(m, mu); err != nil {
		return out, err
	}
	if err := husCheckState(m, st); err != nil {
		return out, err
	}
	d, err := husSeatsLimitDists(ctx, f, m, mu, max(st.N, 1))
	if err != nil {
		return out, err
	}
	v := d.read(d.l.s.at[st.Counts()], d.l.limit, 0, 0)
	w := d.unit*st.N + 1
	out = SeatsDistribution[T]{State: st, Players: mu.Players, Unit: d.unit, Prob: make([][]T, mu.Players)}
	for b := range mu.Players {
		out.Prob[b] = append([]T(nil), v[b*d.width:b*d.width+w]...)
	}
	return out, nil
}
