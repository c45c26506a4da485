package main

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/rules"
)

// memsim review judges a game of four copies of a face under pass rule always that ends in a
// stalemate: seat 0 passes, seat 1 turns two new cards, seat 0 passes and seat 1 passes again.
// The last pass, just after a pass, is the stalemate, lead 0, whose cost is half the best lead
// the copies model gives the other choices at two half-known faces of four cards, and in win
// score the best of theirs less the draw's 1/2, in the text and in --json; the line says the turn
// comes just after a pass. A game with singletons has no values, and says why.
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
	// In win score the stalemate at lead 0 is a draw, 1/2; the other choices are worth the copies
	// model's win scores at 4:2h and lead 0, both seats playing to win.
	wmu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	ws, err := exact.CopiesWinChoiceValues(context.Background(), field.Rat{}, exact.Model{Pass: rules.PassAlways, Variant: rules.Variant{Copies: 4}}, wmu, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantWin := map[string]string{}
	bestWin := big.NewRat(1, 2)
	for _, wv := range ws.Values {
		score := wv.Score
		if wv.Choice == rules.Pass {
			score = big.NewRat(1, 2)
		} else if score.Cmp(bestWin) > 0 {
			bestWin = score
		}
		wantWin[wv.Choice.String()] = score.RatString()
	}
	costWin := new(big.Rat).Sub(bestWin, big.NewRat(1, 2)).FloatString(4)
	if !strings.Contains(last, "faces 4:2h, after a pass") || !strings.Contains(last, "pass, costs "+cost+" pairs and "+costWin+" win") {
		t.Errorf("turn 4: %q, want a pass after a pass at 4:2h costing %s pairs and %s win; review:\n%s", last, cost, costWin, stdout)
	}
	stdout, stderr, code = runArgs(t, "review", "--json", path)
	if code != exitOK {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	var rj review.VariantJSON
	if err := json.Unmarshal([]byte(stdout), &rj); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	if !rj.Win || len(rj.Decisions) != 4 || len(rj.Decisions[3].Options) != len(wantWin) {
		t.Fatalf("--json: win %v, decisions %+v", rj.Win, rj.Decisions)
	}
	for _, o := range rj.Decisions[3].Options {
		if o.Win == nil || o.Win.Exact != wantWin[o.Choice] {
			t.Errorf("--json turn 4: %s win %+v, want %s", o.Choice, o.Win, wantWin[o.Choice])
		}
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

// An exact review with win scores of a copies game whose table to win is beyond what exact
// rationals solve in reasonable time is refused before anything is written, naming the flags
// that make it quick; a small copies game is not.
func TestReviewOfALargeCopiesGameNamesFloatAndNoWin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.jsonl")
	rec := `{"type":"game","format":"memsim-record/1","rules":{"pairs":26,"copies":4,"turn_limit":52}}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
`
	if err := os.WriteFile(big, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	// CopiesWinCells(26, 4, 52) counted independently: the leads a state keeps, 2·26 + 3, times
	// the cells of the copies model under the limit.
	cells := exact.CopiesCells(26, 4, 52) * (2*26 + 3)
	wantUsageError(t, []string{"review", big}, "memsim review: "+big+":1: game 1: its win scores (26 pairs, copies 4, turn limit 52) need a table of "+grouped(strconv.FormatInt(cells, 10))+" values, more than 1,000,000 in exact rationals: add --float or --no-win")
	small := filepath.Join(dir, "small.jsonl")
	if err := os.WriteFile(small, []byte(strings.Replace(rec, `"pairs":26,"copies":4,"turn_limit":52`, `"pairs":4,"copies":4,"turn_limit":6`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runArgs(t, "review", small); code != exitOK {
		t.Errorf("review of 4 pairs of copies 4: exit %d, %s", code, stderr)
	}
}
