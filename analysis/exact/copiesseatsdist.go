package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat's score distribution at three to eight seats under k copies of a face (docs/models.md
// §4.7, §4.16): the copies model's memoised recursion fixes every seat's choice in every state of
// faces (every seat for itself, a policy per seat, a best reply at one seat; at every pass streak
// under two-known and always; with the turns left under a turn limit); every turn takes a pair or
// turns up a card that was not remembered, so no state refers to itself and the distributions
// follow by the same recursion. A state's unknowns are, for each seat t to move (and each pass
// streak k), one vector of every seat's distribution of the pairs it takes from there on (seat s's
// distribution in block s). A pair taken shifts the taker's block by a pair, the pairs the next
// seat takes first shift its block; the p-th pass in a row is a stalemate, n/p pairs to every seat,
// so under a pass rule the distributions count in p-ths of a pair; under a turn limit the pairs
// left at the limit count for nobody.

// copiesSeatsDist carries the shape of every seat's distribution in a copies solver.
type copiesSeatsDist[T any] struct {
	// unit: shares count in 1/unit pairs; width: the length of a seat's block (unit*pairs + 1);
	// levels: the pass streaks told apart (p under a pass rule, else 1).
	unit, width, levels int
	// none is the vector of a game over: every seat takes nothing more.
	none []T
}

// CopiesSeatsDistribution returns every seat's exact distribution of its share of the pairs left
// from the state of faces st (seat 0 to move, after no pass; with the model's turn limit as the
// turns left) in a game of three to eight seats under k copies of a face (docs/models.md §4.16):
// every seat for itself, policies per seat (optimal, safe, daring, best-response at one seat),
// every pass rule, with or without a turn limit. SeatsDistribution.State is st.RulesState().
func CopiesSeatsDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	if err := checkCopiesSeatsDistribution(m, mu); err != nil {
		return out, err
	}
	if err := st.Validate(); err != nil {
		return out, err
	}
	if k := m.Variant.CopiesOf(); k != st.Copies() {
		return out, fmt.Errorf("the state has %d copies of a face, the model %d", st.Copies(), k)
	}
	s, err := newCopiesSolver(ctx, f, m, mu)
	if err != nil {
		return out, err
	}
	p := mu.Players
	d := &copiesSeatsDist[T]{unit: 1, levels: 1}
	if s.streaks() {
		d.unit, d.levels = p, p
	}
	n := st.Pairs()
	d.width = d.unit*n + 1
	d.none = s.zeros(p * d.width)
	for b := range p {
		d.none[b*d.width] = s.one
	}
	s.sdist = d
	c, err := s.get(st.vec().key(), s.limit)
	if err != nil {
		return out, err
	}
	v := s.seatsDistOf(c, 0, 0)
	out = SeatsDistribution[T]{State: st.RulesState(), Players: p, Unit: d.unit, Prob: make([][]T, p)}
	for b := range p {
		out.Prob[b] = append([]T(nil), v[b*d.width:(b+1)*d.width]...)
	}
	return out, nil
}

// copiesStartSeatsDistribution is CopiesSeatsDistribution from the start of a game of st.N pairs.
func copiesStartSeatsDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (SeatsDistribution[T], error) {
	if st.J != st.N || st.S != 0 || st.F != 0 {
		return SeatsDistribution[T]{}, fmt.Errorf("copies %d: state %v: the count state (n, j) solves the start of a game only, (n, n); see CopiesSeatsDistribution", m.Variant.CopiesOf(), st)
	}
	if err := m.Validate(); err != nil {
		return SeatsDistribution[T]{}, err
	}
	start, err := StartCopiesState(st.N, m.Variant.CopiesOf())
	if err != nil {
		return SeatsDistribution[T]{}, err
	}
	return CopiesSeatsDistribution(ctx, f, m, mu, start)
}

// checkCopiesSeatsDistribution reports whether CopiesSeatsDistribution solves lineup mu in model m:
// the copies model's lineups of three to eight seats (checkCopies) that play for pairs.
func checkCopiesSeatsDistribution(m Model, mu Lineup) error {
	if mu.Players < 3 || mu.Players > rules.MaxPlayers {
		return fmt.Errorf("players %d: every seat's score distribution is computed for 3 to %d players", mu.Players, rules.MaxPlayers)
	}
	return checkCopies(m, mu)
}

// seatsDistOf returns the vector of cell c with seat t to move at streak k: a game over where c has
// none (no card left to turn, or no turn left).
func (s *copiesSolver[T]) seatsDistOf(c *copiesCell[T], k, t int) []T {
	if c.sdist == nil {
		return s.sdist.none
	}
	return c.sdist[k*s.mu.Players+t]
}

// seatsDist computes the vectors of c once its values (and so every seat's choices) are solved,
// the levels of the pass streak from the last down.
func (s *copiesSolver[T]) seatsDist(c *copiesCell[T]) {
	p := s.mu.Players
	d := s.sdist
	c.sdist = make([][]T, d.levels*p)
	for k := d.levels - 1; k >= 0; k-- {
		for t := range p {
			ch := s.seatChoice(c, t)
			if c.streak != nil {
				ch = s.seatChoiceAt(c, t, k)
			}
			c.sdist[k*p+t] = s.seatsDistAfter(c, t, k, ch)
		}
	}
}

// seatsDistAfter returns every seat's distribution when seat t makes choice ch in c at streak k,
// every seat playing its policy afterwards.
func (s *copiesSolver[T]) seatsDistAfter(c *copiesCell[T], t, k int, ch rules.Choice) []T {
	p := s.mu.Players
	d := s.sdist
	nx := (t + 1) % p
	if ch == rules.Pass {
		if k == p-1 {
			v := s.zeros(p * d.width)
			for b := range p {
				v[b*d.width+c.pairs*d.unit/p] = s.one
			}
			return v
		}
		// The same state (with one turn fewer under a limit) to the next seat at the next streak;
		// without a limit passNext is c, whose level k+1 is solved.
		return s.seatsDistOf(c.passNext, k+1, nx)
	}
	v := s.zeros(p * d.width)
	for i, o := range c.outs[ch] {
		x, g := s.next(c, o)
		who, gain := t, 1
		if !o.keep {
			who, gain = nx, g
		}
		src := s.seatsDistOf(x, 0, who)
		for b := range p {
			shift := 0
			if b == who {
				shift = gain * d.unit
			}
			lo := b * d.width
			addShifted(s.f, v[lo:lo+d.width], c.probs[ch][i], src[lo:lo+d.width], shift)
		}
	}
	return v
}

// copiesSeatsDistCost returns the cost of every seat's distribution under k copies of a face up to
// pairs pairs: for every cell of the copies model (CopiesCells) p vectors per pass streak, each of
// every seat's distribution (p blocks of unit*pairs + 1 entries), whose entries every outcome (a
// few per face class) adds once, all of them kept in the memo; an entry weighs copiesSeatsDistFloat
// seconds in float64, copiesSeatsDistRat times the deal size in exact rationals.
func copiesSeatsDistCost[T any](f field.Field[T], m Model, mu Lineup, pairs int) (Cost, error) {
	if err := checkSeatsDistribution(m, mu); err != nil {
		return Cost{}, err
	}
	k := m.Variant.CopiesOf()
	cells := CopiesCells(pairs, k, m.Variant.TurnLimit)
	if cells < 0 {
		return Cost{}, fmt.Errorf("copies %d, pairs %d: more than 2^62 states of faces", k, pairs)
	}
	p := float64(mu.Players)
	unit, levels := 1.0, 1.0
	if m.Pass != rules.PassNever {
		unit, levels = p, p
	}
	entries := float64(cells) * p * levels * p * (unit*float64(pairs) + 1)
	outs := float64(k + 2)
	seconds, entry := copiesSeatsDistFloat*entries*outs, 8.0
	if _, exact := f.Exact(f.FromInt(0)); exact {
		seconds, entry = copiesSeatsDistRat*float64(pairs)*entries*outs, 64*max(1, float64(pairs)/8)
	}
	return Cost{Ops: seconds * OpsPerSecond, Bytes: gcHeadroom * entries * entry}, nil
}

// The seconds of one entry of every seat's distributions under copies (copiesSeatsDistCost).
const (
	copiesSeatsDistFloat = 2e-8
	copiesSeatsDistRat   = 1.2e-7
)
