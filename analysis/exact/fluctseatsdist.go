package exact

import (
	"context"
	"fmt"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The score distribution at three to eight seats under a fluctuating capacity (docs/models.md
// §4.4): once the lineup's choices are solved (fluctSeats.run: every seat for itself, a policy
// per seat, a best reply at one seat; every pass streak under a pass rule), the game is a Markov
// chain on the states after the draw, the pass streak and the seat to move. A row's unknowns are,
// for each of them, every seat's distribution of the pairs it takes from there on (one vector,
// seat s's distribution in block s): the same cycles as the values' rows (multiRow, multiPassRow),
// with vectors for right-hand sides. A pair taken shifts the taker's block by a pair; a stalemate
// gives every seat n/p pairs, so under a pass rule the distributions count in p-ths of a pair.

// SeatsDistribution is the exact distribution of every seat's share of the pairs left in a game
// of three or more seats.
type SeatsDistribution[T any] struct {
	State   rules.State
	Players int
	// Unit is the denominator of the shares: 1 when every share is a whole number of pairs, the
	// number of players when a stalemate can share the pairs left.
	Unit int
	// Prob[s][i] is the probability that seat s takes i/Unit of the State.N pairs left,
	// i = 0 .. Unit*State.N.
	Prob [][]T
}

// Mean returns seat s's expected share of the pairs left.
func (d SeatsDistribution[T]) Mean(f field.Field[T], s int) T {
	sum := f.FromInt(0)
	for i, p := range d.Prob[s] {
		sum = f.Add(sum, f.Mul(p, f.FromInt(int64(i))))
	}
	return f.Div(sum, f.FromInt(int64(d.Unit)))
}

// SeatsScoreDistribution returns every seat's exact distribution of its share of the pairs left
// from state st (seat 0 to move, after no pass) in a game of three to eight seats, for every
// lineup of the pairs objective solved there: every seat for itself, policies per seat and a best
// reply at one seat, under every pass rule. It is computed with perfect memory (singletons too),
// limited memory of a fixed capacity (lru, handover-uniform; singletons under a handover-uniform
// memory without a turn limit, husingles_seatsdist.go), decay forgetting (decayseatsdist.go) and
// under a fluctuating capacity (before the capacity is drawn), and under a turn limit with
// perfect or a fixed capacity's memory or decay forgetting (the pairs left at the limit count for
// nobody), and under k copies of a face from the start of a game (CopiesSeatsDistribution from any
// state of faces); tables are refused, and the policies that play to win are solved as
// winseatsdist.go says.
func SeatsScoreDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	switch {
	case mu.Players < 3:
		return out, fmt.Errorf("players %d: SeatsScoreDistribution is for 3 to %d players (Distribution: 2)", mu.Players, rules.MaxPlayers)
	case IsHUSingles(m):
		return husSeatsDistribution(ctx, f, m, mu, st) // husingles_seatsdist.go
	case m.Memory.Fluctuation == 0 && isWinSeatsDist(mu):
		return winSeatsDistribution(ctx, f, m, mu, st, nil) // winseatsdist.go
	case m.Memory.Fluctuation == 0 && m.Variant.CopiesOf() != rules.DefaultCopies:
		return copiesStartSeatsDistribution(ctx, f, m, mu, st) // copiesseatsdist.go
	case m.Memory.Fluctuation == 0 && m.Variant.TurnLimit > 0:
		return limitSeatsDistribution(ctx, f, m, mu, st) // limitseatsdist.go
	case m.Memory.Fluctuation == 0:
		return seatsDistSweep(ctx, f, m, mu, st) // seatsdist.go
	case m.fluctLimited() && mu.Players >= 3:
		return fluctLimitSeatsDistribution(ctx, f, m, mu, st) // fluctlimitseatsdist.go
	}
	return fluctSeatsDistribution(ctx, f, m, mu, st)
}

// fluctSeatsDistribution is SeatsScoreDistribution for 2 to 8 seats: at two seats it plays the
// lineup as fluctSeats solves it (every seat maximising its own pairs), a second route to
// Distribution's for fixed policies.
func fluctSeatsDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	s, err := newFluctSeats(f, m, mu)
	if err != nil {
		return out, err
	}
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return out, err
	}
	if err := s.run(ctx, st.N, nil); err != nil {
		return out, err
	}
	d := &fluctSeatsDist[T]{s: s, unit: 1, n: st.N}
	if s.passes() {
		d.unit = s.p
	}
	d.width = d.unit*st.N + 1
	// Row 0: every seat takes nothing, whoever moves.
	start := s.f.FromInt(1)
	d.prev = [][][]T{make([][]T, s.p)}
	for t := range s.p {
		v := d.zeros()
		for b := range s.p {
			v[b*d.width] = start
		}
		d.prev[0][t] = v
	}
	d.prev2 = d.prev
	done := ctx.Done()
	for n := 1; n <= st.N; n++ {
		select {
		case <-done:
			return out, fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
		default:
		}
		if err := d.row(n); err != nil {
			return out, err
		}
	}
	out = SeatsDistribution[T]{State: st, Players: s.p, Unit: d.unit, Prob: make([][]T, s.p)}
	v := d.prev[k][0]
	for b := range s.p {
		out.Prob[b] = append([]T(nil), v[b*d.width:(b+1)*d.width]...)
	}
	return out, nil
}

// fluctSeatsDist carries the rows of every seat's distribution.
type fluctSeatsDist[T any] struct {
	s *fluctSeats[T]
	// unit: shares count in 1/unit pairs; width: the length of a seat's block (unit*n + 1 for the
	// deal's n pairs).
	unit, width, n int
	// prev[k][t] is the previous row's vector in (n-1, k) before the draw with seat t to move at
	// pass streak 0, prev2 the row's before it (n-2, read under blind flips).
	prev, prev2 [][][]T
}

func (d *fluctSeatsDist[T]) zeros() []T {
	v := make([]T, d.s.p*d.width)
	for i := range v {
		v[i] = d.s.zero
	}
	return v
}

// addShiftedSeat adds pr times src to a, seat b's block shifted by shift[b] pairs.
func (d *fluctSeatsDist[T]) addShiftedSeat(a []T, pr T, src []T, shift func(b int) int) {
	for b := range d.s.p {
		lo := b * d.width
		addShifted(d.s.f, a[lo:lo+d.width], pr, src[lo:lo+d.width], shift(b)*d.unit)
	}
}

// prevBefore returns an earlier row's vector in (n1, k) before the draw with seat t to move, read
// from the row of n (n1 = n - 1, or n - 2 under blind flips), averaged over draws more draws under
// lru (as fluctSeats.prevVec).
func (d *fluctSeatsDist[T]) prevBefore(n, n1, k, t, draws int) []T {
	rows := d.prev
	if n1 == n-2 {
		rows = d.prev2
	}
	return d.drawn(rows, n1, k, t, draws)
}

// drawn returns rows[k][t] after draws draws under lru, each forgetting beyond the capacity drawn.
func (d *fluctSeatsDist[T]) drawn(rows [][][]T, n1, k, t, draws int) []T {
	s := d.s
	if draws == 0 || !s.lru() {
		return rows[k][t]
	}
	v := d.zeros()
	for _, cp := range fluctCaps(s.m.Memory, max(n1, 1)) {
		addShifted(s.f, v, s.f.FromFrac(cp.p.Num, cp.p.Den), d.drawn(rows, n1, min(k, cp.c), t, draws-1), 0)
	}
	return v
}

// choiceAt returns seat t's choice in (n, k) with capacity c drawn at pass streak l, as the
// values' rows make it: the reply's own choices for the replying seat.
func (d *fluctSeatsDist[T]) choiceAt(t, n, k, c, l int) (rules.Choice, error) {
	s := d.s
	if t != s.reply {
		return s.seatChoiceAt(t, n, k, c, l)
	}
	ch := s.replyChoice[n][l][c][k]
	if !s.m.Legal(rules.State{N: n, J: n - k}, ch) {
		return 0, fmt.Errorf("seat %d: best-response chooses %s in %v at pass streak %d, which the model does not allow", t, ch, rules.State{N: n, J: n - k}, l)
	}
	return ch, nil
}

// row solves the row of n pairs: unknown (i*L + l)*p + t is every seat's distribution in state i
// after the draw at streak l with seat t to move.
func (d *fluctSeatsDist[T]) row(n int) error {
	s := d.s
	f, p, L := s.f, s.p, s.streaks()
	nodes, _, before := s.rowLayout(n)
	index := func(i, l, t int) int { return (i*L+l)*p + t }
	eqs := make([]decayEq[T], L*p*len(nodes))
	for i, nd := range nodes {
		for l := range L {
			for t := range p {
				ch, err := d.choiceAt(t, n, nd.k, nd.c, l)
				if err != nil {
					return err
				}
				next := (t + 1) % p
				e := decayEq[T]{a: d.zeros()}
				switch {
				case ch == rules.Pass && l == p-1:
					// The stalemate: n/p pairs to every seat, n units of 1/p.
					for b := range p {
						e.a[b*d.width+n*d.unit/p] = s.f.FromInt(1)
					}
				case ch == rules.Pass:
					to, coef := passRefs(nd.k, nd.c, before)
					for j, at := range to {
						e.to = append(e.to, index(at, l+1, next))
						e.coef = append(e.coef, coef[j])
					}
				default:
					d.turnEq(&e, n, nd, t, ch, before, func(at int) int { return index(at, 0, next) })
				}
				e.merge(f)
				eqs[index(i, l, t)] = e
			}
		}
	}
	x, err := solveRow(f, eqs)
	if err != nil {
		return fmt.Errorf("%d pairs, every seat's score distribution: %w", n, err)
	}
	cur := make([][][]T, len(before))
	for k, refs := range before {
		cur[k] = make([][]T, p)
		for t := range p {
			v := d.zeros()
			for _, rf := range refs {
				addShifted(f, v, rf.p, x[index(rf.at, 0, t)], 0)
			}
			cur[k][t] = v
		}
	}
	d.prev2, d.prev = d.prev, cur
	return nil
}

// turnEq adds to e the outcomes of seat t's choice ch (not a pass) in state nd after the draw:
// as fluctSeats.seatTurnEq, with every seat's distribution shifted by the pairs it takes.
func (d *fluctSeatsDist[T]) turnEq(e *decayEq[T], n int, nd fluctNode, t int, ch rules.Choice, before [][]fluctRef[T], ref func(at int) int) {
	s := d.s
	s.turnOutcomes(e, n, nd, t, ch, before, ref, func(pr T, o Outcome, k2, mover, draws int) {
		d.addShiftedSeat(e.a, pr, d.prevBefore(n, o.Next.N, k2, mover, draws), func(b int) int { return turnGain(o, b, t, s.p) })
	})
}

// fluctSeatsDistCost returns the cost of SeatsScoreDistribution from c, that of the lineup's
// values: the values again, then rows with the unknowns of a policy per seat, each a vector of
// every seat's distribution. Measured on lru(5) with σ = 2, three seats, every seat for itself, a
// loaded machine (memsim solve --players 3 --memory 5 --forget lru --fluctuation 2 --value-only
// [--distribution]): exact rationals 4.7 s for 12 pairs against 1.0 s, 23 s for 20; float64
// 1.7 s for 100 pairs against 0.15 s; under pass rule always 4.0 s for 6 pairs against 0.7 s,
// float64 2.1 s for 30 against 1.0 s.
func fluctSeatsDistCost[T any](f field.Field[T], pairs int, c Cost) Cost {
	n := float64(pairs)
	factor := 4.7 * math.Pow(n/12, 0.9)
	if _, isFloat := any(f).(field.Float); isFloat {
		factor = 1 + 10*n/100
	}
	return Cost{Ops: c.Ops * factor, Bytes: 2 * c.Bytes}
}
