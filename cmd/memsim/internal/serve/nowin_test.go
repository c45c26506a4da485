package serve

import (
	"net/http"
	"strings"
	"testing"

	"memsim/analysis/review"
)

// TestReviewAPIReportsWinScoresLeftOut checks the review's no_win and win_note: a two-seat game
// has win scores unless the request leaves them out (no_win=true), and then its expected pairs
// are those of the review with win scores; a game of three seats has none; a game of four
// copies of a face whose table to win is beyond review.MaxExactCopiesWinCells is reviewed in
// expected pairs only, saying why; a no_win that is not a truth value is refused naming it.
func TestReviewAPIReportsWinScoresLeftOut(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	two := `{"type":"game","format":"memsim-record/1","rules":{"pairs":3},"players":[{"name":"Ann"},{"name":"Ben"}]}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":2,"face":2}
{"type":"flip","pos":3,"face":0}
`
	var with, without ReviewJSON
	callJSON(t, ts, "POST", "/api/review", two, http.StatusOK, &with)
	if with.NoWin || with.WinNote != "" || !with.Review.Win || with.Review.Start.Win == nil {
		t.Fatalf("a two-seat review: no_win %v %q, win %v", with.NoWin, with.WinNote, with.Review.Win)
	}
	callJSON(t, ts, "POST", "/api/review?no_win=true", two, http.StatusOK, &without)
	if !without.NoWin || !strings.Contains(without.WinNote, "no_win=true") || without.Review.Win || without.Review.Start.Win != nil {
		t.Fatalf("a two-seat review with no_win=true: no_win %v %q, win %v", without.NoWin, without.WinNote, without.Review.Win)
	}
	if len(with.Review.Decisions) == 0 || len(with.Review.Decisions) != len(without.Review.Decisions) {
		t.Fatalf("%d decisions with win scores, %d without", len(with.Review.Decisions), len(without.Review.Decisions))
	}
	for i, d := range with.Review.Decisions {
		e := without.Review.Decisions[i]
		if len(d.Options) != len(e.Options) || d.Cost.Pairs != e.Cost.Pairs {
			t.Errorf("decision %d: %+v with win scores, %+v without", i, d, e)
			continue
		}
		for j, o := range d.Options {
			if o.Move != e.Options[j].Move || o.Pairs != e.Options[j].Pairs || e.Options[j].Win != nil {
				t.Errorf("decision %d, option %d: %+v with win scores, %+v without", i, j, o, e.Options[j])
			}
		}
	}

	three := `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"seats":3}}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
`
	var seats ReviewJSON
	callJSON(t, ts, "POST", "/api/review", three, http.StatusOK, &seats)
	if seats.Seats == nil || !seats.NoWin || seats.WinNote != review.SeatsNoWin {
		t.Errorf("a three-seat review: no_win %v %q", seats.NoWin, seats.WinNote)
	}

	// Four copies of 18 faces (36 pairs, float64) under a limit of 2 turns: a table to win of
	// 1,097,250 values, beyond the bound; four copies of two faces under a limit of 6 are within
	// it.
	copies := func(pairs, copies, limit string) string {
		return `{"type":"game","format":"memsim-record/1","rules":{"pairs":` + pairs + `,"copies":` + copies + `,"turn_limit":` + limit + `}}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
`
	}
	var big, small ReviewJSON
	callJSON(t, ts, "POST", "/api/review", copies("36", "4", "2"), http.StatusOK, &big)
	if v := big.Variant; v == nil || v.Win || !big.NoWin || !strings.Contains(big.WinNote, "table to win") || len(v.Decisions) != 1 {
		t.Errorf("four copies of 18 faces, limit 2: no_win %v %q, variant %+v", big.NoWin, big.WinNote, v)
	}
	callJSON(t, ts, "POST", "/api/review", copies("4", "4", "6"), http.StatusOK, &small)
	if v := small.Variant; v == nil || !v.Win || small.NoWin {
		t.Errorf("four copies of two faces, limit 6: no_win %v %q, variant %+v", small.NoWin, small.WinNote, v)
	}
	if code, data := call(t, ts, "POST", "/api/review?no_win=maybe", two); code != http.StatusBadRequest || !strings.Contains(string(data), `no_win: \"maybe\": must be true`) {
		t.Errorf("no_win=maybe: %d %s", code, data)
	}
}
