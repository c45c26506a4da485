package rules

import "fmt"

// CopiesTable holds a policy's choices in the count states of a deal with more than two copies of
// a face (docs/models.md §4.16), as the engine plays them under perfect memory. A state is a
// slice of counts, counts[2i+b] the faces with 2(i+1) cards on the table of which b (0 or 1) are
// remembered, at the start of a turn (no face has two cards remembered).
type CopiesTable struct {
	copies  int
	choices map[string]Choice
	// lead says that the table has a lead dimension (NewCopiesLeadTable).
	lead bool
	// players, when not 0, is the seats of a table with a dimension of standings
	// (NewCopiesStandingsTable).
	players int
	// afterPasses[k-1], when afterPasses is not nil, holds the choices after k seats passed in a
	// row (SetAfterPass, SetAfterPasses).
	afterPasses []map[string]Choice
}

// NewCopiesTable returns an empty table for deals of the given number of cards to a face.
func NewCopiesTable(copies int) *CopiesTable {
	return &CopiesTable{copies: copies, choices: map[string]Choice{}}
}

// Copies returns the number of cards to a face of the deals the table is for.
func (t *CopiesTable) Copies() int { return t.copies }

// Len returns the number of states the table holds a choice for.
func (t *CopiesTable) Len() int { return len(t.choices) }

// Set records choice c in the state counts.
func (t *CopiesTable) Set(counts []int, c Choice) error {
	if err := t.checkCounts(counts); err != nil {
		return err
	}
	t.choices[string(AppendCopiesKey(nil, counts))] = c
	return nil
}

// checkCounts reports whether counts is a state of the table's deals.
func (t *CopiesTable) checkCounts(counts []int) error {
	if len(counts) != t.copies {
		return fmt.Errorf("copies table: a state of %d counts, not %d", len(counts), t.copies)
	}
	return nil
}

// Lookup returns the choice in the state counts.
func (t *CopiesTable) Lookup(counts []int) (Choice, bool) {
	return t.LookupKey(AppendCopiesKey(nil, counts))
}

// LookupKey returns the choice in the state whose key (AppendCopiesKey) is key.
func (t *CopiesTable) LookupKey(key []byte) (Choice, bool) {
	c, ok := t.choices[string(key)]
	return c, ok
}

// AppendCopiesKey appends the key of the state counts to b: two bytes a count, low byte first.
func AppendCopiesKey(b []byte, counts []int) []byte {
	for _, a := range counts {
		b = append(b, byte(a), byte(a>>8))
	}
	return b
}
