package main

import (
	"strings"
	"testing"
)

// TestSolveCopiesSelfWinTurnLimit checks that win-optimal at three seats under copies and a turn
// limit names the limit in its header, and that a limit no game reaches (3n turns for n pairs)
// prints the values without a limit.
func TestSolveCopiesSelfWinTurnLimit(t *testing.T) {
	t.Parallel()
	args := []string{"solve", "--copies", "4", "--pairs", "4", "--players", "3", "--policy", "win-optimal"}
	free, stderr, code := runArgs(t, args...)
	if code != exitOK {
		t.Fatalf("no limit: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		limit string
		same  bool
	}{{"12", true}, {"5", false}} {
		out, stderr, code := runArgs(t, append(args, "--turn-limit", c.limit)...)
		if code != exitOK {
			t.Fatalf("--turn-limit %s: exit %d: %s", c.limit, code, stderr)
		}
		header, body, _ := strings.Cut(out, "\n")
		if !strings.Contains(header, "turn limit "+c.limit+",") {
			t.Errorf("--turn-limit %s: header %q names no limit", c.limit, header)
		}
		_, freeBody, _ := strings.Cut(free, "\n")
		if (body == freeBody) != c.same {
			t.Errorf("--turn-limit %s prints\n%s\nwithout a limit\n%s", c.limit, body, freeBody)
		}
	}
}
