package main

import (
	"slices"
	"strings"
	"testing"
)

// seatsByJSON is the part of solve's JSON that holds every seat's expected pairs.
type seatsByJSON struct {
	BySeat []struct {
		Exact string `json:"exact"`
	} `json:"expected_pairs_by_seat"`
}

// At three and more seats a fluctuating capacity that never binds (base 8 ± 1, four pairs) gives
// perfect memory's values of every seat, for every seat for itself, the two-player optimum's
// choices at every seat and a policy per seat.
func TestSolveFluctuationSeatsNeverBindingIsPerfectMemory(t *testing.T) {
	t.Parallel()
	for _, lineup := range [][]string{
		{"--players", "3"},
		{"--players", "4"},
		{"--players", "3", "--two-player-optimal"},
		{"--players", "4", "--two-player-optimal", "--pass", "always"},
		{"--seats", "optimal,safe,daring"},
		{"--seats", "daring,optimal,safe,optimal"},
		{"--seats", "parity,optimal,safe"},
	} {
		var got, want seatsByJSON
		seatsDecode(t, &got, append([]string{"--pairs", "4", "--memory", "8", "--forget", "lru", "--fluctuation", "1"}, lineup...)...)
		seatsDecode(t, &want, append([]string{"--pairs", "4", "--value-only"}, lineup...)...)
		if len(got.BySeat) == 0 || !slices.Equal(got.BySeat, want.BySeat) {
			t.Errorf("%v: every seat's pairs %v, perfect memory's %v", lineup, got.BySeat, want.BySeat)
		}
	}
}

// A fluctuating capacity at three or more seats refuses what it does not solve with one line.
func TestSolveFluctuationSeatsBadInput(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--pairs", "4", "--memory", "3", "--forget", "lru", "--fluctuation", "1"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--players", "9"}, "--fluctuation 1 with --players 9: solved for 1 to 8 players"},
		{[]string{"--seats", "best-response,safe,best-response"}, "policy best-response: with 3 players one seat replies to the others, not 2"},
		{[]string{"--players", "8", "--pairs", "30", "--pass", "always", "--float"}, "add --big to solve it anyway"},
		{[]string{"--players", "8", "--pairs", "100"}, "add --big to solve it anyway"},
		{[]string{"--players", "3", "--standings", "1,0,0"}, "--fluctuation 1 with --standings: under a fluctuating capacity the chances of the most pairs are computed with every seat win-optimal"},
		{[]string{"--seats", "win-best-response,win-optimal,safe"}, "policy win-best-response: with 3 players it replies to win-optimal at every other seat or to optimal, safe, daring and parity, not to a mix of win-optimal and others"},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, append(base, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("solve %q: exit %d, %q; want exit 2 and one line with %q", tt.args, code, stderr, tt.want)
		}
	}
}
