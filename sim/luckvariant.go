package sim

import (
	"fmt"

	"memsim/sim/rules"
)

// Luck-adjusted scores under the rule variants (docs/models.md §1.7, §5.6). The engine adjusts a
// variant's games in the model's own mode only: every seat follows a table and they share one
// memory of the table's model, so that the variant's exact model (the copies model's states of
// faces, a turn limit's turns left, blind flips' pair of faces named together) gives the true
// conditional distribution of every turn. A turn's luck is then Φ after it minus Q(st, c), and the
// adjusted score is V(start) plus the advantages of the choices made, read from the table by the
// state the variant's model reads.

// checkVariantLuck reports whether the setup's luck table is of the game's rule variant and, for a
// variant other than the standard game, whether the model's own mode adjusts the games (model).
func (s Setup) checkVariantLuck(model bool) error {
	t, v := s.Luck, s.Variant.Normal()
	if tv := t.Variant(); tv != v {
		return fmt.Errorf("luck table of %s, the game has %s", tv, v)
	}
	if v.Standard() {
		return nil
	}
	if !model {
		return fmt.Errorf("luck table of %s: it adjusts games in which every seat follows a policy table and shares its model's %s memory under pass rule %s; other games of %s are not luck-adjusted",
			v, t.Memory(), t.Pass(), v)
	}
	for i, p := range s.Players {
		if p.Luck != nil {
			return fmt.Errorf("player %q (seat %d): a player's own luck table adjusts games of the standard game only, not %s", p.Name, i, v)
		}
	}
	return nil
}

// variantStart returns every seat's value at the start st of a game (seat 0 to move), or nil where
// the table has none.
func (s Setup) variantStart(st rules.State) []float64 {
	t, v := s.Luck, s.Variant
	switch {
	case v.CopiesOf() != rules.DefaultCopies:
		counts := make([]int, v.CopiesOf())
		counts[v.CopiesOf()-2] = v.Faces(s.Pairs) // every face unknown, all its cards on the table
		return t.CopiesValues(rules.AppendCopiesKey(nil, counts))
	case v.TurnLimit > 0:
		return t.TurnValues(st, false, v.TurnLimit)
	}
	return t.Values(st, false)
}

// luckAdvantages returns every seat's advantage of choice c made in st (after a pass or not) by
// the seat whose memory is m, from the position the variant's model reads: the state of faces
// m sees, or st with the turns left.
func (g *Game) luckAdvantages(m *memory, st rules.State, afterPass bool, c rules.Choice) []float64 {
	t := g.setup.Luck
	switch {
	case g.copies != rules.DefaultCopies:
		return t.CopiesAdvantages(g.copiesKey(m), c)
	case g.limit > 0:
		return t.TurnAdvantages(st, afterPass, g.turnsLeft(), c)
	}
	return t.Advantages(st, afterPass, c)
}
