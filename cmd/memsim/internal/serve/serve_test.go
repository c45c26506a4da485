package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/configs"
	"memsim/sim/record"
	"memsim/sim/rules"
	"memsim/tournament"
)

// defaultConfig parses the embedded default configuration afresh.
func defaultConfig() (*configs.Tournament, error) {
	file, data := configs.Default()
	return configs.Parse(file, data, tournament.ConfigOptions())
}

// newTestServer starts a server with options o (the default configuration unless o has one)
// behind an httptest server; both end with the test.
func newTestServer(t *testing.T, o Options) (*Server, *httptest.Server) {
	t.Helper()
	if o.Config == nil {
		o.Config = defaultConfig
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	return s, ts
}

// call sends a request and returns the status and the body.
func call(t *testing.T, ts *httptest.Server, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, data
}

// callJSON sends a request that must answer want and decodes its JSON answer into v.
func callJSON(t *testing.T, ts *httptest.Server, method, path, body string, want int, v any) {
	t.Helper()
	code, data := call(t, ts, method, path, body)
	if code != want {
		t.Fatalf("%s %s %s: status %d, want %d: %s", method, path, body, code, want, data)
	}
	if v != nil {
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
}

// playOut plays the person's moves of game st until its end: at each question the first card
// face down that the game accepts, and returns the last state.
func playOut(t *testing.T, ts *httptest.Server, st State) State {
	t.Helper()
	for moves := 0; !st.Over; moves++ {
		if moves > 1000 {
			t.Fatal("the game does not end")
		}
		if c := st.Coach; c != nil && (c.Error != "" || len(c.Options) == 0 && !c.Turn) {
			t.Fatalf("turn %d: the coach: %+v", st.Turn, c)
		}
		moved := false
		for pos, c := range st.Cells {
			if c.Show != "down" {
				continue
			}
			code, data := call(t, ts, "POST", "/api/games/"+st.ID+"/flip", `{"pos":`+itoa(pos)+`}`)
			if code == http.StatusUnprocessableEntity {
				continue // refused: a pass the rules do not allow
			}
			if code != http.StatusOK {
				t.Fatalf("flip %d: status %d: %s", pos, code, data)
			}
			st = State{}
			if err := json.Unmarshal(data, &st); err != nil {
				t.Fatal(err)
			}
			moved = true
			break
		}
		if !moved {
			callJSON(t, ts, "POST", "/api/games/"+st.ID+"/flip", `{"pass":true}`, http.StatusOK, &st)
		}
	}
	return st
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// A whole game against win-optimal played through the API ends, and its record reads back with
// the scores the API gave and the person's and the bot's seats.
func TestWholeGameThroughTheAPI(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	for _, seat := range []int{0, 1} {
		var st State
		callJSON(t, ts, "POST", "/api/games", `{"against":"win-optimal","seat":`+itoa(seat)+`,"pairs":4,"seed":11,"coach":true}`, http.StatusOK, &st)
		if st.You != seat || len(st.Cells) != 8 || st.Question == nil || st.Coach == nil {
			t.Fatalf("seat %d: the first state: %+v", seat, st)
		}
		st = playOut(t, ts, st)
		if !st.Finished || st.Scores[0]+st.Scores[1] != 4 || st.Result == "" {
			t.Fatalf("seat %d: the last state: over %v finished %v scores %v result %q", seat, st.Over, st.Finished, st.Scores, st.Result)
		}
		if code, data := call(t, ts, "POST", "/api/games/"+st.ID+"/flip", `{"pos":0}`); code != http.StatusConflict || !strings.Contains(string(data), "the game is over") {
			t.Errorf("a move after the end: %d %s", code, data)
		}
		code, data := call(t, ts, "GET", "/api/games/"+st.ID+"/record", "")
		if code != http.StatusOK {
			t.Fatalf("record: %d %s", code, data)
		}
		games, err := record.NewReader(bytes.NewReader(data), "record").ReadAll()
		if err != nil || len(games) != 1 {
			t.Fatalf("the record does not read back: %v (%d games)", err, len(games))
		}
		g := games[0]
		if !g.Result.Over || g.Result.Scores[0] != float64(st.Scores[0]) || g.Result.Scores[1] != float64(st.Scores[1]) {
			t.Errorf("seat %d: the record's result %+v, the API's scores %v", seat, g.Result, st.Scores)
		}
		if g.Players[seat].Kind != record.KindPerson || g.Players[1-seat].Name != "win-optimal" {
			t.Errorf("seat %d: the record's players %+v", seat, g.Players)
		}
		// The record reviews, with a graph.
		var rv ReviewJSON
		callJSON(t, ts, "POST", "/api/review", string(data), http.StatusOK, &rv)
		if len(rv.Review.Decisions) == 0 || !strings.HasPrefix(rv.SVG, "<svg") || rv.Review.Arithmetic != "exact" {
			t.Errorf("the review: %d decisions, svg %.20q, %s", len(rv.Review.Decisions), rv.SVG, rv.Review.Arithmetic)
		}
	}
}

// ratOf parses an exact value of the API.
func ratOf(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("%q is not a fraction", s)
	}
	return r
}

// The coach's values of the first move equal the solver's, computed through exact.ChoiceValues
// and exact.WinChoiceValues at the start: the pairs of each choice (optimal play afterwards) and
// its win score (win-optimal play afterwards).
func TestCoachValuesAreTheSolvers(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	var st State
	callJSON(t, ts, "POST", "/api/games", `{"against":"daring","pairs":5,"pass":"always","seed":3,"coach":true}`, http.StatusOK, &st)
	ctx := context.Background()
	m := exact.Model{Pass: rules.PassAlways}
	start := rules.State{N: 5, J: 5}
	pairs, err := exact.ChoiceValues(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, start)
	if err != nil {
		t.Fatal(err)
	}
	win, err := exact.WinChoiceValues(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, start)
	if err != nil {
		t.Fatal(err)
	}
	moves := map[string]rules.Choice{"a new card": rules.Daring, "pass": rules.Pass}
	if len(st.Coach.Options) != len(moves) {
		t.Fatalf("the coach's options %+v, want %d", st.Coach.Options, len(moves))
	}
	for _, o := range st.Coach.Options {
		c, ok := moves[o.Move]
		if !ok {
			t.Fatalf("option %q", o.Move)
		}
		p, _ := pairs.Of(c)
		w, _ := win.Of(c)
		if got := ratOf(t, o.PairsRat); got.Cmp(p.Pairs) != 0 {
			t.Errorf("%s: pairs %s, the solver's %s", o.Move, got.RatString(), p.Pairs.RatString())
		}
		if got := ratOf(t, o.WinRat); got.Cmp(w.Score) != 0 {
			t.Errorf("%s: win %s, the solver's %s", o.Move, got.RatString(), w.Score.RatString())
		}
		if f, _ := p.Pairs.Float64(); math.Abs(o.Pairs-f) > 1e-12 || o.BestPairs != p.Best || o.BestWin != w.Best {
			t.Errorf("%s: %+v, the solver's pairs %v best %v, win best %v", o.Move, o, f, p.Best, w.Best)
		}
	}
}

// The explore table's values of each choice equal exact.ChoiceValues' in every state, and the
// choice it marks is one of the solver's best.
func TestExploreTableIsTheSolvers(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	tests := []struct {
		query string
		model exact.Model
		cells int
	}{
		{"pairs=5&pass=two-known", exact.Model{Pass: rules.PassTwoKnown}, 15}, // 1 <= j <= n <= 5
		{"pairs=6&memory=2&forget=lru&choices=daring,safe", exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU},
			Choices: rules.NewChoiceSet(rules.Daring, rules.Safe)}, 0},
	}
	for _, tt := range tests {
		var tab TableJSON
		callJSON(t, ts, "GET", "/api/table?"+tt.query, "", http.StatusOK, &tab)
		if tt.cells > 0 && len(tab.Cells) != tt.cells || len(tab.Cells) == 0 || tab.Arithmetic != "exact" || tab.Memory != tt.model.Memory.String() {
			t.Fatalf("%s: %d cells (want %d), %s, memory %s", tt.query, len(tab.Cells), tt.cells, tab.Arithmetic, tab.Memory)
		}
		checkTable(t, tt.query, tab, tt.model)
	}
}

// checkTable compares the cells of table tab with exact.ChoiceValues in model m.
func checkTable(t *testing.T, query string, tab TableJSON, m exact.Model) {
	t.Helper()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for _, c := range tab.Cells {
		cv, err := exact.ChoiceValues(context.Background(), field.Float{}, m, mu, rules.State{N: c.N, J: c.J})
		if err != nil {
			t.Fatalf("%s: (%d, %d): %v", query, c.N, c.J, err)
		}
		best := false
		for _, b := range cv.Best {
			best = best || b.String() == c.Choice
		}
		if !best {
			t.Errorf("(%d, %d): choice %s, the solver's best %v", c.N, c.J, c.Choice, cv.Best)
		}
		for k, name := range tab.Names {
			ch, _ := rules.ParseChoice(name)
			v, legal := cv.Of(ch)
			switch {
			case legal != (c.Values[k] != nil):
				t.Errorf("(%d, %d) %s: open %v in the table, %v for the solver", c.N, c.J, name, c.Values[k] != nil, legal)
			case legal && math.Abs(*c.Values[k]-v.Pairs) > 1e-9:
				t.Errorf("(%d, %d) %s: %v, the solver's %v", c.N, c.J, name, *c.Values[k], v.Pairs)
			}
		}
	}
}

// A watched game is played to its end; its turns take every pair and its record reads back
// with the same scores.
func TestWatchPlaysAWholeGame(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	var wj WatchJSON
	callJSON(t, ts, "POST", "/api/watch", `{"players":["win-optimal","daring"],"pairs":6,"seed":5}`, http.StatusOK, &wj)
	pairs := 0
	for _, turn := range wj.Turns {
		if turn.End == "pair" {
			pairs++
		}
	}
	games, err := record.NewReader(strings.NewReader(wj.Record), "record").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if pairs != 6 || wj.Scores[0]+wj.Scores[1] != 6 || games[0].Result.Scores[0] != float64(wj.Scores[0]) {
		t.Errorf("%d pairs in the turns, scores %v, the record's %v", pairs, wj.Scores, games[0].Result.Scores)
	}
}

// Every endpoint of the page answers its good request, and the page's files are served.
func TestPageAndPlayersAreServed(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	for path, kind := range map[string]string{"/": "text/html", "/app.js": "text/javascript", "/style.css": "text/css"} {
		res, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), kind) {
			t.Errorf("%s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
	var p PlayersJSON
	callJSON(t, ts, "GET", "/api/players", "", http.StatusOK, &p)
	if p.Default != "win-optimal" || len(p.Players) != 5 {
		t.Errorf("players: %+v", p)
	}
	var st State
	callJSON(t, ts, "POST", "/api/games", `{}`, http.StatusOK, &st)
	callJSON(t, ts, "GET", "/api/games/"+st.ID, "", http.StatusOK, &st)
	if st.Pairs != 12 || st.Seats[1].Name != "win-optimal" || st.Coach != nil {
		t.Errorf("a game with the configuration's rules: %d pairs, seats %+v, coach %v", st.Pairs, st.Seats, st.Coach)
	}
}

// Every bad request gets a 4xx status and a message naming what is wrong; the server answers
// the next request.
func TestBadRequestsGetAMessage(t *testing.T) {
	_, ts := newTestServer(t, Options{Burst: 1000})
	var st State
	callJSON(t, ts, "POST", "/api/games", `{"pairs":3,"seed":1}`, http.StatusOK, &st)
	game := "/api/games/" + st.ID
	tests := []struct {
		method, path, body string
		code               int
		msg                string
	}{
		{"GET", "/nothing", "", 404, "no page /nothing"},
		{"GET", "/../go.mod", "", 404, "no page"},
		{"GET", "/%2e%2e/go.mod", "", 404, "no page"},
		{"GET", "//etc/passwd", "", 404, "no page"},
		{"GET", "/app.js/../../go.mod", "", 404, "no page"},
		{"GET", "/assets/index.html", "", 404, "no page"},
		{"GET", "/server.go", "", 404, "no page"},
		{"GET", "/api/unknown", "", 404, "no page"},
		{"DELETE", "/api/games", "", 405, "use POST"},
		{"GET", "/api/games", "", 405, "use POST"},
		{"POST", "/api/table", "", 405, "use GET"},
		{"POST", "/api/games", ``, 400, "no JSON body"},
		{"POST", "/api/games", `{`, 400, "not the JSON expected"},
		{"POST", "/api/games", `{"colour":"red"}`, 400, "unknown field"},
		{"POST", "/api/games", `{"pairs":"three"}`, 400, "pairs: must be a JSON int"},
		{"POST", "/api/games", `{"pairs":0}`, 400, "pairs: 0: must be between 1 and 30"},
		{"POST", "/api/games", `{"pairs":31}`, 400, "pairs: 31: must be between 1 and 30"},
		{"POST", "/api/games", `{"singletons":11}`, 400, "singletons: 11: must be between 0 and 10"},
		{"POST", "/api/games", `{"pass":"sometimes"}`, 400, `pass: "sometimes": allowed: never, two-known, always`},
		{"POST", "/api/games", `{"seat":2}`, 400, "seat: 2: must be 0"},
		{"POST", "/api/games", `{"against":"nobody"}`, 400, `no player "nobody" in the configuration (allowed: optimal, parity`},
		{"POST", "/api/games", `{"pairs":25,"coach":true}`, 400, "coach: the coach judges deals of at most 20 pairs"},
		{"POST", "/api/games", `{"seed":-1}`, 400, "seed: must be a JSON uint64"},
		{"POST", "/api/games", `{} {}`, 400, "more than one JSON value"},
		{"GET", "/api/games/nope", "", 404, `no game "nope"`},
		{"POST", "/api/games/nope/flip", `{"pos":0}`, 404, `no game "nope"`},
		{"GET", "/api/games/nope/record", "", 404, `no game "nope"`},
		{"POST", game + "/flip", `{}`, 400, "pos: give the position of the card to flip, 0 to 5, or pass: true"},
		{"POST", game + "/flip", `{"pos":6}`, 400, "pos: 6: must be between 0 and 5"},
		{"POST", game + "/flip", `{"pos":-1}`, 400, "pos: -1: must be between 0 and 5"},
		{"POST", game + "/flip", `{"pos":1,"pass":true}`, 400, "not both"},
		{"POST", game + "/flip", `{"pass":true}`, 422, "no passing: the pass rule is never"},
		{"POST", "/api/watch", `{"players":["daring"]}`, 400, "players: give two players' names"},
		{"POST", "/api/watch", `{"players":["daring","nobody"]}`, 400, `no player "nobody"`},
		{"POST", "/api/watch", `{"players":["daring",""]}`, 400, "a player's name is empty"},
		{"POST", "/api/watch", `{"players":["daring","parity"],"pairs":100}`, 400, "pairs: 100: must be between 1 and 30"},
		{"POST", "/api/review", "", 400, "record: empty"},
		{"POST", "/api/review", "not a record\n", 400, "record: "},
		{"POST", "/api/review", `{"type":"game","format":"memsim-record/1","rules":{"pairs":1,"singletons":11}}`, 400, "record: game 1 deals 11 singletons: the page reviews at most 10"},
		{"POST", "/api/review?game=0", "x", 400, "game: \"0\": must be a game's number"},
		{"POST", "/api/review?game=x", "x", 400, "game: \"x\""},
		{"GET", "/api/table?pairs=0", "", 400, "pairs: \"0\": must be a whole number between 1 and 100"},
		{"GET", "/api/table?pairs=101", "", 400, "pairs: \"101\""},
		{"GET", "/api/table?pairs=x", "", 400, "pairs: \"x\""},
		{"GET", "/api/table?singletons=11", "", 400, "singletons: \"11\""},
		{"GET", "/api/table?singletons=2&unseen=3", "", 400, "unseen: \"3\": must be a whole number between 0 and 2"},
		{"GET", "/api/table?pass=x", "", 400, "pass: \"x\": allowed"},
		{"GET", "/api/table?choices=safe", "", 400, "choices: \"safe\""},
		{"GET", "/api/table?choices=daring,daring", "", 400, "listed twice"},
		{"GET", "/api/table?colour=red", "", 400, "colour: unknown parameter"},
		{"GET", "/api/table?memory=1&forget=lru", "", 400, "memory: \"1\": must be 0 (perfect memory) or a capacity from 2 to 40"},
		{"GET", "/api/table?memory=41&forget=lru", "", 400, "memory: \"41\""},
		{"GET", "/api/table?memory=4", "", 400, "forget: \"\": allowed with a limited memory: handover-uniform, lru"},
		{"GET", "/api/table?memory=4&forget=decay", "", 400, "forget: \"decay\""},
		{"GET", "/api/table?forget=lru", "", 400, "forget: \"lru\": a forgetting rule goes with memory 2 or more"},
		{"GET", "/api/table?memory=4&forget=lru&singletons=1", "", 400, "singletons: 1 with memory 4"},
		{"GET", "/api/table?memory=4&forget=lru&pairs=41", "", 400, "pairs: 41: a limited memory's table goes up to 40 pairs"},
	}
	for _, tt := range tests {
		code, data := call(t, ts, tt.method, tt.path, tt.body)
		var e errorJSON
		if err := json.Unmarshal(data, &e); err != nil {
			t.Errorf("%s %s %s: not JSON: %s", tt.method, tt.path, tt.body, data)
			continue
		}
		if code != tt.code || !strings.Contains(e.Error, tt.msg) || strings.Contains(e.Error, "\n") {
			t.Errorf("%s %s %s: %d %q, want %d and a line with %q", tt.method, tt.path, tt.body, code, e.Error, tt.code, tt.msg)
		}
	}
	callJSON(t, ts, "GET", game, "", http.StatusOK, &st)
}

// A review of a record with a game of three seats, or of a game the record does not hold, is
// refused with a message.
func TestReviewRefusesGamesItCannotJudge(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	var wj WatchJSON
	callJSON(t, ts, "POST", "/api/watch", `{"players":["optimal","daring"],"pairs":2,"seed":1}`, http.StatusOK, &wj)
	code, data := call(t, ts, "POST", "/api/review?game=2", wj.Record)
	if code != 400 || !strings.Contains(string(data), "game: 2: the record holds 1 games") {
		t.Errorf("game 2 of 1: %d %s", code, data)
	}
}

// A body larger than the bound is refused with 413.
func TestBodiesTooLargeAreRefused(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	for _, tt := range []struct {
		path string
		size int
	}{{"/api/games", MaxBody + 1}, {"/api/watch", MaxBody + 1}, {"/api/review", MaxRecordBody + 1}} {
		body := `{"pairs":3,"seed":1,"against":"` + strings.Repeat("x", tt.size) + `"}`
		code, data := call(t, ts, "POST", tt.path, body)
		if code != http.StatusRequestEntityTooLarge || !strings.Contains(string(data), "larger than") {
			t.Errorf("%s with %d bytes: %d %s", tt.path, len(body), code, data)
		}
	}
}

// A client over its allowance gets 429, with a message.
func TestRateLimit(t *testing.T) {
	_, ts := newTestServer(t, Options{Rate: 0.001, Burst: 3})
	for i := range 3 {
		if code, data := call(t, ts, "GET", "/api/players", ""); code != 200 {
			t.Fatalf("request %d: %d %s", i+1, code, data)
		}
	}
	code, data := call(t, ts, "GET", "/api/players", "")
	if code != http.StatusTooManyRequests || !strings.Contains(string(data), "too many requests") {
		t.Errorf("request 4: %d %s", code, data)
	}
}

// A panic in a handler is a 500 with a message, and the server goes on answering.
func TestPanicIsA500(t *testing.T) {
	calls := 0
	_, ts := newTestServer(t, Options{Config: func() (*configs.Tournament, error) {
		calls++
		if calls == 1 {
			panic("a configuration that fails")
		}
		return defaultConfig()
	}})
	code, data := call(t, ts, "GET", "/api/players", "")
	if code != 500 || !strings.Contains(string(data), "a configuration that fails") {
		t.Errorf("%d %s", code, data)
	}
	callJSON(t, ts, "GET", "/api/players", "", http.StatusOK, nil)
}

// The games under way are bounded by MaxGames; a game left idle ends, and its goroutines with
// it, and a new game can start.
func TestIdleGamesEndAndFreeTheirPlace(t *testing.T) {
	before := runtime.NumGoroutine()
	s, ts := newTestServer(t, Options{MaxGames: 2, IdleTimeout: time.Minute})
	var st State
	for range 2 {
		callJSON(t, ts, "POST", "/api/games", `{"pairs":3,"coach":true}`, http.StatusOK, &st)
	}
	code, data := call(t, ts, "POST", "/api/games", `{"pairs":3}`)
	if code != http.StatusServiceUnavailable || !strings.Contains(string(data), "2 games are under way") {
		t.Errorf("a third game: %d %s", code, data)
	}
	if n := s.Sweep(time.Now()); n != 0 || s.Live() != 2 {
		t.Errorf("a sweep now ended %d games; %d live", n, s.Live())
	}
	if n := s.Sweep(time.Now().Add(2 * time.Minute)); n != 2 || s.Live() != 0 {
		t.Errorf("a sweep after the idle time ended %d games; %d live", n, s.Live())
	}
	code, _ = call(t, ts, "GET", "/api/games/"+st.ID, "")
	if code != http.StatusNotFound {
		t.Errorf("an ended game: %d", code)
	}
	ts.Client().CloseIdleConnections()
	// The games' goroutines have ended (Sweep waits for them); those of the HTTP connections end
	// on their own: wait for the count to come back.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		t.Errorf("%d goroutines after the games ended, %d before", n, before)
	}
	callJSON(t, ts, "POST", "/api/games", `{"pairs":3}`, http.StatusOK, &st)
}

// Games started at once never overshoot MaxGames: of eight requests sent together to a server
// that plays three games, three start and the others get 503.
func TestGamesStartedAtOnceKeepTheBound(t *testing.T) {
	t.Parallel()
	s, ts := newTestServer(t, Options{MaxGames: 3, IdleTimeout: time.Minute})
	codes := make([]int, 8)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _ = call(t, ts, "POST", "/api/games", `{"pairs":3}`)
		}()
	}
	wg.Wait()
	started := 0
	for _, c := range codes {
		switch c {
		case http.StatusOK:
			started++
		case http.StatusServiceUnavailable:
		default:
			t.Errorf("a start answered %d", c)
		}
	}
	if started != 3 || s.Live() != 3 {
		t.Errorf("%d games started, %d live; want 3 (codes %v)", started, s.Live(), codes)
	}
}

// The rate limiter's table of clients does not grow past its bound: a new client beyond it, while
// every client in it is busy, is refused rather than added.
func TestRateLimiterTableIsBounded(t *testing.T) {
	t.Parallel()
	l := newLimiter(1, 1)
	now := time.Now()
	for i := range maxClients {
		if !l.allow(fmt.Sprintf("c%d", i), now) {
			t.Fatalf("client %d refused", i)
		}
	}
	if l.allow("one more", now) || len(l.buckets) > maxClients {
		t.Errorf("a client past the bound allowed, or the table grew to %d", len(l.buckets))
	}
	if !l.allow("one more", now.Add(2*time.Second)) {
		t.Error("a new client refused once the others' allowances refilled")
	}
}
