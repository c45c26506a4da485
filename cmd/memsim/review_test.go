package main

import (
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/review"
)

// recordsExample returns the example record of docs/records.md, written to a file in dir.
func recordsExample(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "records.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```memsim-record\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/records.md has no memsim-record example")
	}
	path := filepath.Join(dir, "example.jsonl")
	if err := os.WriteFile(path, m[1], 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReviewJudgesTheDocumentedGame reviews the example game of docs/records.md, a record written
// by hand, and checks what can be worked out by hand: at Ben's second card (turn 2), with faces 0
// and 1 seen once each and his first card a new 2, turning a new card wins him all three pairs
// with probability 1/3 (the second 2) and none otherwise (either other card completes a pair
// Ann then takes with the rest), 1 pair on average, while the seen card he turned hands Ann all
// three: it costs exactly 1 pair. Ann's play is the best throughout.
func TestReviewJudgesTheDocumentedGame(t *testing.T) {
	t.Parallel()
	path := recordsExample(t, t.TempDir())
	stdout, stderr, code := runArgs(t, "review", "--json", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r review.JSON
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	var ben *review.DecisionJSON
	for i, d := range r.Decisions {
		if d.Seat == 1 && d.Card == 2 {
			ben = &r.Decisions[i]
		}
	}
	if ben == nil {
		t.Fatal("no second card of Ben's in the review")
	}
	values := map[string]string{}
	for _, o := range ben.Options {
		values[o.Move] = o.Pairs.Exact
	}
	if ben.Chosen != review.MoveSeen || ben.Cost.Pairs.Exact != "1" || values[review.MoveNew] != "1" || values[review.MoveSeen] != "0" {
		t.Errorf("Ben's second card: chose %q, costs %s; options %v; want a seen card costing 1, a new card worth 1 and a seen card 0",
			ben.Chosen, ben.Cost.Pairs.Exact, values)
	}
	if r.Seats[0].Lost.Pairs.Exact != "0" || r.Seats[0].Best != r.Seats[0].Decisions || r.Seats[1].Lost.Pairs.Exact != "1" {
		t.Errorf("seats %+v: want Ann at her best throughout and Ben losing 1 pair", r.Seats)
	}
	if !r.Finished || r.Scores[0] != 3 || len(r.Evaluation) != len(r.Decisions)+1 || r.Evaluation[len(r.Evaluation)-1].Pairs.Exact != "3" {
		t.Errorf("result %v, finished %v, evaluation ends at %v", r.Scores, r.Finished, r.Evaluation[len(r.Evaluation)-1])
	}
	figure := filepath.Join(filepath.Dir(path), "eval.svg")
	if _, stderr, code := runArgs(t, "review", "--figure", figure, path); code != exitOK {
		t.Fatalf("--figure: exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(figure); err != nil || !strings.HasPrefix(string(b), "<svg") || !strings.Contains(string(b), "Ann") {
		t.Errorf("--figure wrote %d bytes (%v), want an SVG naming Ann", len(b), err)
	}
	text, _, code := runArgs(t, "review", path)
	if code != exitOK || !strings.Contains(text, "after a new card of an unknown pair: a seen card, costs 1.0000 pairs") ||
		!strings.Contains(text, "result: Ann 3, Ben 0") {
		t.Errorf("text review:\n%s", text)
	}
}

// TestReviewRefusesBadInput checks the one-line errors of memsim review.
func TestReviewRefusesBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := recordsExample(t, dir)
	solo := filepath.Join(dir, "solo.jsonl")
	os.WriteFile(solo, []byte(`{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"seats":1}}`+"\n"), 0o644)
	two := filepath.Join(dir, "two.jsonl")
	ex, _ := os.ReadFile(path)
	os.WriteFile(two, append(append([]byte{}, ex...), ex...), 0o644)
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"type":"game","format":"memsim-record/1","rules":{"pairs":2}}`+"\n"+`{"type":"flip","pos":9,"face":0}`+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "memsim review: RECORD is required: the game record to review"},
		{[]string{path, path}, "memsim review: unexpected argument"},
		{[]string{"--game", "0", path}, "memsim review: --game 0: must be at least 1"},
		{[]string{"--game", "2", path}, "memsim review: --game 2: the record holds 1 games"},
		{[]string{"--figure", "eval.gif", path}, `memsim review: --figure "eval.gif": must name a .png or .svg file`},
		{[]string{"--figure", filepath.Join(dir, "e.png"), two}, "memsim review: --figure draws one game: give --game K (the record holds 2 games)"},
		{[]string{filepath.Join(dir, "none.jsonl")}, "memsim review: open " + filepath.Join(dir, "none.jsonl")},
		{[]string{solo}, "memsim review: " + solo + ":1: game 1: a review needs 2 to 8 seats (it has 1)"},
		{[]string{bad}, "memsim review: " + bad + ":2: flip: pos: 9 is out of range (0 to 3)"},
	} {
		_, stderr, code := runArgs(t, append([]string{"review"}, c.args...)...)
		wantOneLineExit(t, strings.Join(c.args, " "), code, exitUsage, stderr, c.want)
	}
}

// TestReviewAgreesWithSolve compares, in every first-card decision of two games (the example of
// docs/records.md, and game 3 of the embedded default at 12 pairs, optimal against parity), the
// values memsim review gives with those memsim solve gives for the decision's state and lead:
// a new card is worth the better of daring and safe (they differ only in the second card, which
// the review values once the first is seen), a half-known card first is known-first, and the
// best value is the state's best, in expected pairs and in win score.
func TestReviewAgreesWithSolve(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	replayed := filepath.Join(dir, "game3.jsonl")
	if _, stderr, code := runArgs(t, "replay", "--game", "3", "--pairs", "12", "--record", replayed); code != exitOK {
		t.Fatalf("replay: exit %d: %s", code, stderr)
	}
	compared := 0
	for _, path := range []string{recordsExample(t, dir), replayed} {
		stdout, stderr, code := runArgs(t, "review", "--json", path)
		if code != exitOK {
			t.Fatalf("review %s: exit %d: %s", path, code, stderr)
		}
		var r review.JSON
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		for i, d := range r.Decisions {
			if d.Card != 1 || d.State.Whole != 0 {
				continue // the second card, and known pairs, are decisions the count state does not have
			}
			if testing.Short() && i%3 != 0 {
				continue // the short form: every third decision
			}
			st := d.State
			out, stderr, code := runArgs(t, "solve", "--json", "--pairs", strconv.Itoa(st.N), "--unknown", strconv.Itoa(st.J),
				"--lead", strconv.Itoa(st.Lead), "--pass", r.Pass)
			if code != exitOK {
				t.Fatalf("solve: exit %d: %s", code, stderr)
			}
			var s struct {
				ChoiceValues struct {
					Values []struct {
						Choice        string
						ExpectedPairs struct{ Exact string } `json:"expected_pairs"`
					}
					Win struct {
						Values []struct {
							Choice string
							Score  struct{ Exact string }
						}
					}
				} `json:"choice_values"`
			}
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatal(err)
			}
			pairs, win := map[string]*big.Rat{}, map[string]*big.Rat{}
			for _, v := range s.ChoiceValues.Values {
				pairs[v.Choice] = ratOf(t, v.ExpectedPairs.Exact)
			}
			for _, v := range s.ChoiceValues.Win.Values {
				win[v.Choice] = ratOf(t, v.Score.Exact)
			}
			better := func(m map[string]*big.Rat, a, b string) *big.Rat {
				if m[b] != nil && m[b].Cmp(m[a]) > 0 {
					return m[b]
				}
				return m[a]
			}
			best := func(m map[string]*big.Rat) *big.Rat {
				var b *big.Rat
				for _, v := range m {
					if b == nil || v.Cmp(b) > 0 {
						b = v
					}
				}
				return b
			}
			want := map[string][2]*big.Rat{
				review.MoveNew:       {better(pairs, "daring", "safe"), better(win, "daring", "safe")},
				review.MoveHalfKnown: {pairs["known-first"], win["known-first"]},
			}
			for _, o := range d.Options {
				w, ok := want[o.Move]
				if !ok || w[0] == nil {
					continue
				}
				if ratOf(t, o.Pairs.Exact).Cmp(w[0]) != 0 || ratOf(t, o.Win.Exact).Cmp(w[1]) != 0 {
					t.Errorf("%s, turn %d, %v: %s is worth %s pairs and %s win in the review, %v and %v by solve",
						path, d.Turn+1, st, o.Move, o.Pairs.Exact, o.Win.Exact, w[0].RatString(), w[1].RatString())
				}
			}
			if ratOf(t, d.Best.Pairs.Exact).Cmp(best(pairs)) != 0 || ratOf(t, d.Best.Win.Exact).Cmp(best(win)) != 0 {
				t.Errorf("%s, turn %d, %v: best %s pairs, %s win in the review; solve's best %v, %v",
					path, d.Turn+1, st, d.Best.Pairs.Exact, d.Best.Win.Exact, best(pairs).RatString(), best(win).RatString())
			}
			compared++
		}
	}
	if least := 15; compared < least && !testing.Short() || compared < least/3 {
		t.Errorf("%d decisions compared, want at least %d", compared, least)
	}
}
