package rules

import "fmt"

// NewCapacityChoiceTable returns the table of a policy under a fluctuating capacity
// (docs/models.md §2.2): its choices depend on the capacity drawn for the turn as well as on the
// state, layers[i] holding those with capacity lo + i drawn. The layers must cover the same
// states by (n, j). The layers may instead all be tables of a policy that plays to win at three or
// more seats (NewStandingsChoiceTable) of one number of seats and pass streaks, read with the
// capacity drawn and the standings (StandingsAt), or all tables under a turn limit
// (NewTurnChoiceTable) of the same turn limit, read with the capacity drawn and the turns left
// (LookupCapacityTurnsLeftPasses). Read without the capacity (Lookup, Standings), the table gives
// the choices of the last layer, the largest capacity.
func NewCapacityChoiceTable(lo int, layers []*ChoiceTable) (*ChoiceTable, error) {
	if len(layers) == 0 {
		return nil, fmt.Errorf("capacity choice table: no layer")
	}
	last := layers[len(layers)-1]
	for i, l := range layers {
		if l == nil || len(l.turns) != len(last.turns) || l.capacities != nil || l.copies != nil || (l.standings == nil) != (last.standings == nil) ||
			l.maxPairs != last.maxPairs || l.singletons != last.singletons || l.maxLead != last.maxLead {
			return nil, fmt.Errorf("capacity choice table: the layer of capacity %d does not cover the states of the others", lo+i)
		}
		if s := l.standings; s != nil && (s.players != last.standings.players || s.maxPairs != last.standings.maxPairs ||
			s.singletons != last.standings.singletons || s.PassLevels() != last.standings.PassLevels()) {
			return nil, fmt.Errorf("capacity choice table: the layer of capacity %d does not cover the seats and standings of the others", lo+i)
		}
	}
	t := *last
	t.capacities, t.capLo = layers, lo
	return &t, nil
}

// Capacities returns the smallest and the largest capacity the table tells apart, and false for
// a table whose choices do not depend on the capacity drawn.
func (t *ChoiceTable) Capacities() (lo, hi int, ok bool) {
	if t.capacities == nil {
		return 0, 0, false
	}
	return t.capLo, t.capLo + len(t.capacities) - 1, true
}

// LookupCapacity returns the choice made in st with capacity c drawn, after a pass by the previous
// seat or not, and whether the table holds one. Capacities beyond the table's range read its
// nearest layer; a table without capacity layers reads as Lookup does.
func (t *ChoiceTable) LookupCapacity(st State, afterPass bool, c int) (Choice, bool) {
	return t.capacityLayer(c).Lookup(st, afterPass)
}

// LookupCapacityPasses returns the choice made in st with capacity c drawn after passes seats
// passed in a row, and whether the table holds one: the layer of c (as LookupCapacity picks it)
// read at the pass streak (as LookupPasses reads it), so that a table without pass streaks reads
// as LookupCapacity(st, passes > 0, c).
func (t *ChoiceTable) LookupCapacityPasses(st State, passes, c int) (Choice, bool) {
	return t.capacityLayer(c).LookupPasses(st, passes)
}

// LookupCapacityTurnsLeftPasses returns the choice made in st with capacity c drawn, left turns
// left (this one included) and after passes seats passed in a row, and whether the table holds
// one: the layer of c (as LookupCapacity picks it) read as LookupTurnsLeftPasses reads it.
func (t *ChoiceTable) LookupCapacityTurnsLeftPasses(st State, passes, c, left int) (Choice, bool) {
	return t.capacityLayer(c).LookupTurnsLeftPasses(st, passes, left)
}

// StandingsAt returns the choices by every seat's pairs so far (Standings) with capacity c drawn
// and left turns left, this one included, or nil for a table that does not read them: the layer
// of c (as LookupCapacity picks it), then of the turns left (as StandingsTurnsLeft reads it). A
// table without capacity layers reads as StandingsTurnsLeft(left) does, one without turn layers
// as the layer of c.
func (t *ChoiceTable) StandingsAt(left, c int) *StandingsTable {
	return t.capacityLayer(c).turnLayer(left).standings
}

// capacityLayer returns the layer of capacity c drawn: the nearest layer for a capacity beyond the
// table's range, the table itself when it has no capacity layers.
func (t *ChoiceTable) capacityLayer(c int) *ChoiceTable {
	if t.capacities == nil {
		return t
	}
	return t.capacities[min(max(c-t.capLo, 0), len(t.capacities)-1)]
}
