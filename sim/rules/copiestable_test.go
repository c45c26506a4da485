package rules

import "testing"

// A copies table holds a choice per state of faces, refuses a state of the wrong length, and is
// read by (n, j) only with two copies.
func TestCopiesTable(t *testing.T) {
	ct := NewCopiesTable(4)
	for _, tt := range []struct {
		counts []int
		c      Choice
	}{{[]int{0, 1, 2, 0}, Safe}, {[]int{1, 0, 0, 1}, KnownFirst}, {[]int{0, 0, 300, 0}, Daring}} {
		if err := ct.Set(tt.counts, tt.c); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		counts []int
		c      Choice
		ok     bool
	}{{[]int{0, 1, 2, 0}, Safe, true}, {[]int{1, 0, 0, 1}, KnownFirst, true}, {[]int{0, 0, 300, 0}, Daring, true}, {[]int{0, 0, 44, 1}, 0, false}, {[]int{0, 1, 0, 2}, 0, false}} {
		c, ok := ct.Lookup(tt.counts)
		if ok != tt.ok || (ok && c != tt.c) {
			t.Errorf("%v: %v %v, want %v %v", tt.counts, c, ok, tt.c, tt.ok)
		}
	}
	if ct.Len() != 3 {
		t.Errorf("%d states, want 3", ct.Len())
	}
	if err := ct.Set([]int{1, 0}, Daring); err == nil {
		t.Error("a state of 2 counts in a table of copies 4 is accepted")
	}
	if _, err := NewCopiesChoiceTable(8, NewCopiesTable(2)); err == nil {
		t.Error("a table of two copies read by the state of faces is accepted")
	}
	tab, err := NewCopiesChoiceTable(8, ct)
	if err != nil || tab.Copies() != ct || tab.MaxPairs() != 8 {
		t.Errorf("NewCopiesChoiceTable: %v, %v", tab, err)
	}
}
