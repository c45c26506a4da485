package main

import (
	"slices"
	"testing"
)

// Win-optimal at three seats under a fluctuating capacity that never binds (base 4 ± 1, two pairs)
// and the pass rules two-known and always gives perfect memory's P(most pairs) and pairs of every
// seat under the same pass rule, from uneven standings.
func TestSolveFluctuationWinOptimalSeatsPassNeverBindingIsPerfectMemory(t *testing.T) {
	t.Parallel()
	for _, pass := range []string{"two-known", "always"} {
		win := []string{"--pairs", "2", "--players", "3", "--policy", "win-optimal", "--pass", pass, "--standings", "1,0,0"}
		var got, want selfWinJSON
		seatsDecode(t, &got, slices.Concat(win, []string{"--memory", "4", "--forget", "lru", "--fluctuation", "1"})...)
		seatsDecode(t, &want, slices.Concat(win, []string{"--value-only"})...)
		if len(got.Score) != 3 || !slices.Equal(got.Score, want.Score) || !slices.Equal(got.Pairs, want.Pairs) {
			t.Errorf("pass %s: every seat's score %v and pairs %v, perfect memory's %v and %v", pass, got.Score, got.Pairs, want.Score, want.Pairs)
		}
	}
}
