package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/audit"
	"memsim/sim/record"
)

func TestRunWritesTheRunFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, out := finishedSmallRun(t, dir)
	stdout, stderr, played := smallRunPrinted(t)
	for _, f := range []string{"config.yaml", "results.json", "matchups.csv", "report.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if !strings.Contains(stdout, "full report: "+filepath.Join(played, "report.md")) || !strings.Contains(stderr, "wrote "+played) {
		t.Errorf("stdout %q... stderr %q", stdout[:min(len(stdout), 80)], stderr)
	}
	// The summary: a header within 80 columns, one line per matchup (24) none wider than 100,
	// and the report's path.
	_, lines, _ := summaryParts(t, stdout)
	if len(lines) != 24 {
		t.Errorf("the summary has %d matchups' lines, want 24:\n%s", len(lines), stdout)
	}
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\n")
		if n := len([]rune(l)); n > 100 {
			t.Errorf("a summary line of %d columns: %q", n, l)
		}
	}
	r := readRun(t, out)
	// 4 players, round-robin over ordered pairs: 12 matchups per deal size, 6 pairings.
	if r.Seed != 7 || len(r.Matchups) != 24 || len(r.Pairings) != 12 {
		t.Fatalf("seed %d, %d matchups, %d pairings", r.Seed, len(r.Matchups), len(r.Pairings))
	}
	// Welch's comparisons of the three others against optimal, at each deal size; random fares
	// far worse than parity against it.
	if len(r.Comparisons) != 6 {
		t.Errorf("%d comparisons, want 6", len(r.Comparisons))
	}
	for _, c := range r.Comparisons {
		if c.Opponent != "optimal" || (c.A == "parity" && c.B == "random" && (c.Diff <= 0 || c.P > 1e-6)) {
			t.Errorf("comparison %+v", c)
		}
	}
	for _, m := range r.Matchups {
		total := 0.0
		for _, x := range m.MeanPairs {
			total += x
		}
		if m.Games != 3000 || total < float64(m.Pairs)-1e-9 || total > float64(m.Pairs)+1e-9 {
			t.Errorf("%v at %d pairs: %d games, seats' means add up to %g", m.Players, m.Pairs, m.Games, total)
		}
		// Exact values exist exactly for the matchups of the two perfect-memory table players.
		tableOnly := true
		for _, p := range m.Players {
			tableOnly = tableOnly && (p == "optimal" || p == "parity")
		}
		for s, e := range m.ExactPairs {
			if (e != nil) != tableOnly {
				t.Errorf("%v at %d pairs: exact value of seat %d is %v", m.Players, m.Pairs, s, e)
			}
		}
	}
	// The folder is not replaced without --force; with it, the resolved configuration in the
	// folder runs again to the same results, and the checkpoint of the finished run is gone.
	before, _ := os.ReadFile(filepath.Join(out, "results.json"))
	_, stderr2, code2 := runArgs(t, "run", "--no-figures", "--quiet", filepath.Join(out, "config.yaml"))
	if code2 != exitUsage || !strings.Contains(stderr2, "already holds a run") || !strings.Contains(stderr2, "--force") {
		t.Errorf("rerun without --force: exit %d, %q", code2, stderr2)
	}
	// --markdown prints the whole report.md instead of the summary.
	md, stderr2, code2 := runArgs(t, "run", "--no-figures", "--quiet", "--force", "--markdown", filepath.Join(out, "config.yaml"))
	if code2 != exitOK {
		t.Fatalf("rerun of the written config.yaml: exit %d: %s", code2, stderr2)
	}
	after, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if string(before) != string(after) {
		t.Error("the rerun's results differ")
	}
	if report, _ := os.ReadFile(filepath.Join(out, "report.md")); md != string(report) {
		t.Error("--markdown: stdout is not report.md")
	}
	if _, err := os.Stat(filepath.Join(out, "checkpoint.json")); !os.IsNotExist(err) {
		t.Errorf("a finished run left its checkpoint: %v", err)
	}
}

// The same configuration gives byte-identical results on 1 and 2 workers.
func TestRunIsDeterministicAcrossWorkers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("two whole runs (make test-long); the engine and the golden tournament test determinism in short mode")
	}
	var outputs [2][]byte
	for i, workers := range []string{"1", "2"} {
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "det", smallTournament)
		if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--workers", workers, "--games", "2500", cfg); code != exitOK {
			t.Fatalf("workers %s: exit %d: %s", workers, code, stderr)
		}
		data, err := os.ReadFile(filepath.Join(dir, "out", "det", "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		outputs[i] = data
	}
	if string(outputs[0]) != string(outputs[1]) {
		t.Fatal("results.json differs between 1 and 2 workers")
	}
}

// The simulated means of perfect-memory table players agree with the solver's exact values.
func TestRunAgreesWithSolver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "agree", `seed: 11
games: 20000
rules: {pairs: [4]}
players:
  - {name: optimal, policy: optimal}
  - {name: daring, policy: daring}
  - {name: br, policy: best-response, opponent: daring}
format: gauntlet
`)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readRun(t, filepath.Join(dir, "out", "agree"))
	checked := 0
	for _, m := range r.Matchups {
		for s, e := range m.ExactPairs {
			if e == nil {
				continue
			}
			x, _ := new(big.Rat).SetString(*e)
			want, _ := x.Float64()
			se := m.StdDev[s] / sqrt(float64(m.Games))
			if d := m.MeanPairs[s] - want; d > 4.5*se || d < -4.5*se {
				t.Errorf("%v seat %d: mean %.4f, exact %s = %.4f (%.1f standard errors)", m.Players, s, m.MeanPairs[s], *e, want, d/se)
			}
			checked++
		}
	}
	// optimal vs daring, daring vs optimal; optimal vs br has no model (br answers daring).
	if checked != 4 {
		t.Errorf("checked %d exact values, want 4", checked)
	}
}

func sqrt(x float64) float64 {
	z := x
	for range 60 {
		z = (z + x/z) / 2
	}
	return z
}

var positionPrefix = regexp.MustCompile(`^memsim run: [^:]+\.yaml:\d+:\d+: `)

func TestRunBadConfigurations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, want string
	}{
		{"unknown key", "gmaes: 3\nplayers: [{name: a, policy: safe}, {name: b, policy: daring}]\n", `unknown key "gmaes"`},
		{"wrong type", "games: lots\nplayers: [{name: a, policy: safe}, {name: b, policy: daring}]\n", "games"},
		{"bad value", "games: 0\nplayers: [{name: a, policy: safe}, {name: b, policy: daring}]\n", "games"},
		{"unknown policy", "players: [{name: a, policy: smart}, {name: b, policy: daring}]\n", "allowed: optimal, best-response"},
		{"bad memory combination", "players: [{name: a, policy: safe, memory: {capacity: 5}}, {name: b, policy: daring}]\n", "needs a forgetting rule"},
		{"decay without q", "players: [{name: a, policy: safe, memory: {forget: decay}}, {name: b, policy: daring}]\n", "decay probability"},
		{"syntax", "players: [{name: a, policy: safe}, {name: b\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "bad", tt.body)
			_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitUsage, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !positionPrefix.MatchString(stderr) || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q: want one line file:line:col: ... containing %q", stderr, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
				t.Errorf("a bad configuration wrote output: %v", err)
			}
		})
	}
}

func TestRunBadInvocations(t *testing.T) {
	t.Parallel()
	// memsim replay refuses --game, --pairs and --players before it builds a player, so that the
	// embedded default's refusals cost no table.
	cfg := writeConfig(t, t.TempDir(), "bad", tinyTournament)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "/no/such/file.yaml"}, "no such file"},
		{[]string{"run", "a.yaml", "b.yaml"}, "one configuration file at most"},
		{[]string{"run", "--workers", "-2"}, "--workers -2"},
		{[]string{"run", "--games", "x"}, "--games \"x\": must be a whole number"},
		{[]string{"run", "--quiet=maybe"}, "must be true or false"},
		{[]string{"replay"}, "memsim replay: --game G is required: the game to replay (0-based)"},
		{[]string{"replay", "--config", cfg, "--game", "0", "--pairs", "5"}, "deal sizes are [3 4]"},
		{[]string{"replay", "--config", cfg, "--game", "0", "--players", "x,y"}, "allowed: greedy,random; random,greedy"},
		{[]string{"replay", "--game", "0", "--pairs", "99"}, "memsim replay: --pairs 99: the run's deal sizes are [12 26]"},
		{[]string{"replay", "--game", "200000"}, "memsim replay: --game 200000: must be between 0 and 199999 (the run's games - 1)"},
		{[]string{"run", "--shard", "3/2"}, "memsim run: --shard \"3/2\": must be i/N with 1 <= i <= N, for example 2/8"},
		{[]string{"bench", "--pairs", "0"}, "--pairs 0"},
		{[]string{"bench", "--policy", "smart"}, "unknown policy \"smart\""},
		{[]string{"bench", "--forget", "fifo"}, "allowed: handover-uniform, lru, decay"},
		{[]string{"bench", "--scope", "public"}, "allowed: shared, private"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			_, stderr, code := runArgs(t, tt.args...)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line containing %q", code, stderr, tt.want)
			}
		})
	}
}

func TestReplayPrintsTheSameGameTwice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "rep", smallTournament)
	args := []string{"replay", "--config", cfg, "--game", "17", "--pairs", "4", "--players", "parity,forgetful"}
	out1, stderr, code := runArgs(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out2, _, _ := runArgs(t, args...)
	if out1 != out2 {
		t.Fatal("two replays of one game differ")
	}
	if !strings.Contains(out1, "game 17 (seed 7): 4 pairs") || !strings.Contains(out1, "turn   1  seat 0 parity       daring") {
		t.Errorf("replay output:\n%s", out1)
	}
	// Every pair is taken once: four "takes the pair" lines.
	if n := strings.Count(out1, "takes the pair"); n != 4 {
		t.Errorf("%d pairs taken in the log, want 4:\n%s", n, out1)
	}
}

// memsim replay takes a run folder as --config, for its config.yaml (with the --games the run
// was given), and replays the game its configuration file replays; a folder that is not a run
// folder is refused in one line.
func TestReplayTakesARunFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "tiny", tinyTournament)
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--games", "30", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "out", "tiny")
	fromFile, stderr, code := runArgs(t, "replay", "--config", cfg, "--game", "7")
	if code != exitOK {
		t.Fatalf("replay of the file: exit %d: %s", code, stderr)
	}
	fromFolder, stderr, code := runArgs(t, "replay", "--config", out, "--game", "7")
	if code != exitOK || fromFolder != fromFile {
		t.Errorf("replay of the run folder: exit %d, %s\n%s\nwant\n%s", code, stderr, fromFolder, fromFile)
	}
	// The run played 30 games (--games), not the file's.
	_, stderr, code = runArgs(t, "replay", "--config", out, "--game", "30")
	wantOneLineExit(t, "a game past the run's", code, exitUsage, stderr, "memsim replay: --game 30: must be between 0 and 29")
	_, stderr, code = runArgs(t, "replay", "--config", dir, "--game", "0")
	wantOneLineExit(t, "a folder that is not a run folder", code, exitUsage, stderr,
		"memsim replay: --config "+dir+": a folder without config.yaml, not a run folder: give a run folder or a configuration file")
}

func TestBenchJSON(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := runArgs(t, "bench", "--pairs", "6", "--games", "3000", "--workers", "1", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res benchResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v: %q", err, stdout)
	}
	if res.GamesPerSec <= 0 || res.Workers != 1 || res.Games != 3000 || res.Policy != "parity" || res.Memory != "perfect" {
		t.Errorf("%+v", res)
	}
}

// memsim report regenerates a run folder's report and figures from results.json and config.yaml:
// with its figures and report.html deleted, the folder is written again byte for byte as the run
// wrote it. Two players with exact values at one deal size give every kind of figure (a panel
// per matchup each, where smallTournament's twelve matchups would cost seconds more to draw
// under the race detector).
func TestReportRegenerates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	games := "2000"
	if testing.Short() {
		games = "500" // the same figures and report, from fewer games
	}
	cfg := writeConfig(t, dir, "again", `seed: 7
games: `+games+`
paired: true
rules: {pairs: [4]}
players:
  - {name: optimal, policy: optimal}
  - {name: parity, policy: parity}
`)
	if _, stderr, code := runArgs(t, "run", "--quiet", cfg); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "out", "again")
	written := folderFiles(t, out)
	html := string(written["report.html"])
	pngs, _ := filepath.Glob(filepath.Join(out, "plots", "*.png"))
	// A convergence and a distribution figure per deal size (a panel per matchup), the
	// strategy table of the perfect-memory model, and the tournament matrix.
	if len(pngs) < 4 || strings.Count(html, "<svg") != len(pngs) {
		t.Fatalf("%d PNGs, %d inline SVGs", len(pngs), strings.Count(html, "<svg"))
	}
	if !strings.Contains(html, "Strategy table: perfect memory, pass never") || !strings.Contains(html, "Ratings, 4 pairs") {
		t.Error("report.html lacks the strategy table or the ratings")
	}
	if err := os.RemoveAll(filepath.Join(out, "plots")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, "report.html")); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runArgs(t, "report", out)
	if code != exitOK || !strings.Contains(stdout, "figures") {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	again := folderFiles(t, out)
	for name, data := range written {
		if !bytes.Equal(again[name], data) {
			t.Errorf("the regenerated %s differs from the run's", name)
		}
	}
	if len(again) != len(written) {
		t.Errorf("memsim report wrote %d files, the run %d", len(again), len(written))
	}
	for _, args := range [][]string{{"report"}, {"report", filepath.Join(dir, "nowhere")}} {
		if _, stderr, code := runArgs(t, args...); code != exitUsage || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// A stopping rule ends matches at a round boundary, identically on any number of workers, and
// the report labels them.
func TestRunStopsEarly(t *testing.T) {
	t.Parallel()
	body := `seed: 5
paired: true
games: 1000000
rules: {pairs: [6]}
players:
  - {name: optimal, policy: optimal}
  - {name: random, policy: random}
  - {name: daring, policy: daring}
stop:
  precision: 0.02
  sprt: {d: 0.2, alpha: 0.01, beta: 0.01}
`
	var outputs [2][]byte
	workerCounts := []string{"1", "2"}
	if testing.Short() {
		workerCounts = workerCounts[:1] // the run on 2 workers, for determinism, in make test-long
	}
	for i, workers := range workerCounts {
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "stop", body)
		if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", "--workers", workers, cfg); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		outputs[i], _ = os.ReadFile(filepath.Join(dir, "out", "stop", "results.json"))
		if i > 0 {
			continue
		}
		r := readRun(t, filepath.Join(dir, "out", "stop"))
		for _, m := range r.Matchups {
			if m.StoppedEarly == "" || m.Games >= 1000000 || m.Games%int64(16*1024) != 0 {
				t.Errorf("%v: stopped %q after %d games", m.Players, m.StoppedEarly, m.Games)
			}
		}
		decisions := map[string]string{}
		for _, p := range r.Pairings {
			if p.SPRT == nil {
				t.Fatalf("pairing %v has no sequential test", p.Players)
			}
			decisions[p.Players[0]+"-"+p.Players[1]] = p.SPRT.Decision
			// Wald's bounds for alpha = beta = 0.01: ln(0.01/0.99) and ln(0.99/0.01).
			if math.Abs(p.SPRT.Lower-math.Log(0.01/0.99)) > 1e-12 || math.Abs(p.SPRT.Upper-math.Log(0.99/0.01)) > 1e-12 {
				t.Errorf("pairing %v: bounds %g and %g", p.Players, p.SPRT.Lower, p.SPRT.Upper)
			}
			if d := p.SPRT.Decision; d != "undecided" && !strings.Contains(d, "mean lead over") {
				t.Errorf("pairing %v: the decision %q does not say what it tests", p.Players, d)
			}
		}
		if !strings.HasPrefix(decisions["optimal-random"], "H1 accepted") || !strings.HasPrefix(decisions["random-daring"], "H0 accepted") {
			t.Errorf("decisions %v", decisions)
		}
		md, _ := os.ReadFile(filepath.Join(dir, "out", "stop", "report.md"))
		if !strings.Contains(string(md), "stopped early: sprt") {
			t.Error("report.md does not label the early stops")
		}
	}
	if len(workerCounts) == 2 && string(outputs[0]) != string(outputs[1]) {
		t.Error("results.json differs between 1 and 2 workers")
	}
}

func TestAudit(t *testing.T) {
	t.Parallel()
	if raceEnabled {
		// The whole audit's time goes to its claims' exact values, which start no goroutine (the
		// audit package's own tests check them, without the detector); the simulator it plays
		// its games through is the tournament's, tested under the detector there.
		t.Skip("the whole audit under the race detector: make test-long runs it")
	}
	dir := t.TempDir()
	// An earlier audit in the folder is replaced with --force (and refused without it, below).
	if err := os.WriteFile(filepath.Join(dir, "audit.md"), []byte("an earlier audit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	games := "2000"
	if testing.Short() {
		games = "200" // every claim still gets its verdict; the simulations are only coarser
	}
	stdout, stderr, code := runArgs(t, "audit", "--games", games, "--win-pairs", "6,8", "--output", dir, "--force")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res audit.Report
	data, err := os.ReadFile(filepath.Join(dir, "audit.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) < 58 || len(res.NotAudited) != 0 || !strings.Contains(stdout, "| SA-T6.4 |") {
		t.Errorf("%d claims, %d not audited; stdout %q", len(res.Claims), len(res.NotAudited), stdout)
	}
	for _, c := range res.Claims {
		if c.Verdict != audit.Confirmed && c.Verdict != audit.Refuted && c.Verdict != audit.Inconclusive || c.Reason == "" {
			t.Errorf("claim %s: verdict %q, reason %q", c.ID, c.Verdict, c.Reason)
		}
	}
	// SA-T6.4 is judged in its source's model, {daring, safe}, and the full game is reported apart.
	for _, c := range res.Claims {
		if c.ID == "SA-T6.4" && c.Verdict != audit.Confirmed {
			t.Errorf("SA-T6.4 in its own model: %s (%s)", c.Verdict, c.Reason)
		}
	}
	if b := res.Beyond; b == nil || b.Win == nil || len(b.Win.Matches) != 4 || len(b.KnownFirst) == 0 {
		t.Errorf("beyond the sources: %+v", b)
	}
	if md, _ := os.ReadFile(filepath.Join(dir, "audit.md")); !strings.Contains(string(md), "known-first") {
		t.Error("audit.md does not name known-first")
	}
	for _, f := range []string{"audit.md", "audit.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	for _, c := range res.Claims {
		if (c.ID == "VW-ASYM" || c.ID == "AL-PRESS" || c.ID == "SA-2.1") && c.Simulated == "" {
			t.Errorf("%s has no simulation", c.ID)
		}
	}
	if _, stderr, code := runArgs(t, "audit", "--games", "5"); code != exitUsage || !strings.Contains(stderr, "--games 5") {
		t.Errorf("--games 5: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runArgs(t, "audit", "--output", dir); code != exitUsage || !strings.Contains(stderr, "already holds an audit") {
		t.Errorf("a second audit without --force: exit %d, %q", code, stderr)
	}
}

// memsim solve --gerez agrees with the (n, j) model under pass always: <2n, n-j, 0> is worth
// 2·E(n, j) cards.
func TestSolveGerez(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := runArgs(t, "solve", "--gerez", "--cards", "8", "--known", "2", "--paired", "0", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var g struct {
		Value struct{ Exact string } `json:"value"`
		Best  []string               `json:"best"`
	}
	if err := json.Unmarshal([]byte(stdout), &g); err != nil {
		t.Fatal(err)
	}
	nj, _, _ := runArgs(t, "solve", "--pairs", "4", "--unknown", "2", "--pass", "always", "--json")
	var e struct {
		Pairs struct{ Exact string } `json:"expected_pairs"`
	}
	if err := json.Unmarshal([]byte(nj), &e); err != nil {
		t.Fatal(err)
	}
	two := new(big.Rat).Mul(ratOf(t, e.Pairs.Exact), big.NewRat(2, 1))
	if ratOf(t, g.Value.Exact).Cmp(two) != 0 || len(g.Best) == 0 {
		t.Errorf("Gerez %s cards, (n, j) 2E = %s; best %v", g.Value.Exact, two.RatString(), g.Best)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--gerez"}, "--cards K is required with --gerez"},
		{[]string{"solve", "--gerez", "--cards", "7"}, "--cards 7: must be even"},
		{[]string{"solve", "--gerez", "--cards", "8", "--known", "6"}, "<8, 6, 0> is not a state"},
		{[]string{"solve", "--gerez", "--cards", "8", "--paired", "1", "--known", "2"}, "--paired 1: must be even"},
		{[]string{"solve", "--gerez", "--cards", "8", "--memory", "3"}, "--memory does not go with --gerez"},
		{[]string{"solve", "--pairs", "3", "--known", "1"}, "--known goes with --gerez"},
	} {
		if _, stderr, code := runArgs(t, tt.args...); code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q", tt.args, code, stderr)
		}
	}
}

func ratOf(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("not a rational: %q", s)
	}
	return r
}

// With a stopping rule, memsim run's last line counts the games the results hold, not the games
// planned.
func TestLastLineCountsTheGamesTheResultsHold(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "stop", `seed: 4
paired: true
games: 1000000
rules: {pairs: [4]}
players:
  - {name: optimal, policy: optimal}
  - {name: random, policy: random}
stop:
  sprt: {d: 0.2, alpha: 0.01, beta: 0.01}
`)
	_, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	held := int64(0)
	for _, m := range readRun(t, filepath.Join(dir, "out", "stop")).Matchups {
		if m.StoppedEarly == "" {
			t.Errorf("%v did not stop early", m.Players)
		}
		held += m.Games
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := lines[len(lines)-1]; held >= 2000000 || !strings.HasPrefix(last, "memsim run: "+strconv.FormatInt(held, 10)+" games in ") {
		t.Errorf("the results hold %d games of the 2000000 planned; the last line says %q", held, last)
	}
}

// memsim run --no-figures writes the reports without figures; memsim report draws them later.
func TestNoFiguresLeavesThemToReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	body, want := tinyTournament, 5
	if testing.Short() {
		body, want = oneSizeTournament, 3 // one deal size: its two figures and the matrix
	}
	cfg := writeConfig(t, dir, "bare", body)
	out := filepath.Join(dir, "out", "bare")
	if _, stderr, code := runArgs(t, "run", "--no-figures", "--quiet", cfg); code != exitOK {
		t.Fatalf("run --no-figures: exit %d: %s", code, stderr)
	}
	figures := func() (pngs []string, svgs int) {
		pngs, _ = filepath.Glob(filepath.Join(out, "plots", "*.png"))
		html, err := os.ReadFile(filepath.Join(out, "report.html"))
		if err != nil {
			t.Fatal(err)
		}
		return pngs, strings.Count(string(html), "<svg")
	}
	if pngs, svgs := figures(); len(pngs) != 0 || svgs != 0 {
		t.Errorf("run --no-figures drew %d PNGs and %d inline SVGs", len(pngs), svgs)
	}
	if _, stderr, code := runArgs(t, "report", out); code != exitOK {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	// A convergence and a distribution figure per deal size, and the tournament matrix.
	if pngs, svgs := figures(); len(pngs) != want || svgs != len(pngs) {
		t.Errorf("memsim report drew %d PNGs and %d inline SVGs, want %d of each", len(pngs), svgs, want)
	}
}

// memsim replay --record writes the replayed game as a record that reads back with the result the
// move log prints, and the log's flips in order.
func TestReplayWritesTheGameAsARecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "rep", smallTournament)
	path := filepath.Join(dir, "game.jsonl")
	out, stderr, code := runArgs(t, "replay", "--config", cfg, "--game", "17", "--pairs", "4", "--players", "parity,forgetful", "--record", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	games, err := record.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	// The result line reads "result after T turns (...): parity X, forgetful Y".
	m := regexp.MustCompile(`result after (\d+) turns \(all pairs taken\): parity (\d+), forgetful (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no result line in\n%s", out)
	}
	if got := fmt.Sprintf("%d %v %v", len(g.Turns), g.Result.Scores[0], g.Result.Scores[1]); got != m[1]+" "+m[2]+" "+m[3] {
		t.Errorf("the record has turns and scores %s, the log %v", got, m[1:])
	}
	// The log shows each flip as "POS (FACE, new|seen)", in order.
	var logged, recorded []string
	for _, f := range regexp.MustCompile(`(\d+) \(([PS]\d+), (?:new|seen)\)`).FindAllStringSubmatch(out, -1) {
		logged = append(logged, f[1]+" "+f[2])
	}
	for _, mv := range g.Moves {
		recorded = append(recorded, fmt.Sprintf("%d P%d", mv.Pos, mv.Face))
	}
	if !slices.Equal(logged, recorded) {
		t.Errorf("the record's flips %v, the log's %v", recorded, logged)
	}
	if g.Players[0].Name != "parity" || g.Meta["game"] != "17" || g.Rules.Pairs != 4 {
		t.Errorf("players %+v, meta %v, rules %+v", g.Players, g.Meta, g.Rules)
	}
	_, stderr, code = runArgs(t, "replay", "--config", cfg, "--game", "1", "--record", filepath.Join(dir, "no", "such", "dir", "g.jsonl"))
	if code == exitOK || !strings.Contains(stderr, "no/such/dir/g.jsonl") {
		t.Errorf("a record in a missing folder: exit %d, %s", code, stderr)
	}
}
