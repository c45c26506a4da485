package main

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// memsim review judges a game of four copies of a face under pass rule always that ends in a
// stalemate: seat 0 passes, seat 1 turns two new cards, seat 0 passes and seat 1 passes again.
// The last pass, just after a pass, is the stalemate, lead 0, whose cost is half the best lead
// the copies model gives the other choices at two half-known faces of four cards; the line says
// the turn comes just after a pass. A game with singletons has no values, and says why.
func TestReviewOfCopiesUnderPassAlways(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "pa.jsonl")
	rec := `{"type":"game","format":"memsim-record/1","rules":{"pairs":4,"copies":4,"pass":"always"}}
{"type":"pass"}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":2,"face":1}
{"type":"pass"}
{"type":"pass"}
{"type":"end","scores":[2,2]}
`
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runArgs(t, "review", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	st, err := exact.ParseCopiesState("4:2h", 4)
	if err != nil {
		t.Fatal(err)
	}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	cs, err := exact.CopiesChoiceValues(context.Background(), field.Rat{}, exact.Model{Pass: rules.PassAlways, Variant: rules.Variant{Copies: 4}}, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	best := new(big.Rat)
	for _, cv := range cs.Values {
		if cv.Choice != rules.Pass && cv.Lead.Cmp(best) > 0 {
			best = cv.Lead
		}
	}
	cost := new(big.Rat).Quo(best, big.NewRat(2, 1)).FloatString(4)
	var last string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "turn   4 ") {
			last = l
		}
	}
	if !strings.Contains(last, "faces 4:2h, after a pass") || !strings.Contains(last, "pass, costs "+cost+" pairs") {
		t.Errorf("turn 4: %q, want a pass after a pass at 4:2h costing %s pairs; review:\n%s", last, cost, stdout)
	}
	sg := filepath.Join(dir, "sg.jsonl")
	if err := os.WriteFile(sg, []byte(strings.Replace(rec, `"copies":4,`, `"copies":4,"singletons":1,`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runArgs(t, "review", sg)
	if code != exitOK || !strings.Contains(stdout, "no values: the review has no values for copies 4: no exact model of copies 4 with singletons") {
		t.Errorf("copies with singletons: exit %d, %s%s", code, stdout, stderr)
	}
}
