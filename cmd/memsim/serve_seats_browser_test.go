package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim/record"
)

// threeSeatReviewGame is a game of four pairs at three seats, pass rule never, deal 0 1 2 3 0 1
// 2 3: Ann's forced first turn and Ben's daring miss turn up one card of each pair; Cy turns a
// seen card first (known-first, a miss that costs 3 pairs against daring or safe, both worth 4),
// and Ann takes the pair Cy showed whole, then the three others, each a decision whose daring and
// safe are alike.
const threeSeatReviewGame = `{"type":"game","format":"memsim-record/1","rules":{"pairs":4,"seats":3},"players":[{"name":"Ann"},{"name":"Ben"},{"name":"Cy"}]}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":2,"face":2}
{"type":"flip","pos":3,"face":3}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":5,"face":1}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":5,"face":1}
{"type":"flip","pos":6,"face":2}
{"type":"flip","pos":2,"face":2}
{"type":"flip","pos":4,"face":0}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":7,"face":3}
{"type":"flip","pos":3,"face":3}
`

// checkSeatsReviewInABrowser checks that the Review tab of the page at url, in the browser ctx,
// shows a game of three seats as analysis/review values it, reviewed in Go here for the same
// record: every seat's expected pairs at the start, decisions, those at best, pairs lost, luck
// and pairs taken; and for each decision the turn, the mover, the state, every legal choice with
// the mover's expected pairs (those the turn's cards made in bold), the choice made, every best
// choice where the choice made cost pairs (in red), the cost and the luck, to four places.
func checkSeatsReviewInABrowser(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	games, err := record.NewReader(strings.NewReader(threeSeatReviewGame), "record").ReadAll()
	if err != nil || len(games) != 1 {
		t.Fatalf("the record: %v", err)
	}
	r, err := review.SeatsGame(context.Background(), field.Rat{}, games[0])
	if err != nil {
		t.Fatal(err)
	}
	want := seatsReviewRows(r)
	if len(want.decisions) != 6 {
		t.Fatalf("the review in Go has %d decisions, want 6", len(want.decisions))
	}
	do(t, ctx, "open the page's Review tab", chromedp.Navigate(url+"/"), chromedp.Click("#tab-review"))
	text, err := json.Marshal(threeSeatReviewGame)
	if err != nil {
		t.Fatal(err)
	}
	browse[bool](t, ctx, `document.getElementById("review-text").value = `+string(text)+`; true`)
	do(t, ctx, "review the record", chromedp.Click(`#review-form button[type="submit"]`))
	waitFor(t, ctx, `["shown", "failed"].includes(document.getElementById("review-out").dataset.state)`)
	if e := browse[string](t, ctx, `document.getElementById("review-error").textContent`); e != "" {
		t.Fatalf("the page says: %s", e)
	}
	head := browse[string](t, ctx, `document.getElementById("review-head").textContent`)
	for _, s := range []string{"Ann (seat 0), Ben (seat 1), Cy (seat 2); 4 pairs", "exact values", "no win scores", "Result: Ann 4, Ben 0, Cy 0."} {
		if !strings.Contains(head, s) {
			t.Errorf("the head %q does not say %q", head, s)
		}
	}
	rows := func(table string) [][]string {
		return browse[[][]string](t, ctx, `[...document.querySelectorAll("#`+table+` tr")].slice(1).map(r => [...r.cells].map(c => c.textContent))`)
	}
	if got := rows("review-seats"); !slices.EqualFunc(got, want.seats, slices.Equal) {
		t.Errorf("the seats' rows\n%q\nanalysis/review:\n%q", got, want.seats)
	}
	got := rows("review-decisions")
	if len(got) != len(want.decisions) {
		t.Fatalf("the page shows %d decisions, analysis/review %d: %q", len(got), len(want.decisions), got)
	}
	for i := range got {
		if !slices.Equal(got[i], want.decisions[i]) {
			t.Errorf("decision %d:\n%q\nanalysis/review:\n%q", i, got[i], want.decisions[i])
		}
	}
	bold := browse[[][]string](t, ctx, `[...document.querySelectorAll("#review-decisions tr")].slice(1).map(r => [...r.cells[3].querySelectorAll("strong")].map(b => b.textContent))`)
	if !slices.EqualFunc(bold, want.made, slices.Equal) {
		t.Errorf("the choices in bold %q; the choices the turns' cards made %q", bold, want.made)
	}
	lost := browse[[]bool](t, ctx, `[...document.querySelectorAll("#review-decisions tr")].slice(1).map(r => r.classList.contains("lost"))`)
	for i, d := range r.Decisions {
		if lost[i] != (d.Cost.Sign() > 0) {
			t.Errorf("decision %d marked lost %v; its cost %s", i, lost[i], d.Cost.RatString())
		}
	}
}

// seatsTable is what the Review tab should show of a review of three or more seats: the seats'
// rows, the decisions' rows and each decision's choices made with their values, as text.
type seatsTable struct {
	seats, decisions, made [][]string
}

// seatsReviewRows writes review r as the Review tab's rows, independently of the page's script.
func seatsReviewRows(r *review.SeatsReview[*big.Rat]) seatsTable {
	g := r.Game
	four := func(v *big.Rat) string { return v.FloatString(4) }
	names := make([]string, len(r.Seats))
	var out seatsTable
	for i, s := range r.Seats {
		names[i] = s.Name
		start := "–"
		if r.Start != nil {
			start = four(r.Start[i])
		}
		out.seats = append(out.seats, []string{s.Name, start, strconv.Itoa(s.Decisions), strconv.Itoa(s.Best), four(s.Lost), four(s.Luck),
			strconv.FormatFloat(g.Result.Scores[i], 'f', -1, 64)})
	}
	for _, d := range r.Decisions {
		where := fmt.Sprintf("n=%d, j=%d", d.State.N, d.State.J)
		if d.State.S > 0 {
			where += fmt.Sprintf(", s=%d, f=%d", d.State.S, d.State.F)
		}
		if d.Passes > 0 {
			where += fmt.Sprintf(", %d passed in a row", d.Passes)
		}
		var opts, made, bold, best []string
		for _, o := range d.Options {
			opts = append(opts, o.Choice.String()+" "+four(o.Pairs))
			if slices.Contains(d.Made, o.Choice) {
				made = append(made, o.Choice.String())
				bold = append(bold, opts[len(opts)-1])
			}
			if o.Pairs.Cmp(d.Options[d.Best].Pairs) == 0 {
				best = append(best, o.Choice.String())
			}
		}
		choice, verdict, cost, luck := strings.Join(made, " or "), "best", four(d.Cost), four(d.Luck)
		switch {
		case d.Chosen < 0:
			choice, cost, luck = "outside the model (not judged)", "–", "–"
		case len(d.Options) == 1:
			verdict = "forced"
		case d.Cost.Sign() > 0:
			verdict = strings.Join(best, " or ")
		}
		out.decisions = append(out.decisions, []string{strconv.Itoa(d.Turn + 1), names[d.Seat], where, strings.Join(opts, ", "), choice, verdict, cost, luck})
		if bold == nil {
			bold = []string{}
		}
		out.made = append(out.made, bold)
	}
	return out
}
