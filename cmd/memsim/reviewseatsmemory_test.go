package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/rules"
)

// lruSeatGame is a game of three pairs at three seats, deal 0 1 2 0 1 2. Under a shared lru memory
// of capacity 2, seat 1's new card 2 evicts card 0, so card 3 (face 0) is stored, not recognised:
// seat 2 begins its turn with cards 2 and 3 remembered, (n=3, j=1), a decision (a perfect memory
// knows the pair 0/3 whole there), and turns 0 then its partner 3: daring or safe. Then it turns 4
// (new, stored) and 5, whose partner 2 is remembered: a daring miss that leaves the pair 2/5
// recognised, which seat 0 takes (no decision) before its last decision, (n=1, j=0).
const lruSeatGame = `{"type":"game","format":"memsim-record/1","rules":{"pairs":3,"seats":3},"deal":[0,1,2,0,1,2]}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":2,"face":2}
{"type":"flip","pos":3,"face":0}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":3,"face":0}
{"type":"flip","pos":4,"face":1}
{"type":"flip","pos":5,"face":2}
{"type":"flip","pos":2,"face":2}
{"type":"flip","pos":5,"face":2}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":4,"face":1}
`

// TestReviewJudgesThreeSeatsUnderASharedLRUMemory reviews lruSeatGame with --memory 2 --forget lru
// in JSON: the decisions are the turns worked out by hand above, in the states the lru memory
// holds, each option worth what exact.ChoiceValues gives in that state, and the text names the
// memory.
func TestReviewJudgesThreeSeatsUnderASharedLRUMemory(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "lru.jsonl")
	if err := os.WriteFile(path, []byte(lruSeatGame), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runArgs(t, "review", "--json", "--memory", "2", "--forget", "lru", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r review.SeatsJSON
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	want := []struct {
		turn, seat, n, j int
		chosen           string
	}{{0, 0, 3, 3, "daring"}, {1, 1, 3, 1, "daring"}, {2, 2, 3, 1, "daring"}, {3, 2, 2, 1, "daring"}, {5, 0, 1, 0, "daring"}}
	if r.Memory != "lru(2)" || len(r.Decisions) != len(want) {
		t.Fatalf("memory %q, %d decisions; want lru(2) and %d: %s", r.Memory, len(r.Decisions), len(want), stdout)
	}
	mem := rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
	mu := exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for i, w := range want {
		d := r.Decisions[i]
		if d.Turn != w.turn || d.Seat != w.seat || d.State.N != w.n || d.State.J != w.j || d.Chosen != w.chosen {
			t.Errorf("decision %d: turn %d, seat %d, (n=%d, j=%d), chose %q; want %+v", i, d.Turn, d.Seat, d.State.N, d.State.J, d.Chosen, w)
		}
		cs, err := exact.ChoiceValues(context.Background(), field.Rat{}, exact.Model{Memory: mem, Choices: rules.FullChoices}, mu, rules.State{N: w.n, J: w.j})
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Options) != len(cs.Values) {
			t.Fatalf("decision %d: options %v, the solver has %d", i, d.Options, len(cs.Values))
		}
		for k, o := range d.Options {
			if v := cs.Values[k]; o.Choice != v.Choice.String() || o.Pairs.Exact != v.Pairs.RatString() {
				t.Errorf("decision %d: %s worth %s, the solver says %v worth %s", i, o.Choice, o.Pairs.Exact, v.Choice, v.Pairs.RatString())
			}
		}
	}
	if got := r.Decisions[2].Made; strings.Join(got, " ") != "daring safe" {
		t.Errorf("turn 3 fits %v, want daring and safe", got)
	}
	text, stderr, code := runArgs(t, "review", "--memory", "2", "--forget", "lru", path)
	if code != exitOK || !strings.Contains(text, "a shared lru(2) memory") {
		t.Errorf("text: exit %d (%s), no memory named:\n%s", code, stderr, text)
	}
}

// TestReviewOfSeatsUnderAMemoryItCannotValue checks that a memory that forgets at random (or draws
// its capacity) reviews a game of three seats as having no values, naming the memory, and that
// the memory's flags out of their range, or with a game of two seats, are one-line errors naming
// the flag.
func TestReviewOfSeatsUnderAMemoryItCannotValue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	three := filepath.Join(dir, "three.jsonl")
	two := filepath.Join(dir, "two.jsonl")
	if err := os.WriteFile(three, []byte(lruSeatGame), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(two, []byte(strings.Replace(lruSeatGame, `"seats":3`, `"seats":2`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--memory", "2", "--forget", "handover-uniform"}, "no values: the review has no values for the shared memory handover-uniform(2): it forgets at random"},
		{[]string{"--forget", "decay", "--q", "0.5"}, "no values: the review has no values for the shared memory decay(q=0.5)"},
		{[]string{"--memory", "3", "--forget", "lru", "--fluctuation", "1"}, "no values: the review has no values for the shared memory lru(3, fluctuation 1): its capacity is drawn"},
	} {
		stdout, stderr, code := runArgs(t, append(append([]string{"review"}, tc.flags...), three)...)
		if code != exitOK || !strings.Contains(stdout, tc.want) || !strings.Contains(stdout, "result: seat 0 2, seat 1 0, seat 2 1") {
			t.Errorf("review %v: exit %d (%s):\n%s\nwant %q", tc.flags, code, stderr, stdout, tc.want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--memory", "2", three}, "--forget RULE is required"},
		{[]string{"--memory", "2", "--forget", "lur", three}, `--forget "lur": not a forgetting rule (allowed: lru, handover-uniform, decay)`},
		{[]string{"--memory", "1", "--forget", "lru", three}, "--memory 1 --forget lru"},
		{[]string{"--memory", "2", "--forget", "lru", "--q", "0.5", three}, "--q 0.5 goes with --forget decay"},
		{[]string{"--memory", "2", "--forget", "lru", two}, "--memory: " + two + ":1: game 1 has 2 seats"},
	} {
		_, stderr, code := runArgs(t, append([]string{"review"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("review %v: exit %d, stderr %q; want exit %d and one line with %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}
