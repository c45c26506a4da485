package main

import (
	"encoding/json"
	"testing"
)

func TestSolveOpponentMemoryErrors(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--pairs", "6", "--memory", "5", "--forget", "lru", "--opponent-memory", "3"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--unknown", "2"}, "memsim solve: --unknown does not go with --opponent-memory (it solves from the start of a deal, two seats)"},
		{[]string{"--players", "3"}, "memsim solve: --players 3 with --opponent-memory: must be 2 (two seats, each with its own memory)"},
		{[]string{"--choices", "daring,safe,known-first"}, "memsim solve: choice set daring,safe,known-first: unequal memories have no exact model with known-first (its card is the first of the mover's list, not a function of the counts); use --choices daring,safe or daring,safe,pass"},
		{[]string{"--policy", "best-response"}, `memsim solve: --policy "best-response": with --opponent-memory the policies are optimal, safe, daring and parity`},
		{[]string{"--opponent", "random"}, `memsim solve: --opponent "random": with --opponent-memory the policies are optimal, safe, daring and parity`},
	}
	for _, tt := range tests {
		wantUsageError(t, append(append([]string(nil), base...), tt.args...), tt.want)
	}
	// --players 2, the only seat count of two private memories, is accepted as given.
	want, _, code := runArgs(t, append(append([]string(nil), base...), "--float")...)
	got, stderr, code2 := runArgs(t, append(append([]string(nil), base...), "--float", "--players", "2")...)
	if code != exitOK || code2 != exitOK || got != want {
		t.Errorf("--players 2 with --opponent-memory: exit %d (%d without), stderr %q; output %q, want %q", code2, code, stderr, got, want)
	}
	wantUsageError(t, []string{"solve", "--pairs", "6", "--memory", "5", "--forget", "handover-uniform", "--opponent-memory", "3"},
		"memsim solve: --opponent-memory needs --memory M --forget lru (M at least 2) or no --memory and no --forget (perfect memory): seat 0 has a private lru memory or a perfect one")
	wantUsageError(t, []string{"solve", "--pairs", "6", "--forget", "lru", "--opponent-memory", "3"},
		"memsim solve: --opponent-memory needs --memory M --forget lru (M at least 2) or no --memory and no --forget (perfect memory): seat 0 has a private lru memory or a perfect one")
	wantUsageError(t, []string{"solve", "--pairs", "6", "--memory", "1", "--forget", "lru", "--opponent-memory", "3"},
		"memsim solve: --memory 1: must be 0 (perfect memory) or at least 2")
	wantUsageError(t, append(append([]string(nil), base[:7]...), "--opponent-memory", "1"), "memsim solve: --opponent-memory 1: must be 0 (perfect memory) or at least 2")
	wantUsageError(t, []string{"solve", "--pairs", "20000", "--opponent-memory", "9000", "--big"},
		"memsim solve: --pairs 20000 --opponent-memory 9000: 7.2e12 positions, at most 50000000")
	wantUsageError(t, []string{"solve", "--pairs", "200", "--memory", "100", "--forget", "lru", "--opponent-memory", "99"},
		"memsim solve: --pairs 200 --memory 100 --opponent-memory 99: about 6.1e10 operations and 49 GB, about 51 min on one core; add --big to solve it anyway")
	wantUsageError(t, []string{"solve", "--pairs", "20000", "--memory", "10000", "--forget", "lru", "--opponent-memory", "9000", "--big"},
		"memsim solve: --pairs 20000 --memory 10000 --opponent-memory 9000: 3.6e12 positions, at most 50000000")
}

// The JSON answer gives each seat's pairs, which add up to the deal, and seat 0's lead.
func TestSolveOpponentMemoryJSON(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := runArgs(t, "solve", "--pairs", "6", "--memory", "5", "--forget", "lru", "--opponent-memory", "3", "--json")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var a unequalAnswer
	if err := json.Unmarshal([]byte(stdout), &a); err != nil {
		t.Fatal(err)
	}
	p0, p1, lead := a.ExpectedBySeat[0].Float, a.ExpectedBySeat[1].Float, a.ExpectedLead.Float
	if d := p0 + p1 - 6; d > 1e-12 || d < -1e-12 || p0-p1-lead > 1e-12 || p0-p1-lead < -1e-12 {
		t.Errorf("pairs %v and %v, lead %v", p0, p1, lead)
	}
	if a.Memory != [2]string{"lru(5), private", "lru(3), private"} || a.Choices != "daring,safe" || a.Arithmetic != "exact" {
		t.Errorf("answer %+v", a)
	}
}

// Perfect memory against lru: seat 0 without --memory, or seat 1 with --opponent-memory 0, each
// with the values of an lru memory in its place that never fills on the deal.
func TestSolveOpponentMemoryPerfect(t *testing.T) {
	t.Parallel()
	answer := func(args ...string) unequalAnswer {
		t.Helper()
		stdout, stderr, code := runArgs(t, append([]string{"solve", "--pairs", "5", "--json"}, args...)...)
		if code != 0 || stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		var a unequalAnswer
		if err := json.Unmarshal([]byte(stdout), &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	first := answer("--opponent-memory", "3")
	if first.Memory != [2]string{"perfect", "lru(3), private"} {
		t.Errorf("memories %v", first.Memory)
	}
	// lru(5) on 5 pairs never fills: the same game.
	if bounded := answer("--memory", "5", "--forget", "lru", "--opponent-memory", "3"); bounded.ExpectedLead.Exact != first.ExpectedLead.Exact {
		t.Errorf("perfect memory first: lead %s, lru(5) first %s", first.ExpectedLead.Exact, bounded.ExpectedLead.Exact)
	}
	second := answer("--memory", "3", "--forget", "lru", "--opponent-memory", "0")
	if second.Memory != [2]string{"lru(3), private", "perfect"} {
		t.Errorf("memories %v", second.Memory)
	}
	if bounded := answer("--memory", "3", "--forget", "lru", "--opponent-memory", "7"); bounded.ExpectedLead.Exact != second.ExpectedLead.Exact {
		t.Errorf("perfect memory second: lead %s, lru(7) second %s", second.ExpectedLead.Exact, bounded.ExpectedLead.Exact)
	}
}
