package exact

import (
	"context"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// husSolitaireTable is SolitaireTable for singletons under a handover-uniform memory
// (husingles_solo.go): every state of at most maxPairs pairs, in order of n, then j, then f.
func husSolitaireTable[T any](ctx context.Context, f field.Field[T], m Model, maxPairs int, visit func(*SolitaireCell[T]) error) error {
	mu := Lineup{Players: 1, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	s, err := newHUSSolver(ctx, f, m, mu, maxPairs)
	if err != nil {
		return err
	}
	if err := s.solve(); err != nil {
		return err
	}
	var sc SolitaireCell[T]
	// The cells of a row are made in order of j, then f (newHUSSolver).
	for _, row := range s.rows[1:] {
		for _, i := range row {
			c := s.cells[i]
			sc.State, sc.Turns, sc.Lucky, sc.Choice = c.st, c.solo[0], c.solo[1], c.soloChoice
			sc.Best, sc.Legal = sc.Best[:0], [rules.NumChoices]bool{}
			for _, ch := range rules.Choices() {
				if !c.legal[ch] || ch == rules.Pass {
					continue
				}
				sc.Legal[ch] = true
				e := s.soloEq(c, ch, nil)
				sc.ChoiceTurns[ch], sc.ChoiceLucky[ch] = e.a[0], e.a[1]
				if f.Cmp(e.a[0], sc.Turns) == 0 {
					sc.Best = append(sc.Best, ch)
				}
			}
			if err := visit(&sc); err != nil {
				return err
			}
		}
	}
	return nil
}
