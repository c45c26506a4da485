package exact

import (
	"context"
	"fmt"
	"slices"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The luck tables of the rule variants (docs/models.md §5.6): the copies model's values by the
// state of faces (§4.16), a turn limit's by the count state and the turns left (§4.18), and the
// copies model's under a turn limit by the state of faces and the turns left. Copies under blind
// flips keep the state of faces: the solver's outcomes are then the blind turn's (copiesblind.go),
// one chance event, the pair of faces named, per turn.
// Blind flips alone keep the count state of the standard game, and LuckTable's sweep solves them.

// variantLuckTable is LuckTable for more than two copies of a face (with sequential or blind
// flips) or a turn limit.
func variantLuckTable(ctx context.Context, m Model, players, maxPairs int) (*rules.LuckTable, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	reference := fmt.Sprintf("optimal play by every seat, %s memory, pass %s", m.Memory, m.Pass)
	if m.Singletons > 0 {
		reference += fmt.Sprintf(", %d singletons", m.Singletons)
	}
	if !m.Choices.Full() {
		reference += ", choices {" + m.Choices.String() + "}"
	}
	reference += ", " + m.Variant.String()
	t, err := rules.NewVariantLuckTable(m.Variant, m.Memory, m.Pass, m.Singletons, players, maxPairs, reference)
	if err != nil {
		return nil, err
	}
	mu := Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	if m.Variant.CopiesOf() != rules.DefaultCopies {
		return t, copiesLuck(ctx, m, mu, maxPairs, t)
	}
	return t, limitLuck(ctx, m, mu, maxPairs, t)
}

// copiesLuck fills t in from the copies model: every state of faces a game of at most maxPairs
// pairs reaches from its start (under a turn limit, with every number of turns left it reaches
// them with, each deal size starting with the whole limit), two players by the two-player
// optimum's leads, more by the optimum of every seat for itself.
func copiesLuck(ctx context.Context, m Model, mu Lineup, maxPairs int, t *rules.LuckTable) error {
	s, err := newCopiesSolver(ctx, field.Float{}, m, mu)
	if err != nil {
		return err
	}
	k := m.Variant.CopiesOf()
	for n := k / 2; n <= maxPairs; n += k / 2 {
		st, err := StartCopiesState(n, k)
		if err != nil {
			return err
		}
		if _, err := s.get(st.vec().key(), s.limit); err != nil {
			return err
		}
	}
	ats := make([]copiesAt, 0, len(s.memo))
	for at := range s.memo {
		if s.limit > 0 && at.t == 0 {
			continue // the game is over: nothing is read there
		}
		ats = append(ats, at)
	}
	slices.SortFunc(ats, func(a, b copiesAt) int { // the table's slots in one order, whatever the map's
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return a.t - b.t
	})
	p := mu.Players
	value, adv := make([]float64, p), make([]float64, p)
	for _, at := range ats {
		c, v := s.memo[at], vecOfKey(at.key)
		counts := []int(v)
		switch {
		case p > 2:
			copy(value, c.self)
		case s.limit > 0:
			// The pairs left at the limit count for nobody: the seats share total, not n.
			value[0] = (c.total[0] + c.opt) / 2
			value[1] = c.total[0] - value[0]
		default:
			n := float64(v.state().Pairs())
			value[0] = (n + c.opt) / 2
			value[1] = n - value[0]
		}
		t.SetCopiesTurnValue(counts, at.t, value)
		for _, ch := range rules.Choices() {
			if !c.legal[ch] {
				continue
			}
			switch {
			case p > 2:
				after := s.selfAfter(c, v, ch)
				for r := range adv {
					adv[r] = after[r] - value[r]
				}
			case s.limit > 0:
				total := s.totalAfter(c, v, ch)
				adv[0] = (total+c.optDev[ch])/2 - value[0]
				adv[1] = (total-c.optDev[ch])/2 - value[1]
			default:
				adv[0] = (c.optDev[ch] - c.opt) / 2
				adv[1] = -adv[0]
			}
			t.SetCopiesTurnAdvantage(counts, at.t, ch, adv)
		}
	}
	return nil
}

// withOutcomes calls fn with the outcomes of choice ch in the state of faces v (cell c) set in c,
// which the solver clears once a cell is solved.
func (s *copiesSolver[T]) withOutcomes(c *copiesCell[T], v copiesVec, ch rules.Choice, fn func()) {
	outs := s.outcomes(v, ch)
	probs := make([]T, len(outs))
	for i, o := range outs {
		probs[i] = s.f.FromFrac(o.num, o.den)
	}
	c.outs[ch], c.probs[ch] = outs, probs
	defer func() { c.outs[ch], c.probs[ch] = nil, nil }()
	fn()
}

// totalAfter returns, under a turn limit with two players, the pairs both seats take by the limit
// after the mover of the state of faces v (cell c) makes choice ch and both play the two-player
// optimum afterwards.
func (s *copiesSolver[T]) totalAfter(c *copiesCell[T], v copiesVec, ch rules.Choice) T {
	var total T
	s.withOutcomes(c, v, ch, func() {
		total = s.totalOf(c, ch, func(x *copiesCell[T], _ bool) T { return x.total[0] })
	})
	return total
}

// selfAfter returns every seat's expected pairs, in order from the mover, after the mover of the
// state of faces v (cell c) makes choice ch and every seat for itself plays its optimum afterwards.
func (s *copiesSolver[T]) selfAfter(c *copiesCell[T], v copiesVec, ch rules.Choice) []T {
	var after []T
	s.withOutcomes(c, v, ch, func() {
		after = s.vecAfter(c, ch, func(x *copiesCell[T]) []T { return x.self })
	})
	return after
}

// limitLuck fills t in from the turn limit's backward induction: every count state of at most
// maxPairs pairs with every number of turns left, after a pass or not.
func limitLuck(ctx context.Context, m Model, mu Lineup, maxPairs int, t *rules.LuckTable) error {
	s, err := newLimitSweep(field.Float{}, m, mu, startOf(m, maxPairs))
	if err != nil {
		return err
	}
	p := mu.Players
	value, adv := make([]float64, p), make([]float64, p)
	s.visit = func(st rules.State, left int, c *limitCell[float64]) error {
		if st.N == 0 {
			clear(value)
			t.SetTurnValue(st, false, left, value)
			t.SetTurnValue(st, true, left, value)
			return nil
		}
		ls := &s.states[s.index(st)]
		if p > 2 {
			s.selfLuck(st, left, c, ls, t)
			return nil
		}
		own := func(n *limitCell[float64], _ bool) (float64, float64) { return n.opt[0], n.optTotal[0] }
		afterPass := func(n *limitCell[float64]) (float64, float64) { return n.opt[1], n.optTotal[1] }
		// The mover's pairs are (total + lead)/2, the other seat's (total - lead)/2.
		pairs := func(lead, total float64, out []float64) {
			out[0], out[1] = (total+lead)/2, (total-lead)/2
		}
		for flag := range 2 {
			pairs(c.opt[flag], c.optTotal[flag], value)
			t.SetTurnValue(st, flag == 1, left, value)
			for _, ch := range rules.Choices() {
				if !ls.legal[ch] {
					continue
				}
				var lead, total float64
				if ch == rules.Pass {
					lead, total = s.passSum(st, left, flag, afterPass)
				} else {
					lead, total = s.pairSum(st, left, ch, own)
				}
				pairs(lead, total, adv)
				for r := range adv {
					adv[r] -= value[r]
				}
				t.SetTurnAdvantage(st, flag == 1, left, ch, adv)
			}
		}
		return nil
	}
	return s.run(ctx)
}

// selfLuck writes to t the values of st with left turns left and its choices' advantages, three
// or more seats each for itself (pass rule never: no turn follows a pass).
func (s *limitSweep[T]) selfLuck(st rules.State, left int, c *limitCell[T], ls *limitState[T], t *rules.LuckTable) {
	f, p := s.f, s.mu.Players
	get := func(n *limitCell[T], own bool) []T { return n.self }
	rot := s.fromMover
	value, adv := make([]float64, p), make([]float64, p)
	for r := range p {
		value[r] = f.Float64(c.self[r])
	}
	t.SetTurnValue(st, false, left, value)
	t.SetTurnValue(st, true, left, value)
	for _, ch := range rules.Choices() {
		if !ls.legal[ch] || ch == rules.Pass {
			continue
		}
		after := s.vectorSum(st, left, ch, 0, 1, get, rot)
		for r := range p {
			adv[r] = f.Float64(after[r]) - value[r]
		}
		t.SetTurnAdvantage(st, false, left, ch, adv)
		t.SetTurnAdvantage(st, true, left, ch, adv)
	}
}
