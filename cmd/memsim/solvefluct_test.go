package main

import (
	"regexp"
	"strings"
	"testing"
)

// fluctArgs is a small fluctuating capacity: lru(3) with σ = 1, capacities 2 to 4.
var fluctArgs = []string{"solve", "--memory", "3", "--forget", "lru", "--fluctuation", "1"}

// With --capacity the state is after the draw: solve names the capacity drawn, lists each legal
// choice, and --first values the state as the list's row of that choice does.
func TestSolveFluctuationCapacityListsTheChoices(t *testing.T) {
	t.Parallel()
	base := append(append([]string(nil), fluctArgs...), "--pairs", "4", "--unknown", "2", "--capacity", "2")
	out, stderr, code := runArgs(t, base...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", base, code, stderr)
	}
	for _, w := range []string{"capacity 2 drawn for seat 0's turn\n", "seat 0's legal choices", "  daring: ", "  safe: ", "  known-first: "} {
		if !strings.Contains(out, w) {
			t.Errorf("%q: no %q in\n%s", base, w, out)
		}
	}
	safe := regexp.MustCompile(`(?m)^  safe: +([0-9.]+ \([0-9/]+\)) pairs`).FindStringSubmatch(out)
	if safe == nil {
		t.Fatalf("%q: no value of safe in\n%s", base, out)
	}
	first := append(append([]string(nil), base...), "--first", "safe", "--value-only")
	out, stderr, code = runArgs(t, first...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", first, code, stderr)
	}
	if w := "expected pairs, seat 0: " + safe[1] + "\n"; !strings.Contains(out, w) {
		t.Errorf("%q: no %q in\n%s", first, w, out)
	}
}

// Without --capacity solve gives the values before the draw, and with --distribution the score
// distribution, --lead deciding win, draw and loss; --table prints a block per capacity drawn.
func TestSolveFluctuationDistributionAndTable(t *testing.T) {
	t.Parallel()
	args := append(append([]string(nil), fluctArgs...), "--pairs", "3", "--distribution", "--lead", "-3")
	out, stderr, code := runArgs(t, args...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", args, code, stderr)
	}
	// Three pairs behind, seat 0 at best draws (all three pairs).
	for _, w := range []string{"seat 0 wins 0.000000 (0)", "  share  0.0: ", "  share  3.0: "} {
		if !strings.Contains(out, w) {
			t.Errorf("%q: no %q in\n%s", args, w, out)
		}
	}
	if strings.Contains(out, "legal choices") {
		t.Errorf("%q: the choices are listed before the draw:\n%s", args, out)
	}
	args = append(append([]string(nil), fluctArgs...), "--table", "--pairs-max", "3")
	out, stderr, code = runArgs(t, args...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", args, code, stderr)
	}
	// Under lru a capacity c leaves at most c known cards: j from max(1, n - c) to n.
	for _, w := range []string{"\nc=2\n1: D\n2: D D\n3: ", "\nc=3\n", "\nc=4\n1: D\n2: D D\n3: "} {
		if !strings.Contains(out, w) {
			t.Errorf("%q: no %q in\n%s", args, w, out)
		}
	}
	if strings.Contains(out, "c=5") {
		t.Errorf("%q: a block beyond the largest capacity 4:\n%s", args, out)
	}
}

func TestSolveFluctuationFlagErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--pairs", "4", "--unknown", "2", "--first", "safe"}, "memsim solve: --capacity C is required with --fluctuation 1 --first safe: the capacity drawn for seat 0's turn now, which its choice depends on"},
		{[]string{"--pairs", "4", "--capacity", "5"}, "memsim solve: --capacity 5: --memory 3 --fluctuation 1 draws 2 to 4"},
		{[]string{"--pairs", "4", "--unknown", "1", "--capacity", "2"}, "memsim solve: --unknown 1: 3 known cards exceed --capacity 2, which lru keeps after the draw (need --unknown >= 2)"},
		{[]string{"--pairs", "4", "--capacity", "2", "--distribution"}, "memsim solve: --capacity 2 with --distribution: the score distribution is computed before the capacity is drawn (leave out --capacity)"},
		{[]string{"--table", "--pairs-max", "3", "--players", "3", "--json"}, "memsim solve: --fluctuation 1 with --table --json: JSON is written for solitaire's table and the two-seat tables of optimal and best-response without a turn limit; this one is printed as text (leave out --json)"},
		{[]string{"--table", "--pairs-max", "3", "--policy", "safe"}, "memsim solve: --fluctuation 1 with --table: the table is of the optimal policy, of a policy that plays to win, or at two seats of best-response (leave out --policy and --opponent, or give --policy win-optimal, or win-best-response or best-response with --opponent)"},
	}
	for _, tt := range tests {
		wantUsageError(t, append(append([]string(nil), fluctArgs...), tt.args...), tt.want)
	}
	wantUsageError(t, []string{"solve", "--pairs", "3", "--memory", "3", "--forget", "lru", "--capacity", "3"}, "memsim solve: --capacity 3 goes with --fluctuation S")
}
