package rules

// SetAfterPass records choice c in the state counts for a turn just after a pass by the previous
// seat (docs/models.md §4.16, under pass rules two-known and always); Set records it for any other
// turn.
func (t *CopiesTable) SetAfterPass(counts []int, c Choice) error {
	if err := t.checkCounts(counts); err != nil {
		return err
	}
	if t.afterPass == nil {
		t.afterPass = map[string]Choice{}
	}
	t.afterPass[string(AppendCopiesKey(nil, counts))] = c
	return nil
}

// HasAfterPass reports whether the table holds choices just after a pass (SetAfterPass).
func (t *CopiesTable) HasAfterPass() bool { return t.afterPass != nil }

// LookupAfterPass returns the choice in the state counts, just after a pass by the previous seat
// or not. A table without choices just after a pass gives its one choice either way.
func (t *CopiesTable) LookupAfterPass(counts []int, afterPass bool) (Choice, bool) {
	return t.LookupAfterPassKey(AppendCopiesKey(nil, counts), afterPass)
}

// LookupAfterPassKey is LookupAfterPass in the state whose key (AppendCopiesKey) is key.
func (t *CopiesTable) LookupAfterPassKey(key []byte, afterPass bool) (Choice, bool) {
	if afterPass && t.afterPass != nil {
		c, ok := t.afterPass[string(key)]
		return c, ok
	}
	return t.LookupKey(key)
}
