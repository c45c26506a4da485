package rules

// LookupTurnsLeftPasses returns the choice made in st with left turns left (this one included),
// after passes seats passed in a row, and whether the table holds one: the layer of the turns left
// (as LookupTurnsLeft reads it) read at the pass streak (as LookupPasses reads it), so that a
// table whose layers tell no streak apart reads as LookupTurnsLeft(st, passes > 0, left).
func (t *ChoiceTable) LookupTurnsLeftPasses(st State, passes, left int) (Choice, bool) {
	if t.turns == nil {
		return t.LookupPasses(st, passes)
	}
	if left < 1 || left > len(t.turns) {
		left = len(t.turns)
	}
	return t.turns[left-1].LookupPasses(st, passes)
}
