package exact

import "memsim/sim/rules"

// Decay forgetting under a turn limit (docs/models.md §4.14, §4.18). The turn's outcomes are the
// decay model's (decayOutcomes): each remembered card forgotten with probability q at the
// hand-over, then the capacity applied. A forgotten card leaves the next seat in a state of the
// same size, which without a limit ties the states of a size together; under a limit that state
// has one turn fewer, so the backward induction over the turns left solves it as it solves the
// other memories. A pass hands over too: its hand-over forgets among the remembered cards, and the
// next seat moves just after a pass in whichever state of the same size is left, with t - 1 turns
// left. A pass answered by a pass is the stalemate, whatever was forgotten in between.

// DecayLimitRationalWork bounds the exact tables and tournament values of decay forgetting under a
// turn limit: they are exact while the deal's pairs times the limit are at most this, float64
// beyond (Model.RationalLimit). Every layer of turns left multiplies the denominators by powers of
// q and 1 - q, so the numbers grow with the limit as well as the deal: the optimal table of 16
// pairs under a limit of 32 takes about 20 s in exact rationals, of 8 pairs under 64 about 5 s
// (memsim solve --forget decay --q 0.1 --table --pairs-max N --turn-limit T; 0.04 s with --float).
// DecayLimitWinRationalWork is the same for a policy that plays to win, whose values come at
// every lead (6 pairs under a limit of 24: 51 s; memsim solve --pairs 6 --forget decay --q 0.1
// --turn-limit 24 --policy win-optimal --value-only --big).
const (
	DecayLimitRationalWork    = 256
	DecayLimitWinRationalWork = 48
)

// prepareDecay sets the sweep up to read the decay model's outcomes, with their probabilities in
// the sweep's field.
func (s *limitSweep[T]) prepareDecay() error {
	h, err := newDecayHand(s.f, s.m.Memory, s.maxN+s.m.Singletons)
	if err != nil {
		return err
	}
	s.hand = h
	return nil
}

// afterPass calls visit with every state a pass in st leaves the next seat in, with its
// probability (nil when the pass leaves st itself, as every memory but decay does) and its values
// with t - 1 turns left, t >= 2.
func (s *limitSweep[T]) afterPass(st rules.State, t int, visit func(p *T, succ *limitCell[T])) {
	if s.hand == nil {
		visit(nil, s.cell(st, t-1))
		return
	}
	ls := &s.states[s.index(st)]
	for i, o := range ls.outs[rules.Pass] {
		visit(&ls.probs[rules.Pass][i], s.cell(o.Next, t-1))
	}
}

// weigh returns v times *p, or v when p is nil.
func (s *limitSweep[T]) weigh(p *T, v T) T {
	if p == nil {
		return v
	}
	return s.f.Mul(*p, v)
}

// passPairs returns the lead and total read by get off the states a pass in st leaves, with t - 1
// turns left, weighed by their probabilities (the lead still the next seat's).
func (s *limitSweep[T]) passPairs(st rules.State, t int, get func(c *limitCell[T]) (T, T)) (T, T) {
	if s.hand == nil {
		return get(s.cell(st, t-1))
	}
	f := s.f
	lead, total := s.zero, s.zero
	s.afterPass(st, t, func(p *T, succ *limitCell[T]) {
		l, tt := get(succ)
		lead, total = f.Add(lead, s.weigh(p, l)), f.Add(total, s.weigh(p, tt))
	})
	return lead, total
}

// passLeads returns the values read by get off the states a pass in st leaves, with t - 1 turns
// left, weighed by their probabilities.
func (s *limitSweep[T]) passLeads(st rules.State, t int, get func(c *limitCell[T]) leadValues[T]) leadValues[T] {
	if s.hand == nil {
		return get(s.cell(st, t-1))
	}
	f := s.f
	out := leadValues[T]{win: s.zero, draw: s.zero, lead: s.zero, total: s.zero}
	s.afterPass(st, t, func(p *T, succ *limitCell[T]) {
		v := get(succ)
		out.win = f.Add(out.win, s.weigh(p, v.win))
		out.draw = f.Add(out.draw, s.weigh(p, v.draw))
		out.lead = f.Add(out.lead, s.weigh(p, v.lead))
		out.total = f.Add(out.total, s.weigh(p, v.total))
	})
	return out
}

// passSeats returns the seat vector read by get off the states a pass in st leaves, with t - 1
// turns left, weighed by their probabilities.
func (s *limitSweep[T]) passSeats(st rules.State, t int, get func(l *limitStreaks[T]) []T) []T {
	if s.hand == nil {
		return get(s.cell(st, t-1).streaks)
	}
	f := s.f
	out := append([]T(nil), s.zeros...)
	s.afterPass(st, t, func(p *T, succ *limitCell[T]) {
		for i, x := range get(succ.streaks) {
			out[i] = f.Add(out[i], s.weigh(p, x))
		}
	})
	return out
}
