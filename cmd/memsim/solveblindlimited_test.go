package main

import (
	"strings"
	"testing"
)

// Under blind flips a shared lru or handover-uniform memory of capacity 2n never forgets a card of
// n pairs: under pass rules two-known and always, at two and three seats, and in solitaire, memsim
// solve prints the values and each choice's values for pairs of perfect memory, line for line.
func TestSolveBlindLimitedOfCapacity2nIsPerfectMemory(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--pairs", "2", "--flips", "blind", "--pass", "two-known"},
		{"--pairs", "2", "--unknown", "1", "--flips", "blind", "--pass", "always", "--policy", "best-response", "--opponent", "daring"},
		{"--pairs", "2", "--flips", "blind", "--pass", "always", "--players", "3"},
		{"--pairs", "2", "--unknown", "0", "--flips", "blind", "--pass", "two-known", "--players", "3"},
		{"--pairs", "2", "--flips", "blind", "--players", "1"},
	} {
		perfect, stderr, code := runArgs(t, append([]string{"solve"}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		for _, forget := range []string{"lru", "handover-uniform"} {
			limited, stderr, code := runArgs(t, append(append([]string{"solve"}, args...), "--memory", "4", "--forget", forget)...)
			if code != exitOK {
				t.Fatalf("%v --forget %s: exit %d: %s", args, forget, code, stderr)
			}
			got, want := valueLines(limited), valueLines(perfect)
			if got == "" || got != want {
				t.Errorf("%v --memory 4 --forget %s:\n%s\nperfect memory:\n%s", args, forget, got, want)
			}
		}
	}
}

// valueLines returns the lines of memsim solve's output that give expected values and each
// choice's value for pairs (not the scores to win, which limited memory leaves out under blind
// flips).
func valueLines(out string) string {
	var b strings.Builder
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "expected ") || strings.Contains(line, " pairs") && !strings.Contains(line, "score") && strings.HasPrefix(line, "  ") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
