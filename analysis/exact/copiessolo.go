package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds solitaire's distribution of the number of turns with k copies of a face and
// perfect memory (docs/models.md §4.16): the copies model's memoised recursion, each state's
// distribution that of the states its choice leads to, a turn later.

// CheckSolitaireTurnsOf reports whether SolitaireTurns gives model m's distribution of the number
// of turns: the models of CheckSolitaireTurns, decay forgetting without singletons and, with
// perfect memory, a shared handover-uniform memory (copiesmemdist.go) or a shared decay memory
// (copiesdecaydist.go) and no turn limit, k copies of a face.
func CheckSolitaireTurnsOf(m Model) error {
	if m.Variant.CopiesOf() != rules.DefaultCopies && m.Variant.TurnLimit == 0 && m.Memory.Fluctuation == 0 &&
		(m.Memory.Perfect() || isCopiesMem(m) && checkCopiesMemModel(m) == nil || isCopiesDecay(m) && checkCopiesDecayModel(m) == nil) {
		return nil
	}
	return checkSoloTurns(m, "distribution of the number of turns is", true)
}

// solitaireTurnsCopies is SolitaireTurns with k copies of a face, no turn limit. With perfect
// memory a game of n pairs takes at most 3n turns (every turn turns up an unseen card or takes a
// pair both of whose cards are known), and no state comes back to itself; a handover-uniform
// memory has its own (copiesmemdist.go).
func solitaireTurnsCopies[T any](ctx context.Context, f field.Field[T], m Model, p rules.Policy, st rules.State, maxTurns int) (TurnsDistribution[T], error) {
	var d TurnsDistribution[T]
	if m.Variant.TurnLimit > 0 {
		return d, fmt.Errorf("turn limit %d with copies %d: solitaire's distribution of the number of turns is built without a turn limit", m.Variant.TurnLimit, m.Variant.CopiesOf())
	}
	if st.J != st.N || st.S != 0 {
		return d, fmt.Errorf("state %v with copies %d: the distribution of the number of turns is computed from the start of a game (every card unseen, no singletons)", st, m.Variant.CopiesOf())
	}
	cs, err := StartCopiesState(st.N, m.Variant.CopiesOf())
	if err != nil {
		return d, err
	}
	if isCopiesMem(m) {
		return copiesMemSolitaireTurns(ctx, f, m, p, st, cs, maxTurns) // copiesmemdist.go
	}
	if isCopiesDecay(m) {
		return copiesDecaySolitaireTurns(ctx, f, m, p, st, cs, maxTurns) // copiesdecaydist.go
	}
	s, err := newCopiesSolver(ctx, f, m, Lineup{Players: 1, Policy: p, Opponent: p})
	if err != nil {
		return d, err
	}
	s.soloTurns = maxTurns + 1
	c, err := s.get(cs.vec().key(), 0)
	if err != nil {
		return d, err
	}
	d.State, d.MaxTurns, d.Prob = st, maxTurns, c.soloDist
	d.Tail, d.Stopped = s.one, s.zero
	for _, x := range d.Prob {
		d.Tail = f.Sub(d.Tail, x)
	}
	return d, nil
}

// soloTurnsDist sets c.soloDist, solitaire's distribution of the number of turns from c (up to
// s.soloTurns - 1 turns), after c.soloChoice: a turn, and a turn for each pair it leaves known
// whole, then the next state's distribution.
func (s *copiesSolver[T]) soloTurnsDist(c *copiesCell[T]) {
	f := s.f
	vec := s.zeros(s.soloTurns)
	for i, o := range c.outs[c.soloChoice] {
		nx, g := s.next(c, o)
		pr := c.probs[c.soloChoice][i]
		for t := 1 + g; t < len(vec); t++ {
			vec[t] = f.Add(vec[t], f.Mul(pr, nx.soloDist[t-1-g]))
		}
	}
	c.soloDist = vec
}
