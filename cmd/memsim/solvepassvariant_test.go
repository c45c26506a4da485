package main

import (
	"strings"
	"testing"
)

// TestSolveSeatsPassUnderALongLimitPrintsTheStandardGame checks that memsim solve at three and
// four seats under a pass rule prints, under a turn limit longer than any game (p(3n + 1) turns,
// docs/models.md §4.7), every seat's pairs and every legal choice's value, the pass's included, as
// it prints them without a limit: every line but the first, which names the model.
func TestSolveSeatsPassUnderALongLimitPrintsTheStandardGame(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ players, limit string }{{"3", "31"}, {"4", "40"}} {
		for _, flips := range []string{"sequential", "blind"} {
			args := []string{"solve", "--pairs", "3", "--players", tt.players, "--pass", "always", "--flips", flips}
			free, _, code := runArgs(t, args...)
			if code != 0 {
				t.Fatalf("%q: exit %d", args, code)
			}
			limited, _, code := runArgs(t, append(args, "--turn-limit", tt.limit)...)
			if code != 0 {
				t.Fatalf("%q --turn-limit %s: exit %d", args, tt.limit, code)
			}
			rest := func(out string) string { _, after, _ := strings.Cut(out, "\n"); return after }
			if rest(limited) != rest(free) {
				t.Errorf("%q --turn-limit %s prints\n%s\nwithout the limit\n%s", args, tt.limit, limited, free)
			}
			if !strings.Contains(free, "  pass: ") {
				t.Errorf("%q: no value of the pass in\n%s", args, free)
			}
		}
	}
}
