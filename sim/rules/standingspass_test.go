package rules_test

import (
	"testing"

	"memsim/sim/rules"
)

// A standings table of a pass rule answers at every streak what was set for it, reads a streak
// beyond its seats as its last, and a table without streaks answers every streak as streak 0.
func TestStandingsPassTableStreaks(t *testing.T) {
	tab, err := rules.NewStandingsPassTable(3, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.State{N: 3, J: 1}
	d := []int{1, 0, 2}
	for k, c := range []rules.Choice{rules.Daring, rules.Pass, rules.Safe} {
		tab.SetPasses(st, d, k, c)
	}
	if got := tab.PassLevels(); got != 3 {
		t.Errorf("PassLevels() = %d, want 3", got)
	}
	for _, tt := range []struct {
		pairs []int
		k     int
		want  rules.Choice
		ok    bool
	}{
		{[]int{1, 2, 0}, 0, rules.Daring, true},
		{[]int{1, 2, 0}, 1, rules.Pass, true},
		{[]int{1, 2, 0}, 2, rules.Safe, true},
		{[]int{1, 2, 0}, 5, rules.Safe, true},
		{[]int{2, 2, 0}, 1, 0, false}, // standings 0, 0, 2: not set
		{[]int{1, 2}, 1, 0, false},
	} {
		got, ok := tab.LookupPasses(st, tt.pairs, tt.k)
		if got != tt.want || ok != tt.ok {
			t.Errorf("LookupPasses(%v, %v, %d) = %v, %v; want %v, %v", st, tt.pairs, tt.k, got, ok, tt.want, tt.ok)
		}
	}
	plain, err := rules.NewStandingsTable(3, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	plain.Set(st, d, rules.KnownFirst)
	if got, ok := plain.LookupPasses(st, []int{1, 2, 0}, 2); got != rules.KnownFirst || !ok {
		t.Errorf("a table without streaks at streak 2: %v, %v; want %v, true", got, ok, rules.KnownFirst)
	}
	if _, err := rules.NewStandingsPassTable(9, 4, 0); err == nil {
		t.Error("a standings pass table of 9 seats: no error")
	}
}
