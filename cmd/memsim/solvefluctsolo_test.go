package main

import (
	"regexp"
	"strings"
	"testing"
)

// Solitaire under a fluctuating capacity: with --capacity solve lists each legal choice's turns
// after the draw, --first values the state as the list's row of that choice does, and --table
// prints a block per capacity drawn whose letters are the list's first best choice.
func TestSolveFluctSolitaireChoicesAndTable(t *testing.T) {
	t.Parallel()
	base := append(append([]string(nil), fluctArgs...), "--players", "1", "--pairs", "4", "--unknown", "2", "--capacity", "2")
	out, stderr, code := runArgs(t, base...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", base, code, stderr)
	}
	safe := regexp.MustCompile(`(?m)^  safe: +([0-9.]+ \([0-9/]+\)) turns`).FindStringSubmatch(out)
	best := regexp.MustCompile(`(?m)^best: ([a-z-]+) for the fewest turns`).FindStringSubmatch(out)
	if safe == nil || best == nil {
		t.Fatalf("%q: no value of safe or best choice in\n%s", base, out)
	}
	first := append(append([]string(nil), base...), "--first", "safe", "--value-only")
	out, stderr, code = runArgs(t, first...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", first, code, stderr)
	}
	if w := "expected turns:         " + safe[1] + "\n"; !strings.Contains(out, w) {
		t.Errorf("%q: no %q in\n%s", first, w, out)
	}
	table := append(append([]string(nil), fluctArgs...), "--players", "1", "--table", "--pairs-max", "4")
	out, stderr, code = runArgs(t, table...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", table, code, stderr)
	}
	// In the block c=2, row 4 has a letter for j = 2, 3, 4: the first is (4, 2)'s.
	row := regexp.MustCompile(`(?s)c=2\n.*?\n4: ([DSK])`).FindStringSubmatch(out)
	if row == nil {
		t.Fatalf("%q: no row 4 in block c=2 in\n%s", table, out)
	}
	if letter := map[string]string{"daring": "D", "safe": "S", "known-first": "K"}[best[1]]; row[1] != letter {
		t.Errorf("%q: (4, 2) with capacity 2 reads %s, the choices' first best is %s", table, row[1], best[1])
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--players", "1", "--pairs", "3", "--pass", "always"}, "solitaire has nobody to hand a pass to"},
		{[]string{"--players", "1", "--pairs", "3", "--distribution"}, "not a fluctuating capacity"},
	} {
		args := append(append([]string(nil), fluctArgs...), tc.args...)
		_, stderr, code := runArgs(t, args...)
		if code == exitOK || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%q: exit %d, stderr %q; want a one-line refusal naming %q", args, code, stderr, tc.want)
		}
	}
}
