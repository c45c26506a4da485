package rules

import "fmt"

// NewCopiesLeadTable returns an empty table for deals of the given number of cards to a face, for
// a policy that plays to win (two players): a choice in every state of faces at every lead, the
// mover's pairs minus the other seat's. A state of n pairs holds the leads -(n+1) .. n+1, and a
// lead beyond is read at the nearest: with |lead| > n the game is decided.
func NewCopiesLeadTable(copies int) *CopiesTable {
	t := NewCopiesTable(copies)
	t.lead = true
	return t
}

// HasLead reports whether the table's choices depend on the lead (NewCopiesLeadTable).
func (t *CopiesTable) HasLead() bool { return t.lead }

// SetLead records choice c in the state counts at lead d, in a table with a lead dimension.
func (t *CopiesTable) SetLead(counts []int, d int, c Choice) error {
	key, err := t.leadKey(counts, d)
	if err != nil {
		return err
	}
	t.choices[key] = c
	return nil
}

// leadKey returns the key of the state counts at lead d in a table with a lead dimension, or why
// the table does not hold it.
func (t *CopiesTable) leadKey(counts []int, d int) (string, error) {
	if !t.lead {
		return "", fmt.Errorf("copies table: no lead dimension (a table of a policy that plays to win has one)")
	}
	if len(counts) != t.copies {
		return "", fmt.Errorf("copies table: a state of %d counts, not %d", len(counts), t.copies)
	}
	n := copiesPairs(counts)
	if d < -(n+1) || d > n+1 {
		return "", fmt.Errorf("copies table: lead %d in a state of %d pairs, which holds the leads %d to %d", d, n, -(n + 1), n+1)
	}
	return string(appendLead(AppendCopiesKey(nil, counts), d)), nil
}

// LookupLeadKey returns the choice in the state whose key (AppendCopiesKey) is key at lead d, read
// at the nearest lead the state holds. A table without a lead dimension reads the state alone.
func (t *CopiesTable) LookupLeadKey(key []byte, d int) (Choice, bool) {
	if !t.lead {
		return t.LookupKey(key)
	}
	return lookupLead(t.choices, key, d)
}

// lookupLead returns the choice in choices of the state whose key is key at lead d, read at the
// nearest lead the state holds.
func lookupLead(choices map[string]Choice, key []byte, d int) (Choice, bool) {
	n := 0
	for i := 0; 2*i+1 < len(key); i++ {
		n += (i/2 + 1) * (int(key[2*i]) | int(key[2*i+1])<<8)
	}
	d = min(max(d, -(n+1)), n+1)
	var buf [2*2*MaxCopies + 2]byte
	c, ok := choices[string(appendLead(append(buf[:0], key...), d))]
	return c, ok
}

// copiesPairs returns the pairs on the table in the state counts.
func copiesPairs(counts []int) int {
	n := 0
	for i, a := range counts {
		n += (i/2 + 1) * a
	}
	return n
}

// appendLead appends lead d to a state's key, two bytes, offset by 2^15.
func appendLead(b []byte, d int) []byte {
	u := d + 1<<15
	return append(b, byte(u), byte(u>>8))
}

// SetLeadAfterPass records choice c in the state counts at lead d for a turn just after a pass by
// the other seat, in a table with a lead dimension (a policy that plays to win under pass rules
// two-known and always, docs/models.md §4.16); SetLead records it for any other turn.
func (t *CopiesTable) SetLeadAfterPass(counts []int, d int, c Choice) error {
	key, err := t.leadKey(counts, d)
	if err != nil {
		return err
	}
	if t.afterPasses == nil {
		t.afterPasses = []map[string]Choice{{}}
	}
	t.afterPasses[0][key] = c
	return nil
}

// LookupLeadPassesKey returns the choice in the state whose key (AppendCopiesKey) is key at lead
// d (read at the nearest lead the state holds), after k seats passed in a row: just after a pass
// when k >= 1. A table without choices after a pass gives its one choice either way, and one
// without a lead dimension reads the state alone (LookupPassesKey).
func (t *CopiesTable) LookupLeadPassesKey(key []byte, d, k int) (Choice, bool) {
	if !t.lead {
		return t.LookupPassesKey(key, k)
	}
	if k == 0 || t.afterPasses == nil {
		return t.LookupLeadKey(key, d)
	}
	return lookupLead(t.afterPasses[0], key, d)
}
