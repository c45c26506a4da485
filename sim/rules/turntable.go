package rules

import "fmt"

// NewTurnChoiceTable returns the table of a policy under a turn limit (docs/models.md §1.7): its
// choices depend on the turns left as well as on the state, layers[t-1] holding those with t turns
// left, for t = 1 .. len(layers). The layers must cover the same states (and be read by the state
// of faces of the same copies, or all by (n, j)). Read without the turns left (Lookup, Copies),
// the table gives the choices of the last layer, the most turns left.
func NewTurnChoiceTable(layers []*ChoiceTable) (*ChoiceTable, error) {
	if len(layers) == 0 {
		return nil, fmt.Errorf("turn choice table: no layer")
	}
	last := layers[len(layers)-1]
	for t, l := range layers {
		if l == nil || l.turns != nil || l.maxPairs != last.maxPairs || l.singletons != last.singletons || l.maxLead != last.maxLead ||
			(l.copies == nil) != (last.copies == nil) || (l.copies != nil && l.copies.copies != last.copies.copies) {
			return nil, fmt.Errorf("turn choice table: layer %d does not cover the states of the others", t+1)
		}
	}
	t := *last
	t.turns = layers
	return &t, nil
}

// TurnLimit returns the most turns left the table tells apart, or 0 for a table whose choices do
// not depend on the turns left.
func (t *ChoiceTable) TurnLimit() int { return len(t.turns) }

// turnLayer returns the layer of t read with left turns left, this one included: the last layer
// for turns left beyond the table's TurnLimit, or 0 for a game without a limit; t itself for a
// table without turn layers.
func (t *ChoiceTable) turnLayer(left int) *ChoiceTable {
	if t.turns == nil {
		return t
	}
	if left < 1 || left > len(t.turns) {
		left = len(t.turns)
	}
	return t.turns[left-1]
}

// LookupTurnsLeft returns the choice made in st with left turns left (this one included), after a
// pass by the previous seat or not, and whether the table holds one. Turns left beyond the table's
// TurnLimit, or 0 for a game without a limit, read the last layer; a table without turn layers
// reads as Lookup does.
func (t *ChoiceTable) LookupTurnsLeft(st State, afterPass bool, left int) (Choice, bool) {
	return t.turnLayer(left).Lookup(st, afterPass)
}

// LookupTurnsLeftPasses returns the choice made in st with left turns left (this one included),
// after passes seats passed in a row, and whether the table holds one: the layer of the turns left
// (as LookupTurnsLeft reads it) read at the pass streak (as LookupPasses reads it), so that a
// table whose layers tell no streak apart reads as LookupTurnsLeft(st, passes > 0, left).
func (t *ChoiceTable) LookupTurnsLeftPasses(st State, passes, left int) (Choice, bool) {
	return t.turnLayer(left).LookupPasses(st, passes)
}

// CopiesTurnsLeft returns the choices by the state of faces (Copies) with left turns left, this one
// included, or nil for a table read by (n, j, s, f). Turns left beyond the table's TurnLimit, or 0
// for a game without a limit, read the last layer; a table without turn layers reads as Copies
// does.
func (t *ChoiceTable) CopiesTurnsLeft(left int) *CopiesTable {
	return t.turnLayer(left).copies
}

// StandingsTurnsLeft returns the choices by every seat's pairs so far (Standings) with left turns
// left, this one included, or nil for a table that does not read them. Turns left beyond the
// table's TurnLimit, or 0 for a game without a limit, read the last layer; a table without turn
// layers reads as Standings does.
func (t *ChoiceTable) StandingsTurnsLeft(left int) *StandingsTable {
	return t.turnLayer(left).standings
}
