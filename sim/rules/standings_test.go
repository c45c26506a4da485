package rules_test

import (
	"slices"
	"testing"

	"memsim/sim/rules"
)

// The standings are each seat's deficit to the most pairs, capped one beyond the pairs left.
func TestDeficits(t *testing.T) {
	tests := []struct {
		pairs []int
		n     int
		want  []int
	}{
		{[]int{0, 0, 0}, 5, []int{0, 0, 0}},
		{[]int{3, 1, 2}, 5, []int{0, 2, 1}},
		{[]int{0, 9, 4}, 3, []int{4, 0, 4}},
		{[]int{2, 2, 0, 7}, 6, []int{5, 5, 7, 0}},
		{[]int{5, 5, 5}, 0, []int{0, 0, 0}},
	}
	for _, tt := range tests {
		got := make([]int, len(tt.pairs))
		rules.Deficits(got, tt.pairs, tt.n)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Deficits(%v, n=%d) = %v, want %v", tt.pairs, tt.n, got, tt.want)
		}
	}
}

// A standings table answers for the seats' pairs what was set for their standings, and nothing
// outside what it covers.
func TestStandingsTableLookup(t *testing.T) {
	tab, err := rules.NewStandingsTable(3, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.State{N: 3, J: 2}
	tab.Set(st, []int{1, 0, 4}, rules.Safe)
	tab.Set(st, []int{0, 1, 1}, rules.KnownFirst)
	for _, tt := range []struct {
		st    rules.State
		pairs []int
		want  rules.Choice
		ok    bool
	}{
		{st, []int{3, 4, 0}, rules.Safe, true},       // deficits 1, 0, 4
		{st, []int{4, 5, -4}, rules.Safe, true},      // 9 behind: capped at 4, the same standings
		{st, []int{6, 5, 5}, rules.KnownFirst, true}, // deficits 0, 1, 1
		{st, []int{0, 0, 0}, 0, false},               // not set
		{rules.State{N: 5, J: 2}, []int{0, 0, 0}, 0, false},
		{st, []int{0, 0}, 0, false},
	} {
		got, ok := tab.Lookup(tt.st, tt.pairs)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%v, %v) = %v, %v; want %v, %v", tt.st, tt.pairs, got, ok, tt.want, tt.ok)
		}
	}
	if _, err := rules.NewStandingsTable(2, 4, 0); err == nil {
		t.Error("a standings table of 2 seats: no error")
	}
}
