package main

import (
	"slices"
	"testing"
)

// With two copies of a face under a pass rule, the two-player optimum's choices at three and four
// seats (--copies 2 --two-player-optimal) give every seat the standard game's values.
func TestSolveCopiesPassTwoPlayerOptimalTwoCopiesIsTheStandardGame(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--players", "3", "--pass", "always"},
		{"--players", "4", "--pass", "two-known", "--turn-limit", "5"},
	} {
		var got, want seatsByJSON
		seatsDecode(t, &got, append([]string{"--copies", "2", "--pairs", "4", "--two-player-optimal", "--value-only"}, args...)...)
		seatsDecode(t, &want, append([]string{"--pairs", "4", "--two-player-optimal", "--value-only"}, args...)...)
		if len(got.BySeat) == 0 || !slices.Equal(got.BySeat, want.BySeat) {
			t.Errorf("%v: every seat's pairs %v, the standard game's %v", args, got.BySeat, want.BySeat)
		}
	}
}
