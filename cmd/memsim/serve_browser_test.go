package main

import (
	"context"
	"fmt"
	"math/big"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/cmd/memsim/internal/serve"
	"memsim/configs"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// startServe starts memsim serve's server on 127.0.0.1 (a free port) with the embedded default
// configuration and returns its URL; it ends with the test.
func startServe(t *testing.T) string {
	t.Helper()
	s, err := serve.New(serve.Options{Config: func() (*configs.Tournament, error) { return loadConfig(nil) }})
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

// browse runs a script in the page and decodes its value.
func browse[T any](t *testing.T, ctx context.Context, script string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", firstLineOf(script), err)
	}
	return v
}

// waitFor waits until the script's value is true in the page.
func waitFor(t *testing.T, ctx context.Context, script string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](script, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		shown, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll(".error")].map(e => e.textContent).join("; ")`))
		t.Fatalf("waiting for %s: %v (the page's errors: %q)", script, err, shown)
	}
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// do runs browser actions, failing the test on an error.
func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// settled is true when the game on the page waits for the person's move or is over.
const settled = `["waiting", "over"].includes(document.getElementById("play-game").dataset.state)`

// The page of memsim serve works in a real browser: a whole game against win-optimal is played
// by clicking the cards (the first move by keyboard), the coach shows the solver's values, the
// record is saved and reviewed with its graph, and the strategy table shows as a heat map with
// each state's values on hover; at a phone's width nothing scrolls sideways, and the page loads
// nothing from outside the server.
func TestServePageInABrowser(t *testing.T) {
	browser := chromiumPath(t)
	url := startServe(t)
	ctx := newBrowser(t, browser)
	do(t, ctx, "open the page", chromedp.EmulateViewport(1000, 900), chromedp.Navigate(url+"/"))
	waitFor(t, ctx, `document.querySelectorAll("#play-against option").length > 0`)
	browse[bool](t, ctx, `window.memsimDelay = 0; const f = document.getElementById("play-form");
		f.elements.pairs.value = 3; f.elements.seed.value = 21; f.elements.against.value = "win-optimal"; true`)
	do(t, ctx, "start a game", chromedp.Click(`#play-form button[type="submit"]`))
	waitFor(t, ctx, settled)

	// The coach's values of the first card: the solver's at the start, 3 pairs, pass rule never.
	coach := browse[[][]string](t, ctx, `[...document.querySelectorAll("#coach-table tbody tr")].map(r => [...r.cells].map(c => c.textContent))`)
	start := rules.State{N: 3, J: 3}
	pairs, err := exact.ChoiceValues(ctx, field.Rat{}, exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, start)
	if err != nil {
		t.Fatal(err)
	}
	win, err := exact.WinChoiceValues(ctx, field.Rat{}, exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, start)
	if err != nil {
		t.Fatal(err)
	}
	score := new(big.Rat).Add(win.Value.Win, new(big.Rat).Quo(win.Value.Draw, big.NewRat(2, 1)))
	want := []string{"a new card", pairs.Value.ExpectedPairs.FloatString(4), score.FloatString(4)}
	if len(coach) != 1 || !strings.HasPrefix(coach[0][0], want[0]) || coach[0][1] != want[1] || coach[0][2] != want[2] {
		t.Errorf("the coach shows %q; the solver: %q", coach, want)
	}

	// The first card by keyboard: the arrow to the second card, then Enter.
	do(t, ctx, "focus the board", chromedp.Focus(`#play-board button[tabindex="0"]`))
	do(t, ctx, "move with the keyboard", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, settled+` && document.querySelectorAll("#play-board .card.up").length === 1`)
	if up := browse[string](t, ctx, `document.querySelector("#play-board .card.up").dataset.pos`); up != "1" {
		t.Errorf("the keyboard flipped card %s, want 1", up)
	}

	// The rest by clicking: the first card face down the game accepts.
	for moves := 0; browse[string](t, ctx, `document.getElementById("play-game").dataset.state`) != "over"; moves++ {
		if moves > 100 {
			t.Fatal("the game does not end")
		}
		if advice := browse[string](t, ctx, `document.getElementById("coach").textContent`); strings.Contains(advice, "cannot") || !strings.Contains(advice, "card") {
			t.Fatalf("move %d: the coach says %q", moves, advice)
		}
		clickAcceptedCard(t, ctx)
	}
	result := browse[string](t, ctx, `document.getElementById("play-result").textContent`)
	scores := browse[string](t, ctx, `document.getElementById("play-scores").textContent`)
	if !strings.Contains(result, "all pairs taken") {
		t.Errorf("the result: %q", result)
	}

	// Save the record: the link's file reads back as a finished game with the scores shown.
	text := browse[string](t, ctx, `fetch(document.getElementById("play-save").href).then(r => r.text())`)
	games, err := record.NewReader(strings.NewReader(text), "saved").ReadAll()
	if err != nil {
		t.Fatalf("the saved record: %v", err)
	}
	g := games[0]
	if you := fmt.Sprintf("you %g, win-optimal %g", g.Result.Scores[0], g.Result.Scores[1]); !g.Result.Over || you != scores {
		t.Errorf("the record's result %q (over %v), the page's %q", you, g.Result.Over, scores)
	}

	// Review it in one click.
	do(t, ctx, "review the game", chromedp.Click("#play-review"))
	waitFor(t, ctx, `["shown", "failed"].includes(document.getElementById("review-out").dataset.state)`)
	rows := browse[int](t, ctx, `document.querySelectorAll("#review-decisions tr").length - 1`)
	graph := browse[bool](t, ctx, `!!document.querySelector("#review-graph svg path, #review-graph svg polyline")`)
	if rows < 3 || !graph {
		t.Errorf("the review shows %d decisions, a graph %v: %s", rows, graph, browse[string](t, ctx, `document.getElementById("review-error").textContent`))
	}

	// Watch: a game between two bots, stepped through turn by turn, then reviewed.
	do(t, ctx, "open Watch", chromedp.Click("#tab-watch"))
	browse[bool](t, ctx, `const w = document.getElementById("watch-form"); w.elements.pairs.value = 4; w.elements.seed.value = 2; true`)
	do(t, ctx, "watch a game", chromedp.Click(`#watch-form button[type="submit"]`))
	waitFor(t, ctx, `!document.getElementById("watch-game").hidden`)
	do(t, ctx, "step two turns", chromedp.Click("#watch-next"), chromedp.Click("#watch-next"))
	if step := browse[string](t, ctx, `document.getElementById("watch-step").textContent`); !strings.HasPrefix(step, "turn 2 of ") {
		t.Errorf("after two steps: %q", step)
	}
	do(t, ctx, "review the watched game", chromedp.Click("#watch-review"))
	waitFor(t, ctx, `document.getElementById("review-out").dataset.state === "shown" && document.getElementById("review-head").textContent.includes("win-optimal (seat 0) against")`)

	// Explore: the heat map of 20 pairs, and a state's values on hover.
	do(t, ctx, "open Explore", chromedp.Click("#tab-explore"))
	waitFor(t, ctx, `document.querySelectorAll("#explore-map rect.cell").length > 0`)
	if n := browse[int](t, ctx, `document.querySelectorAll("#explore-map rect.cell").length`); n != 20*21/2 {
		t.Errorf("%d cells in the heat map, want %d", n, 20*21/2)
	}
	box := browse[[]float64](t, ctx, `(() => { const r = document.querySelector('#explore-map rect[data-n="6"][data-j="4"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	do(t, ctx, "hover over (6, 4)", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box[0], box[1]))
	cell := browse[string](t, ctx, `document.getElementById("explore-cell").textContent`)
	cv, err := exact.ChoiceValues(ctx, field.Rat{}, exact.Model{}, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, rules.State{N: 6, J: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range cv.Values {
		if !strings.Contains(cell, v.Choice.String()+v.Pairs.FloatString(4)) {
			t.Errorf("the hover box %q lacks %s %s", cell, v.Choice, v.Pairs.FloatString(4))
		}
	}
	if !strings.Contains(cell, "n = 6, j = 4") {
		t.Errorf("the hover box %q is not of (6, 4)", cell)
	}
	if *screenshots {
		writeServeScreenshot(t, ctx, "serve-explore")
	}
	loaded := browse[[]string](t, ctx, `performance.getEntriesByType("resource").map(e => e.name)`)
	for _, u := range loaded {
		if !strings.HasPrefix(u, url+"/") {
			t.Errorf("the page loaded %s, outside the server", u)
		}
	}

	if *screenshots {
		playScreenshot(t, ctx, url)
	}

	// At a phone's width, each section fits.
	do(t, ctx, "open the page at 375 px", chromedp.EmulateViewport(375, 800), chromedp.Navigate(url+"/"))
	waitFor(t, ctx, `document.querySelectorAll("#play-against option").length > 0`)
	browse[bool](t, ctx, `window.memsimDelay = 0; document.getElementById("play-form").elements.pairs.value = 20; true`)
	do(t, ctx, "start a game at 375 px", chromedp.Click(`#play-form button[type="submit"]`))
	waitFor(t, ctx, settled)
	for _, tab := range []string{"play", "watch", "review", "explore"} {
		do(t, ctx, "open "+tab, chromedp.Click("#tab-"+tab))
		if tab == "explore" {
			waitFor(t, ctx, `document.querySelectorAll("#explore-map rect.cell").length > 0`)
		}
		if w := browse[[]int](t, ctx, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
			t.Errorf("%s at 375 px scrolls sideways: %d px wide in %d", tab, w[0], w[1])
		}
	}
}

// clickAcceptedCard clicks the cards face down in turn until the game accepts one.
func clickAcceptedCard(t *testing.T, ctx context.Context) {
	t.Helper()
	cards := browse[[]string](t, ctx, `[...document.querySelectorAll("#play-board button:not([disabled])")].map(b => b.dataset.pos)`)
	for _, pos := range cards {
		do(t, ctx, "click card "+pos, chromedp.Click(fmt.Sprintf(`#play-board button[data-pos="%s"]`, pos)))
		waitFor(t, ctx, settled)
		if browse[bool](t, ctx, `document.getElementById("play-error").hidden`) {
			return
		}
	}
	t.Fatalf("no card accepted: %s", browse[string](t, ctx, `document.getElementById("play-error").textContent`))
}

// playScreenshot writes docs/screenshots/serve-play.png, a game of 8 pairs against win-optimal
// some turns in with the coach at a second card, and serve-review.png, its review at its end.
func playScreenshot(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, "open the page", chromedp.EmulateViewport(1000, 800), chromedp.Navigate(url+"/"))
	waitFor(t, ctx, `document.querySelectorAll("#play-against option").length > 0`)
	browse[bool](t, ctx, `window.memsimDelay = 0; const f = document.getElementById("play-form");
		f.elements.pairs.value = 8; f.elements.seed.value = 4; true`)
	do(t, ctx, "start a game", chromedp.Click(`#play-form button[type="submit"]`))
	waitFor(t, ctx, settled)
	over := func() bool {
		return browse[string](t, ctx, `document.getElementById("play-game").dataset.state`) == "over"
	}
	for range 5 {
		if over() {
			t.Fatal("the game of the screenshot ended early: choose another seed")
		}
		clickAcceptedCard(t, ctx)
	}
	writeServeScreenshot(t, ctx, "serve-play")
	for moves := 0; !over(); moves++ {
		if moves > 100 {
			t.Fatal("the game of the screenshot does not end")
		}
		clickAcceptedCard(t, ctx)
	}
	do(t, ctx, "review the game", chromedp.Click("#play-review"))
	waitFor(t, ctx, `document.getElementById("review-out").dataset.state === "shown"`)
	writeServeScreenshot(t, ctx, "serve-review")
}

// writeServeScreenshot writes a screenshot of the page as it is, 1000 px wide, to
// docs/screenshots/<name>.png.
func writeServeScreenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll(screenshotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(screenshotDir, name+".png")
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", out)
}
