package main

import (
	"strings"
	"testing"
)

// A fluctuating capacity under a pass rule at three or more seats gives every seat's values, for
// every seat for itself and a policy per seat.
func TestSolveFluctuationPassAtThreeSeats(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--pairs", "4", "--memory", "3", "--forget", "lru", "--fluctuation", "1", "--float"}
	for _, extra := range [][]string{
		{"--pass", "two-known", "--players", "3"},
		{"--pass", "always", "--seats", "optimal,safe,daring"},
	} {
		args := append(append([]string(nil), base...), extra...)
		stdout, stderr, code := runArgs(t, args...)
		if code != 0 || !strings.Contains(stdout, "pass "+extra[1]) || !strings.Contains(stdout, "expected pairs, seat 2:") {
			t.Errorf("solve %q: exit %d, stderr %q, stdout %q; want every seat's values", args, code, stderr, stdout)
		}
	}
}
