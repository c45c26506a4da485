package rules

import "fmt"

// SetAfterPass records choice c in the state counts for a turn just after a pass by the previous
// seat (docs/models.md §4.16, under pass rules two-known and always); Set records it for any other
// turn. It is SetAfterPasses after one pass.
func (t *CopiesTable) SetAfterPass(counts []int, c Choice) error {
	return t.SetAfterPasses(counts, 1, c)
}

// SetAfterPasses records choice c in the state counts for a turn after k >= 1 seats passed in a
// row (three or more seats under pass rules two-known and always, docs/models.md §4.7, §4.16).
func (t *CopiesTable) SetAfterPasses(counts []int, k int, c Choice) error {
	if err := t.checkCounts(counts); err != nil {
		return err
	}
	if k < 1 || k >= MaxPlayers {
		return fmt.Errorf("copies table: %d passes in a row, not 1 to %d", k, MaxPlayers-1)
	}
	for len(t.afterPasses) < k {
		t.afterPasses = append(t.afterPasses, map[string]Choice{})
	}
	t.afterPasses[k-1][string(AppendCopiesKey(nil, counts))] = c
	return nil
}

// HasAfterPass reports whether the table holds choices after a pass (SetAfterPass,
// SetAfterPasses).
func (t *CopiesTable) HasAfterPass() bool { return t.afterPasses != nil }

// LookupAfterPass returns the choice in the state counts, just after a pass by the previous seat
// or not (LookupPassesKey after one pass or none). A table without choices just after a pass
// gives its one choice either way.
func (t *CopiesTable) LookupAfterPass(counts []int, afterPass bool) (Choice, bool) {
	k := 0
	if afterPass {
		k = 1
	}
	return t.LookupPassesKey(AppendCopiesKey(nil, counts), k)
}

// LookupPassesKey returns the choice in the state whose key (AppendCopiesKey) is key after k
// seats passed in a row. A table without choices after a pass gives its one choice at every k,
// and one with choices after fewer passes than k has no choice there.
func (t *CopiesTable) LookupPassesKey(key []byte, k int) (Choice, bool) {
	if k == 0 || t.afterPasses == nil {
		return t.LookupKey(key)
	}
	if k > len(t.afterPasses) {
		return 0, false
	}
	c, ok := t.afterPasses[k-1][string(key)]
	return c, ok
}
