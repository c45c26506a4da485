package exact_test

import (
	"errors"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

var (
	selfPlay = exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	toWin    = exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
)

// SweepStates against a count of the states (n', j, f) with j <= n' <= n and f <= s, and with a
// role that plays to win, every lead d with |d| <= n + 1 of each.
func TestSweepStates(t *testing.T) {
	for n := 0; n <= 12; n++ {
		for s := 0; s <= 3; s++ {
			count := 0
			for np := 0; np <= n; np++ {
				for j := 0; j <= np; j++ {
					for f := 0; f <= s; f++ {
						count++
					}
				}
			}
			leads := 0
			for d := -(n + 1); d <= n+1; d++ {
				leads++
			}
			m := exact.Model{Singletons: s}
			if got := exact.SweepStates(m, selfPlay, n); got != float64(count) {
				t.Errorf("n=%d s=%d: %v states, want %d", n, s, got, count)
			}
			if got := exact.SweepStates(m, toWin, n); got != float64(count*leads) {
				t.Errorf("n=%d s=%d, to win: %v states, want %d", n, s, got, count*leads)
			}
		}
	}
}

func TestCheckSize(t *testing.T) {
	tests := []struct {
		name       string
		mu         exact.Lineup
		singletons int
		pairs      int
		float      bool
		err        string // "" for none
	}{
		{"rational at the bound", selfPlay, 0, 1000, false, ""},
		{"rational past the bound", selfPlay, 0, 1001, false, "1001 pairs: must be at most 1000 (or solve in float64)"},
		// 301 × 302 / 2 × 901 = 40,951,351 states.
		{"rational past the states", selfPlay, 900, 300, false,
			"300 pairs with 900 singletons: 40951351 states, at most 2000000 (or solve in float64)"},
		{"to win at the bound", toWin, 0, 60, false, ""},
		{"to win past the bound", toWin, 0, 61, false, "61 pairs: must be at most 60 (or solve in float64)"},
		{"to win in float64", toWin, 0, 61, true, ""},
		{"float64 past the bound", selfPlay, 0, 1_000_000_000, true, "1000000000 pairs: must be at most 20000"},
		// 20,001 × 20,002 / 2 = 200,030,001 states: the most pairs take the most states.
		{"float64 at the bound", selfPlay, 0, 20000, true, ""},
		{"float64 just past the bound", selfPlay, 0, 20001, true, "20001 pairs: must be at most 20000"},
		// With one singleton, 14,142 × 14,143 = 200,010,306 states, and 14,143 × 14,144 =
		// 200,038,592: the counts are told whole, as they differ in the sixth digit.
		{"float64 below the states", selfPlay, 1, 14141, true, ""},
		{"float64 past the states", selfPlay, 1, 14142, true, "14142 pairs with 1 singletons: 200038592 states, at most 200030001"},
		{"negative pairs", selfPlay, 0, -1, false, "pairs -1: must be at least 0"},
	}
	for _, tt := range tests {
		err := exact.CheckSize(exact.Model{Singletons: tt.singletons}, tt.mu, tt.pairs, tt.float)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.err)
		}
	}
}

// A SizeError tells a deal size beyond the bound from too many states, with the bounds that apply.
func TestSizeError(t *testing.T) {
	var se *exact.SizeError
	err := exact.CheckSize(exact.Model{}, toWin, 61, false)
	if !errors.As(err, &se) || !se.TooManyPairs() || se.MaxPairs != exact.MaxWinRationalPairs || se.Float {
		t.Errorf("61 pairs to win: %#v", err)
	}
	err = exact.CheckSize(exact.Model{Singletons: 900}, selfPlay, 300, true)
	if err != nil {
		t.Errorf("in float64: %v", err)
	}
	err = exact.CheckSize(exact.Model{Singletons: 900}, selfPlay, 300, false)
	if !errors.As(err, &se) || se.TooManyPairs() || se.States != 301*302/2*901 || se.MaxStates != exact.MaxRationalStates {
		t.Errorf("300 pairs with 900 singletons: %#v", err)
	}
}
