package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// CopiesMemPolicyTable returns the choices of seat 0's policy of mu (optimal, or best-response to
// the other seat's optimal, safe or daring) in the copies model under a shared handover-uniform
// memory m (docs/models.md §4.16, "A handover-uniform memory"), two seats under every pass rule
// (with seat 0's choice just after a pass), or three to eight seats under every pass rule (with
// seat 0's choice at every pass streak; optimal every seat's own optimum, which every seat reads from the one table; best-response the replying
// seat's choice, the other seats playing mu.Opponent), in every state of faces a game of the given
// number of pairs reaches from its start: the table the engine plays optimal and best-response
// from under k copies of a face and that memory. A game of fewer pairs (a multiple of k/2) starts
// in a state the larger game reaches, so the table covers it too. Each choice is the first of the best in the order of rules.Choices, as
// CopiesChoiceValues marks it.
func CopiesMemPolicyTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) (*rules.CopiesTable, error) {
	k := m.Variant.CopiesOf()
	if !isCopiesMem(m) {
		return nil, fmt.Errorf("copies %d with %s: not the copies model under a handover-uniform memory (see CopiesPolicyTable)", k, m.Memory)
	}
	if p := mu.Policy; p != rules.PolicyOptimal && p != rules.PolicyBestResponse {
		return nil, fmt.Errorf("copies %d with %s: a table of policy %s (allowed: optimal, best-response)", k, m.Memory, p)
	}
	if l := m.Variant.TurnLimit; l > 0 {
		return nil, fmt.Errorf("copies %d with %s, turn limit %d: the choices have a layer per number of turns left (see CopiesMemPolicyTurnTables)", k, m.Memory, l)
	}
	start, err := StartCopiesState(pairs, k)
	if err != nil {
		return nil, err
	}
	s, err := newCopiesMemSolver(ctx, f, m, mu, start)
	if err != nil {
		return nil, err
	}
	if err := s.solve(); err != nil {
		return nil, err
	}
	tab := rules.NewCopiesTable(k)
	for _, c := range s.cells {
		if c.stalemate || unknownCards(c.v) == 0 {
			continue
		}
		ch := c.ch[0]
		if mu.Players >= 3 {
			ch = s.seatsPolicyChoice(c) // copiesmemseats.go
		}
		if err := setMemChoiceSeats(tab, m, mu.Players, c, ch); err != nil {
			return nil, err
		}
	}
	return tab, nil
}

// IsCopiesMem reports whether m has more than two copies of a face and a handover-uniform memory
// of a fixed capacity: the copies model under that memory (docs/models.md §4.16, "A
// handover-uniform memory"), which solves the expected values, each choice's values and the
// distributions (copiesmemdist.go).
func IsCopiesMem(m Model) bool {
	return isCopiesMem(m) && m.Variant.CopiesOf() != rules.DefaultCopies && m.Memory.Fluctuation == 0
}
