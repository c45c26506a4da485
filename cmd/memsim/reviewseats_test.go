package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memsim/analysis/review"
)

// threeSeatGame is a game of two pairs at three seats, pass rule never, deal 0 1 0 1, worked out
// by hand. Seat 0 can only turn two new cards (forced): they match with probability 1/3 and then
// it takes both pairs, else seat 1 takes the two pairs it knows by halves, so the start is worth
// 2/3, 4/3 and 0 pairs. Seat 0 turns 0 and 1, a miss: its luck is 0 - 2/3. Seat 1 then knows one
// card of each pair: a new card first finds its partner (daring and safe: both pairs, 2), while
// a seen card first then a new one matches half the time (known-first: 1). It turns 0 then 3,
// known-first, a miss that costs 1 pair, and its luck is 0 - 1: seat 2 takes the pair known whole
// (no decision) and the last pair, a decision whose every choice takes it.
const threeSeatGame = `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"seats":3},"players":[{"name":"Ann"},{"name":"Ben"},{"name":"Cy"}]}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":3,"face":1}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":3,"face":1}
{"type":"flip","pos":2,"face":0}
{"type":"flip","pos":0,"face":0}
`

// TestReviewJudgesAThreeSeatGameByHand reviews threeSeatGame in JSON and checks the values worked
// out by hand, then the text form's lines, and that float64 arithmetic gives the same review.
func TestReviewJudgesAThreeSeatGameByHand(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "three.jsonl")
	if err := os.WriteFile(path, []byte(threeSeatGame), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runArgs(t, "review", "--json", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r review.SeatsJSON
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	exact := func(ns []review.SeatsOptionJSON) map[string]string {
		m := map[string]string{}
		for _, o := range ns {
			m[o.Choice] = o.Pairs.Exact
		}
		return m
	}
	if len(r.Start) != 3 || r.Start[0].Exact != "2/3" || r.Start[1].Exact != "4/3" || r.Start[2].Exact != "0" {
		t.Errorf("start %v, want 2/3, 4/3 and 0", r.Start)
	}
	if len(r.Decisions) != 3 {
		t.Fatalf("%d decisions, want 3 (turns 1, 2 and 4): %s", len(r.Decisions), stdout)
	}
	d0, d1, d2 := r.Decisions[0], r.Decisions[1], r.Decisions[2]
	if d0.Seat != 0 || len(d0.Options) != 1 || d0.Luck.Exact != "-2/3" {
		t.Errorf("turn 1: seat %d, options %v, luck %s; want seat 0, daring alone, luck -2/3", d0.Seat, d0.Options, d0.Luck.Exact)
	}
	if o := exact(d1.Options); d1.Seat != 1 || o["daring"] != "2" || o["safe"] != "2" || o["known-first"] != "1" ||
		d1.Chosen != "known-first" || d1.Best != "daring" || d1.Cost.Exact != "1" || d1.Luck.Exact != "-1" {
		t.Errorf("turn 2: seat %d, options %v, chose %q (best %q), cost %s, luck %s; want seat 1, daring and safe 2, known-first 1 chosen, cost 1, luck -1",
			d1.Seat, o, d1.Chosen, d1.Best, d1.Cost.Exact, d1.Luck.Exact)
	}
	if d2.Turn != 3 || d2.Seat != 2 || d2.Cost.Exact != "0" || d2.State.N != 1 {
		t.Errorf("turn 4: %+v, want seat 2's last pair at no cost", d2)
	}
	want := []struct {
		decisions, best int
		lost, luck      string
	}{{0, 0, "0", "-2/3"}, {1, 0, "1", "-1"}, {1, 1, "0", "0"}}
	for i, w := range want {
		s := r.Totals[i]
		if s.Decisions != w.decisions || s.Best != w.best || s.Lost.Exact != w.lost || s.Luck.Exact != w.luck {
			t.Errorf("seat %d: %+v, want %+v", i, s, w)
		}
	}
	if r.Win || r.Seats != 3 || !r.Finished || r.Scores[2] != 2 {
		t.Errorf("win %v, seats %d, finished %v, scores %v", r.Win, r.Seats, r.Finished, r.Scores)
	}

	text, stderr, code := runArgs(t, "review", path)
	if code != exitOK {
		t.Fatalf("text: exit %d: %s", code, stderr)
	}
	for _, line := range []string{
		"game 1: Ann (seat 0), Ben (seat 1), Cy (seat 2); 2 pairs, 0 singletons, pass never",
		"start: expected pairs Ann 0.6667, Ben 1.3333, Cy 0.0000",
		"known-first, costs 1.0000 pairs (best: daring or safe); luck -1.0000 pairs [daring 2.0000, safe 2.0000, known-first 1.0000]",
		"result: Ann 0, Ben 0, Cy 2",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("the text has no %q:\n%s", line, text)
		}
	}
	float, stderr, code := runArgs(t, "review", "--float", path)
	if code != exitOK || strings.Replace(float, "float64 arithmetic", "exact arithmetic", 1) != text {
		t.Errorf("--float: exit %d (%s), a review other than the exact one:\n%s", code, stderr, float)
	}
}

// TestReviewOfSeatsSaysWhatItCannotDo checks the reviews of games of other seat counts and rules:
// solitaire and --figure of three seats are one-line errors naming why, a record with too many
// seats or an impossible move is one line naming the line at fault, and a game of three seats
// under a rule variant is reviewed as having no values.
func TestReviewOfSeatsSaysWhatItCannotDo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	game := func(rules string) string {
		return `{"type":"game","format":"memsim-record/1","rules":` + rules + "}\n" + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":1}` + "\n"
	}
	three := write("three.jsonl", threeSeatGame)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{write("solo.jsonl", game(`{"pairs":2,"seats":1}`))}, "a review needs 2 to 8 seats (it has 1)"},
		{[]string{write("nine.jsonl", game(`{"pairs":2,"seats":9}`))}, "nine.jsonl:1"},
		{[]string{write("taken.jsonl", threeSeatGame+`{"type":"flip","pos":1,"face":1}`+"\n")}, "taken.jsonl:10"},
		{[]string{"--figure", filepath.Join(dir, "x.svg"), three}, "--figure"},
	} {
		_, stderr, code := runArgs(t, append([]string{"review"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || strings.Contains(stderr, "panic") {
			t.Errorf("review %v: exit %d, stderr %q; want exit %d and one line with %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
	variant := write("variant.jsonl", game(`{"pairs":2,"seats":3,"turn_limit":5}`))
	stdout, stderr, code := runArgs(t, "review", variant)
	if code != exitOK || !strings.Contains(stdout, "no values: the review has no values for turn limit 5 at 3 seats") {
		t.Errorf("a variant at three seats: exit %d (%s):\n%s", code, stderr, stdout)
	}
}
