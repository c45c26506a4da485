package exact

import (
	"context"
	"math"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat's score distribution at three to eight seats under a turn limit (docs/models.md
// §4.7, §4.18): the limit sweep's backward induction over the turns left fixes every seat's choice
// in every state, number of turns left t and pass streak k (every seat for itself, a policy per
// seat, a best reply at one seat); the game is then a Markov chain whose every step goes to fewer
// turns left, so the distributions follow by the same induction, with no system to solve. A
// state's unknowns with t turns left are, for each streak k and seat m to move, one vector of every
// seat's distribution of the pairs it takes from there on by the limit (seat s's distribution in
// block s). A pair taken shifts the taker's block by a pair; a pair known whole that the next seat
// has no turn left for counts for nobody; at t = 0 the pairs left count for nobody, so every seat
// keeps its pairs so far (the seats' shares need not add up to n); the p-th pass in a row is a
// stalemate, n/p pairs to every seat, so under a pass rule the distributions count in p-ths of a
// pair.

// limitSeatsDist carries every seat's distribution of the states of a limit sweep.
type limitSeatsDist[T any] struct {
	s *limitSweep[T]
	// unit: shares count in 1/unit pairs; width: the length of a seat's block (unit*N + 1 for the
	// solved state's N pairs); streaks: the pass streaks told apart (p under a pass rule, else 1).
	unit, width, streaks int
	one                  T
	pols                 []rules.Policy
	reply                int
	// layers[t%4][i][k*p+m] is the vector of the state at index i (limitSweep.index) with t turns
	// left, seat m to move at streak k; the last four layers, as the sweep's.
	layers [4][][][]T
	// none is the vector of a game over: every seat takes nothing more.
	none []T
}

// limitSeatsDistribution is SeatsScoreDistribution under a turn limit.
func limitSeatsDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	if err := checkSeatsDistribution(m, mu); err != nil {
		return out, err
	}
	s, err := newLimitSweep(f, m, mu, st)
	if err != nil {
		return out, err
	}
	p := mu.Players
	d := &limitSeatsDist[T]{s: s, unit: 1, streaks: 1, one: f.FromInt(1), pols: s.pols, reply: mu.replySeat()}
	if s.streaked() {
		d.unit, d.streaks = p, p
	}
	d.width = d.unit*st.N + 1
	d.none = d.zeros()
	for b := range p {
		d.none[b*d.width] = d.one
	}
	s.visit = func(x rules.State, t int, c *limitCell[T]) error {
		d.cell(x, t, c)
		return nil
	}
	if err := s.run(ctx); err != nil {
		return out, err
	}
	v := d.none
	if st.N > 0 {
		v = d.at(st, s.limit)[0]
	}
	out = SeatsDistribution[T]{State: st, Players: p, Unit: d.unit, Prob: make([][]T, p)}
	for b := range p {
		out.Prob[b] = append([]T(nil), v[b*d.width:(b+1)*d.width]...)
	}
	return out, nil
}

// zeros returns a vector of every seat's block, all zero.
func (d *limitSeatsDist[T]) zeros() []T {
	v := make([]T, d.s.mu.Players*d.width)
	for i := range v {
		v[i] = d.s.zero
	}
	return v
}

// at returns the vectors of st with t >= 1 turns left, allocating the layer on first use.
func (d *limitSeatsDist[T]) at(st rules.State, t int) [][]T {
	l := &d.layers[t%4]
	if *l == nil {
		*l = make([][][]T, len(d.s.valid))
	}
	return (*l)[d.s.index(st)]
}

// vector returns the vector of st with t turns left, seat m to move at streak k: a game over
// when no turn or no pair is left.
func (d *limitSeatsDist[T]) vector(st rules.State, t, k, m int) []T {
	if t <= 0 || st.N == 0 {
		return d.none
	}
	return d.at(st, t)[k*d.s.mu.Players+m]
}

// choice returns seat m's choice in st at streak k, as the values' sweep fixed it (multi,
// multiPass).
func (d *limitSeatsDist[T]) choice(st rules.State, c *limitCell[T], m, k int) rules.Choice {
	s := d.s
	if s.streaked() {
		return s.seatChoiceAt(st, c, m, d.reply, k, d.pols[m])
	}
	switch {
	case m == d.reply:
		return c.reply
	case d.pols[m] != rules.PolicyOptimal:
		return s.fixedChoice(m, d.pols[m], st, 0)
	}
	return c.selfChoice
}

// cell computes the vectors of st with t turns left once the sweep has computed its values.
func (d *limitSeatsDist[T]) cell(st rules.State, t int, c *limitCell[T]) {
	s := d.s
	if st.N == 0 {
		return
	}
	p := s.mu.Players
	vs := make([][]T, d.streaks*p)
	for k := range d.streaks {
		for m := range p {
			vs[k*p+m] = d.turn(st, t, k, m, d.choice(st, c, m, k))
		}
	}
	d.at(st, t)
	d.layers[t%4][s.index(st)] = vs
}

// turn returns every seat's distribution when seat m makes choice ch in st with t turns left at
// streak k, every seat playing its policy afterwards.
func (d *limitSeatsDist[T]) turn(st rules.State, t, k, m int, ch rules.Choice) []T {
	s := d.s
	f := s.f
	p := s.mu.Players
	nx := (m + 1) % p
	if ch == rules.Pass {
		switch {
		case k == p-1:
			v := d.zeros()
			for b := range p {
				v[b*d.width+st.N*d.unit/p] = d.one
			}
			return v
		case t == 1:
			return d.none
		case s.hand == nil:
			return d.vector(st, t-1, k+1, nx)
		}
		// Under decay forgetting the pass's hand-over forgets among the remembered cards: the
		// next seat moves at streak k+1 in each state it leaves.
		v := d.zeros()
		ls := &s.states[s.index(st)]
		for i, o := range ls.outs[rules.Pass] {
			addShifted(f, v, ls.probs[rules.Pass][i], d.vector(o.Next, t-1, k+1, nx), 0)
		}
		return v
	}
	v := d.zeros()
	ls := &s.states[s.index(st)]
	for i, o := range ls.outs[ch] {
		rest, gain, who := t-1, o.MoverGain, m
		if !o.Continue {
			gain = min(o.NextGain, t-1)
			rest, who = t-1-gain, nx
		}
		src := d.vector(o.Next, rest, 0, who)
		for b := range p {
			shift := 0
			if b == who {
				shift = gain * d.unit
			}
			lo := b * d.width
			addShifted(f, v[lo:lo+d.width], ls.probs[ch][i], src[lo:lo+d.width], shift)
		}
	}
	return v
}

// limitSeatsDistCost returns the cost of SeatsScoreDistribution under a turn limit up to pairs
// pairs: the limit sweep's values (estimateLimit), then for every state and number of turns left p
// vectors, each of every seat's distribution (p blocks of unit*pairs + 1 entries), whose entries
// every outcome adds once (under a pass rule a pass mostly hands on its successor's vector, so the
// streaks add little but the finer unit); an entry weighs limitSeatsDistFloat seconds in float64,
// limitSeatsDistRat times the deal size in exact rationals. The memory holds four layers of the
// vectors of every streak. Measured on a heavily loaded 2-core machine (memsim solve --players 3
// --value-only --distribution, /usr/bin/time): --pairs 12 --turn-limit 24 2.05 s (the values 0.29
// s), with --pass always 6.2 s and 103 MB; --pairs 26 --turn-limit 52 --float 0.69 s (0.12 s),
// with --pass always 2.1 s and 88 MB. The estimate is 0.85 to 1.3 times those times.
func limitSeatsDistCost[T any](f field.Field[T], m Model, mu Lineup, pairs int) (Cost, error) {
	if err := checkSeatsDistribution(m, mu); err != nil {
		return Cost{}, err
	}
	c, err := estimateLimit(f, m, mu, pairs, CallEvaluate)
	if err != nil {
		return c, err
	}
	base := m
	base.Variant.TurnLimit = 0
	p := float64(mu.Players)
	unit, streaks := 1.0, 1.0
	if m.Pass != rules.PassNever {
		unit, streaks = p, p
	}
	width := unit*float64(pairs) + 1
	states := SweepStates(base, Lineup{Players: 2}, pairs)
	entries := states * p * p * width * float64(m.Variant.TurnLimit)
	seconds, entry := limitSeatsDistFloat*entries, 8.0
	if _, exact := f.Exact(f.FromInt(0)); exact {
		seconds, entry = limitSeatsDistRat*float64(pairs)*entries, 64*math.Max(1, float64(pairs)/8)
	}
	live := 4 * states * p * p * streaks * width * entry
	return Cost{Ops: c.Ops + seconds*OpsPerSecond, Bytes: c.Bytes + gcHeadroom*live}, nil
}

// The seconds of one entry of every seat's distributions under a turn limit (limitSeatsDistCost):
// measured.
const (
	limitSeatsDistFloat = 1.3e-7
	limitSeatsDistRat   = 6e-7
)

// checkLimitSeatsDistribution reports whether limitSeatsDistribution solves lineup mu in model m
// under its turn limit: the lineups the limit sweep values at three to eight seats (Lineup.
// validateLimit), with perfect memory, a limited memory of a fixed capacity or decay forgetting.
func checkLimitSeatsDistribution(m Model, mu Lineup) error {
	return mu.validateLimit(m)
}
