package rules_test

import (
	"testing"

	"memsim/sim/rules"
)

// TestPassChoiceTableStreaks writes a different choice at every pass streak of a table of four
// seats and reads them back: Lookup gives streaks 0 and 1, LookupPasses every streak, and a
// streak beyond the table's reads its last.
func TestPassChoiceTableStreaks(t *testing.T) {
	tab, err := rules.NewPassChoiceTable(3, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.PassLevels(); got != 4 {
		t.Fatalf("PassLevels = %d, want 4", got)
	}
	byStreak := []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst, rules.Pass}
	st := rules.State{N: 2, J: 1, S: 1, F: 0}
	for k, c := range byStreak {
		tab.SetPasses(st, k, c)
	}
	cases := []struct {
		passes int
		want   rules.Choice
	}{{0, rules.Daring}, {1, rules.Safe}, {2, rules.KnownFirst}, {3, rules.Pass}, {7, rules.Pass}}
	for _, tc := range cases {
		if c, ok := tab.LookupPasses(st, tc.passes); !ok || c != tc.want {
			t.Errorf("LookupPasses(%v, %d) = %v, %v; want %v", st, tc.passes, c, ok, tc.want)
		}
	}
	for after, want := range map[bool]rules.Choice{false: rules.Daring, true: rules.Safe} {
		if c, ok := tab.Lookup(st, after); !ok || c != want {
			t.Errorf("Lookup(%v, %v) = %v, %v; want %v", st, after, c, ok, want)
		}
	}
	other := rules.State{N: 3, J: 1, S: 1, F: 1}
	if _, ok := tab.LookupPasses(other, 2); ok {
		t.Errorf("LookupPasses(%v, 2): a choice in a state never set", other)
	}
}

// TestChoiceTableReadsAnyStreak reads a table without streaks at every streak: after one pass or
// more it gives its choice after a pass.
func TestChoiceTableReadsAnyStreak(t *testing.T) {
	tab, err := rules.NewChoiceTable(2, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.State{N: 2, J: 1}
	tab.Set(st, false, rules.Safe)
	tab.Set(st, true, rules.Pass)
	if got := tab.PassLevels(); got != 2 {
		t.Fatalf("PassLevels = %d, want 2", got)
	}
	for k, want := range []rules.Choice{rules.Safe, rules.Pass, rules.Pass, rules.Pass} {
		if c, ok := tab.LookupPasses(st, k); !ok || c != want {
			t.Errorf("LookupPasses(%v, %d) = %v, %v; want %v", st, k, c, ok, want)
		}
	}
}

// TestNewPassChoiceTableRefusesSeats checks the seat counts a pass table is refused for.
func TestNewPassChoiceTableRefusesSeats(t *testing.T) {
	for _, seats := range []int{-1, 0, 1, rules.MaxPlayers + 1} {
		if _, err := rules.NewPassChoiceTable(3, 0, seats); err == nil {
			t.Errorf("NewPassChoiceTable(3, 0, %d): no error", seats)
		}
	}
}
