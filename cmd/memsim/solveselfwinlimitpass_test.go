package main

import (
	"strings"
	"testing"
)

// TestSolveWinOptimalSeatsPassUnderALongLimitPrintsNoLimit checks that memsim solve with
// win-optimal at three seats under the pass rules two-known and always prints, under a turn limit
// longer than any game (p(3n + 1) turns, docs/models.md §4.7), every seat's P(most pairs), its
// pairs and every legal choice's value, the pass's included, as it prints them without a limit;
// and that a lineup mixing win-optimal with fixed policies under a short limit is solved too.
func TestSolveWinOptimalSeatsPassUnderALongLimitPrintsNoLimit(t *testing.T) {
	t.Parallel()
	passRules := []string{"two-known", "always"}
	if testing.Short() {
		passRules = passRules[1:] // the race-enabled solver takes a minute over both
	}
	for _, rule := range passRules {
		args := []string{"solve", "--pairs", "3", "--players", "3", "--policy", "win-optimal", "--pass", rule, "--unknown", "1"}
		free, _, code := runArgs(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d", args, code)
		}
		limited, _, code := runArgs(t, append(args, "--turn-limit", "30")...)
		if code != 0 {
			t.Fatalf("%q --turn-limit 30: exit %d", args, code)
		}
		rest := func(out string) string { _, after, _ := strings.Cut(out, "\n"); return after }
		if rest(limited) != rest(free) {
			t.Errorf("%q --turn-limit 30 prints\n%s\nwithout the limit\n%s", args, limited, free)
		}
		if !strings.Contains(free, "  pass: ") {
			t.Errorf("%q: no value of the pass in\n%s", args, free)
		}
		mixed := []string{"solve", "--pairs", "3", "--players", "3", "--seats", "win-optimal,safe,daring", "--pass", rule, "--unknown", "1", "--turn-limit", "4"}
		out, _, code := runArgs(t, mixed...)
		if code != 0 || !strings.Contains(out, "  pass: ") {
			t.Errorf("%q: exit %d, want 0 and the pass's value in\n%s", mixed, code, out)
		}
	}
}
