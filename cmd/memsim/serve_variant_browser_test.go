package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/cmd/memsim/internal/serve"
	"memsim/configs"
	"memsim/sim/rules"
	"memsim/tournament"
)

// startServeWith starts memsim serve's server with a configuration of the given rules and the
// players daring and safe, and returns its URL; it ends with the test.
func startServeWith(t *testing.T, rulesYAML string) string {
	t.Helper()
	load := func() (*configs.Tournament, error) {
		data := []byte("name: v\nrules: " + rulesYAML + "\nplayers:\n  - {name: daring, policy: daring}\n  - {name: safe, policy: safe}\n")
		return configs.Parse("v.yaml", data, tournament.ConfigOptions())
	}
	s, err := serve.New(serve.Options{Config: load})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	return ts.URL
}

// The page plays the configuration's rule variant in a real browser: under blind flips and a
// turn limit it says the rules, shows the turns left, marks the first card named face down
// while the second is asked, and its coach shows the solver's values of the turn's choices with
// the whole limit left at the start; a whole game is played by clicking and reviewed turn by
// turn. Under copies of a face the coach's win column shows the copies model's win scores (the
// first row, daring, at two faces of four cards unseen and lead 0). The Review tab shows a game
// of three seats as analysis/review values it (checkSeatsReviewInABrowser).
func TestServePageUnderVariantsInABrowser(t *testing.T) {
	browser := chromiumPath(t)
	url := startServeWith(t, "{pairs: 3, flips: blind, turn_limit: 6}")
	ctx := newBrowser(t, browser)
	do(t, ctx, "open the page", chromedp.EmulateViewport(1000, 900), chromedp.Navigate(url+"/"))
	waitFor(t, ctx, `document.querySelectorAll("#play-against option").length > 0`)
	browse[bool](t, ctx, `window.memsimDelay = 0; const f = document.getElementById("play-form");
		f.elements.pairs.value = 3; f.elements.seed.value = 5; f.elements.against.value = "safe"; true`)
	do(t, ctx, "start a game", chromedp.Click(`#play-form button[type="submit"]`))
	waitFor(t, ctx, settled)
	if r := browse[string](t, ctx, `document.getElementById("play-rules").textContent`); !strings.Contains(r, "blind flips") || !strings.Contains(r, "after 6 turns") {
		t.Errorf("the rules line: %q", r)
	}
	if s := browse[string](t, ctx, `document.getElementById("play-turn").textContent`); !strings.HasPrefix(s, "turn 1 of 6 (6 left): name both cards") {
		t.Errorf("the turn line: %q", s)
	}
	coach := browse[[][]string](t, ctx, `[...document.querySelectorAll("#coach-table tbody tr")].map(r => [...r.cells].map(c => c.textContent))`)
	m := exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 6}}
	start := rules.State{N: 3, J: 3}
	pairs, err := exact.ChoiceValues(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, start)
	if err != nil {
		t.Fatal(err)
	}
	win, err := exact.WinChoiceValues(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, start)
	if err != nil {
		t.Fatal(err)
	}
	if len(coach) != len(pairs.Values) {
		t.Fatalf("the coach shows %q; the solver has %d choices", coach, len(pairs.Values))
	}
	for i, row := range coach {
		want := []string{pairs.Values[i].Choice.String(), pairs.Values[i].Pairs.FloatString(4), win.Values[i].Score.FloatString(4)}
		if !strings.HasPrefix(row[0], want[0]) || row[1] != want[1] || row[2] != want[2] {
			t.Errorf("the coach's row %q; the solver: %q", row, want)
		}
	}

	// The first card named stays face down, marked, while the second is asked.
	clickAcceptedCard(t, ctx)
	if s := browse[string](t, ctx, `document.getElementById("play-turn").textContent`); !strings.Contains(s, "stays face down") {
		t.Errorf("the turn line at the second card: %q", s)
	}
	if n := browse[int](t, ctx, `document.querySelectorAll("#play-board .card.down.named[disabled]").length`); n != 1 {
		t.Errorf("%d cards marked named, want 1", n)
	}
	for moves := 0; browse[string](t, ctx, `document.getElementById("play-game").dataset.state`) != "over"; moves++ {
		if moves > 100 {
			t.Fatal("the game does not end")
		}
		if advice := browse[string](t, ctx, `document.getElementById("coach").textContent`); strings.Contains(advice, "cannot") {
			t.Fatalf("move %d: the coach says %q", moves, advice)
		}
		clickAcceptedCard(t, ctx)
	}
	if r := browse[string](t, ctx, `document.getElementById("play-result").textContent`); r == "" {
		t.Error("no result shown")
	}
	do(t, ctx, "review the game", chromedp.Click("#play-review"))
	waitFor(t, ctx, `["shown", "failed"].includes(document.getElementById("review-out").dataset.state)`)
	head := browse[string](t, ctx, `document.getElementById("review-head").textContent`)
	if rows := browse[int](t, ctx, `document.querySelectorAll("#review-decisions tr").length - 1`); rows < 1 || !strings.Contains(head, "blind flips, turn limit 6") {
		t.Errorf("the review shows %d turns under %q: %s", rows, head, browse[string](t, ctx, `document.getElementById("review-error").textContent`))
	}

	url = startServeWith(t, "{pairs: 4, copies: 4}")
	do(t, ctx, "open the page of copies", chromedp.Navigate(url+"/"))
	waitFor(t, ctx, `document.querySelectorAll("#play-against option").length > 0`)
	browse[bool](t, ctx, `window.memsimDelay = 0; document.getElementById("play-form").elements.pairs.value = 4; true`)
	do(t, ctx, "start a game of copies", chromedp.Click(`#play-form button[type="submit"]`))
	waitFor(t, ctx, settled)
	if r := browse[string](t, ctx, `document.getElementById("play-rules").textContent`); !strings.Contains(r, "4 cards of each face") {
		t.Errorf("the rules line: %q", r)
	}
	st, err := exact.ParseCopiesState("4:2u", 4)
	if err != nil {
		t.Fatal(err)
	}
	wmu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	ws, err := exact.CopiesWinChoiceValues(context.Background(), field.Rat{}, exact.Model{Variant: rules.Variant{Copies: 4}}, wmu, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if w, want := browse[string](t, ctx, `document.querySelector("#coach-table tbody tr").cells[2].textContent`), ws.Values[0].Score.FloatString(4); w != want || ws.Values[0].Choice != rules.Daring {
		t.Errorf("the win column under copies shows %q, want %s (the model's %v)", w, want, ws.Values[0].Choice)
	}

	checkSeatsReviewInABrowser(t, ctx, url)
}
