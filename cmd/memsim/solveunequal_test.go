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
		{[]string{"--choices", "daring,safe,known-first"}, "memsim solve: choice set daring,safe,known-first: unequal memories have no exact model with known-first (its card is the first of the mover's list, not a function of the counts); use --choices daring,safe or daring,safe,pass"},
		{[]string{"--policy", "best-response"}, `memsim solve: --policy "best-response": with --opponent-memory the policies are optimal, safe, daring and parity`},
		{[]string{"--opponent", "random"}, `memsim solve: --opponent "random": with --opponent-memory the policies are optimal, safe, daring and parity`},
	}
	for _, tt := range tests {
		wantUsageError(t, append(append([]string(nil), base...), tt.args...), tt.want)
	}
	wantUsageError(t, []string{"solve", "--pairs", "6", "--memory", "5", "--forget", "handover-uniform", "--opponent-memory", "3"},
		"memsim solve: --opponent-memory needs --memory M --forget lru (M at least 2): both seats have private lru memories")
	wantUsageError(t, append(append([]string(nil), base[:7]...), "--opponent-memory", "1"), "memsim solve: --opponent-memory 1: must be at least 2")
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
