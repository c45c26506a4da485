package main

import (
	"strings"
	"testing"
)

// A fluctuating capacity under a pass rule at two seats gives the values and the score
// distribution, and refuses the rest with one line.
func TestSolveFluctuationPass(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--pairs", "4", "--memory", "3", "--forget", "handover-uniform", "--fluctuation", "1"}
	for _, pass := range []string{"two-known", "always"} {
		args := append(append([]string(nil), base...), "--pass", pass, "--distribution", "--float")
		stdout, stderr, code := runArgs(t, args...)
		if code != 0 || !strings.Contains(stdout, "pass "+pass) || !strings.Contains(stdout, "expected lead, seat 0:") || !strings.Contains(stdout, "share") {
			t.Errorf("solve %q: exit %d, stderr %q, stdout %q; want the values and the distribution", args, code, stderr, stdout)
		}
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--pass", "always", "--table"}, "--fluctuation 1 with --pass always: the values and the score distribution only"},
		{[]string{"--pass", "two-known", "--capacity", "3"}, "--fluctuation 1 with --pass two-known: the values and the score distribution only"},
		{[]string{"--pass", "always", "--players", "3", "--capacity", "3"}, "--fluctuation 1 with three or more seats: the values only"},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, append(base, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("solve %q: exit %d, %q; want exit 2 and one line with %q", tt.args, code, stderr, tt.want)
		}
	}
}
