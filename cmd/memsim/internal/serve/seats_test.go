package serve

import (
	"net/http"
	"strings"
	"testing"
)

// TestReviewAPIOfThreeSeats posts a game of two pairs at three seats, deal 0 1 0 1 (the game
// worked out by hand in docs/cli.md, "memsim review"), and checks the review's values: the start
// worth 2/3, 4/3 and 0 pairs, and Ben's known-first at the second turn costing 1 pair against
// daring and safe (2 pairs each). A game of three seats under a rule variant, and one of one
// seat, are refused naming the record.
func TestReviewAPIOfThreeSeats(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	game := `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"seats":3},"players":[{"name":"Ann"},{"name":"Ben"},{"name":"Cy"}]}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":3,"face":1}
`
	var rv ReviewJSON
	callJSON(t, ts, "POST", "/api/review", game, http.StatusOK, &rv)
	r := rv.Seats
	if r == nil || len(r.Start) != 3 || r.Start[0].Exact != "2/3" || r.Start[1].Exact != "4/3" || len(r.Decisions) != 2 {
		t.Fatalf("the review: %+v", r)
	}
	d := r.Decisions[1]
	if d.Chosen != "known-first" || d.Cost.Exact != "1" || d.Options[0].Pairs.Exact != "2" || rv.Games != 1 {
		t.Errorf("Ben's turn: %+v (games %d)", d, rv.Games)
	}
	for _, tc := range []struct{ body, want string }{
		{`{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"seats":3,"turn_limit":4}}`, "record: game 1: the review has no values for turn limit 4 at 3 seats"},
		{`{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"seats":1}}`, "record: game 1: a review needs 2 to 8 seats (it has 1)"},
	} {
		if code, data := call(t, ts, "POST", "/api/review", tc.body); code != http.StatusBadRequest || !strings.Contains(string(data), tc.want) {
			t.Errorf("%s: %d %s, want 400 with %q", tc.body, code, data, tc.want)
		}
	}
}
