package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat's score distribution at three to eight seats for singletons under a shared
// handover-uniform memory (docs/models.md §4.4, "Singletons under a handover-uniform memory", and
// §4.7). Once the values (husingles_seats.go) fix every seat's choice in every cell and pass
// streak (the optimum of every seat for itself, a policy per seat, a best reply at one seat), the
// game is a Markov chain on the cells, the pass streak and the seat to move. A row's unknowns are,
// for each of them, one vector of every seat's distribution of the pairs it takes from there on
// (seat b's distribution in block b, by seat and not from the mover): the values' equations
// (seatsEq) with vectors for right-hand sides, one linear system per number of pairs, as decay's
// rows (decayseatsdist.go). A pair the mover takes shifts its own block by a pair; a hand-over
// reads the next seat's vector, its block shifted by the pair the turn left known whole; a
// hand-over that takes no pair stays in the row at streak 0; a pass at streak l < p-1 hands the
// same cell to the next seat at streak l+1, and at p-1 is the stalemate, every seat taking n/p
// pairs, so under a pass rule the distributions count in p-ths of a pair.

// husSeatsDists returns, for every cell with at most maxPairs pairs, every seat's distribution
// with seat t to move at pass streak 0 (dists[i][t], p blocks of width entries), shares counted in
// 1/unit pairs, with the choices s.solve found.
func (s *husSolver[T]) husSeatsDists(maxPairs int) (dists [][][]T, unit, width int, err error) {
	f, p, levels := s.f, s.mu.Players, s.seatLevels()
	unit = 1
	if s.m.Pass != rules.PassNever {
		unit = p
	}
	width = unit*maxPairs + 1
	zeros := func() []T {
		v := make([]T, p*width)
		for i := range v {
			v[i] = s.zero
		}
		return v
	}
	dists = make([][][]T, len(s.cells))
	for n := 0; n <= maxPairs && n < len(s.rows); n++ {
		row := s.rows[n]
		if n == 0 {
			for _, i := range row {
				dists[i] = make([][]T, p)
				for t := range p {
					v := zeros()
					for b := range p {
						v[b*width] = s.one
					}
					dists[i][t] = v
				}
			}
			continue
		}
		pos := make(map[int]int, len(row))
		for k, i := range row {
			pos[i] = k
		}
		index := func(k, l, t int) int { return (k*levels+l)*p + t }
		eqs := make([]decayEq[T], len(row)*levels*p)
		for k, i := range row {
			c := s.cells[i]
			for l := range levels {
				for t := range p {
					ch := s.seatsDistChoice(c, t, l)
					next := (t + 1) % p
					e := decayEq[T]{a: zeros()}
					switch {
					case !c.legal[ch]:
						return nil, 0, 0, fmt.Errorf("%v: seat %d's choice %s at streak %d is not legal", c.st, t, ch, l)
					case ch == rules.Pass && l == p-1:
						// The stalemate: n/p pairs to every seat, n units of 1/p.
						for b := range p {
							e.a[b*width+n*unit/p] = s.one
						}
					case ch == rules.Pass:
						e.to, e.coef = []int{index(k, l+1, next)}, []T{s.one}
					default:
						for q, o := range c.outs[ch] {
							pr := c.probs[ch][q]
							if k2, ok := pos[o.to]; ok {
								if o.keep || o.handed != 0 {
									return nil, 0, 0, fmt.Errorf("%v %s: an outcome in the same row takes a pair", c.st, ch)
								}
								e.to = append(e.to, index(k2, 0, next))
								e.coef = append(e.coef, pr)
								continue
							}
							mover, taker, gain := next, next, o.handed
							if o.keep {
								mover, taker, gain = t, t, 1
							}
							src := dists[o.to][mover]
							for b := range p {
								shift := 0
								if b == taker {
									shift = gain * unit
								}
								lo := b * width
								addShifted(f, e.a[lo:lo+width], pr, src[lo:lo+width], shift)
							}
						}
						e.merge(f)
					}
					eqs[index(k, l, t)] = e
				}
			}
		}
		x, err := solveRow(f, eqs)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("singletons with %s, every seat's score distribution at %d seats, %d pairs: %w", s.m.Memory, p, n, err)
		}
		for k, i := range row {
			dists[i] = make([][]T, p)
			for t := range p {
				dists[i][t] = x[index(k, 0, t)]
			}
		}
		if err := s.ctx.Err(); err != nil {
			return nil, 0, 0, err
		}
	}
	return dists, unit, width, nil
}

// seatsDistChoice returns seat t's choice in c at pass streak l, as the values made it: every
// seat for itself the optimum's, a lineup each seat's (a best-response seat's solved reply).
func (s *husSolver[T]) seatsDistChoice(c *husCell[T], t, l int) rules.Choice {
	if isSelfish(s.mu) {
		return c.seats.selfCh[l]
	}
	return c.seats.seatCh[l][t]
}

// checkHUSSeatsDistribution is CheckSeatsDistribution for singletons under a handover-uniform
// memory: the lineups the values solve at three to eight seats, with and without a turn limit
// (husingles_seatslimitdist.go).
func checkHUSSeatsDistribution(m Model, mu Lineup) error {
	return checkHUSingles(m, mu)
}

// husSeatsDistribution is SeatsScoreDistribution for singletons under a handover-uniform memory:
// every seat's distribution of its share of the pairs left from st, seat 0 to move after no pass.
func husSeatsDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	if err := checkHUSSeatsDistribution(m, mu); err != nil {
		return out, err
	}
	if m.Variant.TurnLimit > 0 {
		return husSeatsLimitDistribution(ctx, f, m, mu, st) // husingles_seatslimitdist.go
	}
	s, c, err := husStart(ctx, f, m, mu, st)
	if err != nil {
		return out, err
	}
	dists, unit, width, err := s.husSeatsDists(st.N)
	if err != nil {
		return out, err
	}
	v := dists[s.at[c.st]][0]
	out = SeatsDistribution[T]{State: st, Players: mu.Players, Unit: unit, Prob: make([][]T, mu.Players)}
	for b := range mu.Players {
		out.Prob[b] = append([]T(nil), v[b*width:(b+1)*width]...)
	}
	return out, nil
}
