package main

import (
	"slices"
	"testing"
)

// selfWinJSON is the part of solve's JSON that holds every seat's P(most pairs) and pairs.
type selfWinJSON struct {
	Score []struct {
		Exact string `json:"exact"`
	} `json:"score_by_seat"`
	Pairs []struct {
		Exact string `json:"exact"`
	} `json:"expected_pairs_by_seat"`
}

// Win-optimal at three seats under a fluctuating capacity that never binds (base 5 ± 1, three
// pairs) gives perfect memory's P(most pairs) and pairs of every seat, from no pairs taken and
// from uneven standings.
func TestSolveFluctuationWinOptimalSeatsNeverBindingIsPerfectMemory(t *testing.T) {
	t.Parallel()
	win := []string{"--pairs", "3", "--players", "3", "--policy", "win-optimal"}
	for _, standings := range [][]string{nil, {"--standings", "1,0,2"}} {
		var got, want selfWinJSON
		seatsDecode(t, &got, slices.Concat(win, []string{"--memory", "5", "--forget", "handover-uniform", "--fluctuation", "1"}, standings)...)
		seatsDecode(t, &want, slices.Concat(win, []string{"--value-only"}, standings)...)
		if len(got.Score) != 3 || !slices.Equal(got.Score, want.Score) || !slices.Equal(got.Pairs, want.Pairs) {
			t.Errorf("%v: every seat's score %v and pairs %v, perfect memory's %v and %v", standings, got.Score, got.Pairs, want.Score, want.Pairs)
		}
	}
}
