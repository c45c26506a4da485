package rules

import "fmt"

// NewPassChoiceTable returns a table with no choice set whose choices depend on the pass streak:
// the number k = 0 .. levels-1 of seats that passed in a row just before the turn, for a game of
// levels seats (2 to MaxPlayers) under a pass rule (docs/models.md §4.7). Streaks 0 and 1 are the
// table's choices without and after a pass (Set, Lookup); SetPasses and LookupPasses reach every
// streak.
func NewPassChoiceTable(maxPairs, singletons, levels int) (*ChoiceTable, error) {
	if levels < 2 || levels > MaxPlayers {
		return nil, fmt.Errorf("pass choice table for %d seats: must be between 2 and %d", levels, MaxPlayers)
	}
	t, err := NewChoiceTable(maxPairs, singletons)
	if err != nil {
		return nil, err
	}
	t.more = make([]Choice, (levels-2)*len(t.choice)/2)
	for i := range t.more {
		t.more[i] = noChoice
	}
	return t, nil
}

// PassLevels returns the number of pass streaks the table tells apart: 2 (without and after a
// pass) for a table made by NewChoiceTable, the seats of a table made by NewPassChoiceTable.
func (t *ChoiceTable) PassLevels() int {
	return 2 + len(t.more)/(len(t.choice)/2)
}

// passSlot returns the index of a state at streak k >= 2 in t.more, or -1 when the table does
// not cover it.
func (t *ChoiceTable) passSlot(st State, k int) int {
	i := t.slot(st, false)
	if i < 0 {
		return -1
	}
	return (k-2)*(len(t.choice)/2) + i/2
}

// SetPasses records the choice made in st after k seats passed in a row. It panics if the table
// does not cover st or k, as Set does.
func (t *ChoiceTable) SetPasses(st State, k int, c Choice) {
	if k < 0 || k >= t.PassLevels() {
		panic(fmt.Sprintf("rules: choice table of %d pass streaks has no streak %d", t.PassLevels(), k))
	}
	if k < 2 {
		t.Set(st, k == 1, c)
		return
	}
	i := t.passSlot(st, k)
	if i < 0 {
		panic(fmt.Sprintf("rules: choice table (%d pairs, %d singletons) does not cover %v", t.maxPairs, t.singletons, st))
	}
	t.more[i] = c
}

// LookupPasses returns the choice made in st after k seats passed in a row, and whether the table
// holds one. A table that does not tell streak k apart (PassLevels() <= k) reads its last streak,
// so that a table without streaks reads as Lookup(st, k > 0).
func (t *ChoiceTable) LookupPasses(st State, k int) (Choice, bool) {
	if k < 2 || len(t.more) == 0 {
		return t.Lookup(st, k > 0)
	}
	k = min(k, t.PassLevels()-1)
	i := t.passSlot(st, k)
	if i < 0 || t.more[i] == noChoice {
		return 0, false
	}
	return t.more[i], true
}
