package tournament_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
)

// sealedConfig is a small paired round robin of three players at two deal sizes: its results hold
// every kind of record (matchups with exact values, distributions, luck-adjusted estimates,
// pairings, comparisons and ratings).
const sealedConfig = `name: sealed
seed: 11
games: 300
paired: true
rules: {pairs: [2, 3]}
players:
  - {name: opt, policy: optimal}
  - {name: dare, policy: daring}
  - {name: forget, policy: optimal, memory: {capacity: 2, forget: lru}}
`

// sealedTournament builds the tournament of src.
func sealedTournament(tb testing.TB, src string) *tournament.Tournament {
	tb.Helper()
	tr, err := newTournament(src)
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// newTournament parses src and builds its tournament.
func newTournament(src string) (*tournament.Tournament, error) {
	cfg, err := configs.Parse("sealed.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		return nil, err
	}
	return tournament.New(context.Background(), cfg)
}

var sealedOnce struct {
	sync.Once
	data []byte
	err  error
}

// sealedResults returns the results.json of sealedConfig, as memsim run writes it (played once
// per test binary).
func sealedResults(tb testing.TB) []byte {
	tb.Helper()
	sealedOnce.Do(func() {
		tr, err := newTournament(sealedConfig)
		if err != nil {
			sealedOnce.err = err
			return
		}
		ctx := context.Background()
		res, err := tr.Play(ctx, tournament.Options{Workers: 2})
		if err != nil {
			sealedOnce.err = err
			return
		}
		run, err := tr.Report(ctx, res)
		if err != nil {
			sealedOnce.err = err
			return
		}
		var b bytes.Buffer
		sealedOnce.err = report.WriteJSON(&b, run)
		sealedOnce.data = b.Bytes()
	})
	if sealedOnce.err != nil {
		tb.Fatal(sealedOnce.err)
	}
	return sealedOnce.data
}

// decodeRun decodes results.json data as it is, checking nothing.
func decodeRun(tb testing.TB, data []byte) *report.Run {
	tb.Helper()
	var r report.Run
	if err := json.Unmarshal(data, &r); err != nil {
		tb.Fatal(err)
	}
	return &r
}

// encodeRun encodes r as WriteJSON would, without validating it.
func encodeRun(tb testing.TB, r *report.Run) []byte {
	tb.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// withDeadline runs f and fails the test if it panics or does not return within d. f runs on
// another goroutine, so it reports failures with Errorf, never Fatal.
func withDeadline(tb testing.TB, d time.Duration, what string, f func()) {
	tb.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	select {
	case p := <-done:
		if p != nil {
			tb.Fatalf("%s panicked: %v", what, p)
		}
	case <-time.After(d):
		tb.Fatalf("%s did not finish within %v", what, d)
	}
}

// manyScoreCounts is the number of score counts per seat of an edit of the results: a million
// once made the figures panic, and any number but pairs + 1 takes the same path. The race
// detector, which slows the reading of JSON down many times, reads a thousand (a hundred
// thousand take it seconds).
func manyScoreCounts() int {
	if raceEnabled {
		return 1_000
	}
	return 100_000
}

// sealedMutations are edits of a run's results, each with the field a check names when the edit
// comes with a recomputed seal (a forger's edit). The checks find each edit by its field's range,
// by what the other fields imply, or by what the configuration lays out.
var sealedMutations = []struct {
	name  string
	edit  func(r *report.Run)
	field string // the start of the error of a resealed edit
}{
	{"a mean of 5e307", func(r *report.Run) { r.Matchups[0].MeanPairs[0] = 5e307 }, "matchups[0].mean_pairs[0]: 5e+307 is not within [0, 2]"},
	{"a mean of -5e307", func(r *report.Run) { r.Matchups[3].MeanPairs[1] = -5e307 }, "matchups[3].mean_pairs[1]: -5e+307 is not within [0, 2]"},
	{"mean_pairs []", func(r *report.Run) { r.Matchups[0].MeanPairs = []float64{} }, "matchups[0].mean_pairs: 0 entries for 2 seats"},
	{"exact_pairs []", func(r *report.Run) { r.Matchups[0].ExactPairs = []*string{} }, "matchups[0].exact_pairs: 0 entries for 2 seats"},
	{"far too many score counts per seat", func(r *report.Run) {
		for s := range r.Matchups[0].ShareCounts {
			r.Matchups[0].ShareCounts[s] = make([]int64, manyScoreCounts())
		}
	}, fmt.Sprintf("matchups[0].share_counts[0]: %d counts", manyScoreCounts())},
	{"an edited mean", func(r *report.Run) { r.Matchups[1].MeanPairs[0] += 0.01 }, "matchups[1].mean_pairs[0]:"},
	{"an edited standard deviation", func(r *report.Run) { r.Matchups[1].StdDev[1] *= 1.5 }, "matchups[1].sd_pairs[1]:"},
	{"an edited interval", func(r *report.Run) { r.Matchups[1].CI95[0] = [2]float64{5, 6} }, "matchups[1].ci95[0]:"},
	{"a win moved to a loss", func(r *report.Run) { r.Matchups[2].Wins[0]--; r.Matchups[2].Losses[0]++ }, "matchups[2].wins[0]:"},
	{"swapped matchups", func(r *report.Run) { r.Matchups[0], r.Matchups[1] = r.Matchups[1], r.Matchups[0] }, "matchups[0].players:"},
	{"a removed matchup", func(r *report.Run) { r.Matchups = r.Matchups[1:] }, "matchups[0].players:"},
	{"a removed last matchup", func(r *report.Run) { r.Matchups = r.Matchups[:len(r.Matchups)-1] }, "matchups: 11 matchups, the configuration lays out 12"},
	{"a duplicated matchup", func(r *report.Run) { r.Matchups = append(r.Matchups, r.Matchups[len(r.Matchups)-1]) }, "matchups: 13 matchups, the configuration lays out 12"},
	{"an unknown player", func(r *report.Run) { r.Matchups[4].Players[1] = "mallory" }, `matchups[4].players[1]: "mallory" is not one of the players`},
	{"a matchup of -3 pairs", func(r *report.Run) { r.Matchups[0].Pairs = -3 }, "matchups[0].pairs: -3 is not one of the deal sizes"},
	{"a matchup of 10^8 pairs", func(r *report.Run) { r.Matchups[0].Pairs = 100_000_000 }, "matchups[0].pairs: 100000000 is not one of the deal sizes"},
	{"rules of 10^8 pairs", func(r *report.Run) { r.Rules.Pairs = append(r.Rules.Pairs, 100_000_000) }, "not the run of the configuration: other rules"},
	{"rules of -3 pairs", func(r *report.Run) { r.Rules.Pairs = []int{-3, 3} }, "rules.pairs[0]: -3 is not a deal size"},
	{"a pairing of 10^8 pairs", func(r *report.Run) { r.Pairings[0].Pairs = 100_000_000 }, "pairings[0].pairs: 100000000 is not one of the deal sizes"},
	{"paired flipped", func(r *report.Run) { r.Paired = !r.Paired }, "pairings[0]: a pairing in a run that is not paired"},
	{"format flipped", func(r *report.Run) { r.Format = "gauntlet" }, `format: "gauntlet", the configuration's "round-robin"`},
	{"an empty histogram", func(r *report.Run) { r.Matchups[5].ShareCounts = nil }, "matchups[5].share_counts: 0 entries for 2 seats"},
	{"empty histogram rows", func(r *report.Run) { r.Matchups[5].ShareCounts = [][]int64{{}, {}} }, "matchups[5].share_counts[0]: 0 counts"},
	{"a player's memory", func(r *report.Run) { r.Players[1].Memory = "lru(3)" }, `players[1]: "dare" (daring, memory lru(3)`},
	{"a renamed player", func(r *report.Run) { r.Players[2].Name = "zed" }, `matchups[2].players[1]: "forget" is not one of the players`},
	{"a pairing's deals", func(r *report.Run) { r.Pairings[1].Deals-- }, "pairings[1].deals:"},
	{"a pairing's advantage of 5e307", func(r *report.Run) { r.Pairings[1].MeanAdvantage = 5e307 }, "pairings[1].mean_advantage: 5e+307"},
	{"a convergence point beyond the games", func(r *report.Run) {
		c := r.Matchups[0].Convergence
		c[len(c)-1].Games++
	}, "matchups[0].convergence["},
	{"a running adjusted mean removed", func(r *report.Run) { r.Matchups[0].Convergence[0].Adjusted = nil }, "matchups[0].convergence[0].adjusted: null, but the matchup has a luck-adjusted estimate"},
	{"a last running adjusted mean that is not the estimate", func(r *report.Run) {
		c := r.Matchups[0].Convergence
		c[len(c)-1].Adjusted.Mean += 0.001
	}, "matchups[0].convergence["},
	{"a running adjusted interval reversed", func(r *report.Run) {
		a := r.Matchups[0].Convergence[0].Adjusted
		a.Lo, a.Hi = a.Hi, a.Lo
	}, "matchups[0].convergence[0].adjusted.lo"},
	{"an exact distribution that does not sum to 1", func(r *report.Run) { r.Matchups[0].ExactDistribution[0] += 0.01 }, "matchups[0].exact_distribution: the probabilities sum to"},
	{"a p-value of 2", func(r *report.Run) { r.Comparisons[0].P = 2 }, "comparisons[0].p: 2 is not within [0, 1]"},
	{"a rating of an unknown player", func(r *report.Run) { r.Ratings[0].Players[0].Name = "mallory" }, `ratings[0].players[0].name: "mallory" is not one of the players`},
	{"other games", func(r *report.Run) { r.Games = 600 }, "matchups[0].games: 300, not the run's 600"},
	{"other games everywhere", func(r *report.Run) {
		r.Games = 600
		for i := range r.Matchups {
			r.Matchups[i].StoppedEarly = "precision 0.1 reached"
		}
	}, "not the run of the configuration: 600 games per matchup, the configuration's 300"},
}

// Every edit of a sealed results.json is refused, in one line: with the seal left as it was, as a
// changed file; with the seal recomputed, by the field it breaks. Neither panics nor hangs.
func TestEditedResultsAreRefused(t *testing.T) {
	data := sealedResults(t)
	tr := sealedTournament(t, sealedConfig)
	if _, err := tr.LoadRun(data); err != nil {
		t.Fatalf("the results as written: %v", err)
	}
	for i, m := range sealedMutations {
		// The short form reads every resealed edit, but the seal as it was of one edit in four:
		// any changed byte breaks the seal alike.
		asItWas := !testing.Short() || i%4 == 0
		r := decodeRun(t, data)
		m.edit(r)
		edited := encodeRun(t, r)
		if err := report.Seal(r, tournament.ResultsConfigHash(tr.Config)); err != nil {
			t.Fatal(err)
		}
		resealed := encodeRun(t, r)
		withDeadline(t, time.Minute, m.name, func() {
			if asItWas {
				if _, err := tr.LoadRun(edited); !errors.Is(err, report.ErrChanged) {
					t.Errorf("%s, seal as it was: %v, want an error wrapping ErrChanged", m.name, err)
				}
			}
			_, err := tr.LoadRun(resealed)
			switch {
			case err == nil:
				t.Errorf("%s, seal recomputed: accepted", m.name)
			case !strings.HasPrefix(err.Error(), m.field):
				t.Errorf("%s, seal recomputed: %q, want it to start %q", m.name, err, m.field)
			}
			if err != nil {
				oneLine(t, m.name, err)
			}
		})
	}
}

// Edits that made memsim report panic (empty per-seat slices, far too many score counts per seat)
// or hang (a mean of ±5e307 reaching the colour bar) are refused by Figures itself, before
// anything is drawn, within a deadline.
func TestFiguresRefuseEditedRuns(t *testing.T) {
	data := sealedResults(t)
	tr := sealedTournament(t, sealedConfig)
	ctx := context.Background()
	var figs []report.Figure
	written := decodeRun(t, data)
	withDeadline(t, time.Minute, "the figures of the results as written", func() {
		var err error
		if figs, err = tr.Figures(ctx, written); err != nil {
			t.Errorf("the figures of the results as written: %v", err)
		}
	})
	if len(figs) == 0 {
		t.Fatal("no figures")
	}
	for _, m := range sealedMutations[:5] {
		r := decodeRun(t, data)
		m.edit(r)
		withDeadline(t, time.Minute, m.name, func() {
			if _, err := tr.Figures(ctx, r); err == nil || !strings.Contains(err.Error(), m.field) {
				t.Errorf("%s: %v, want an error naming %q", m.name, err, m.field)
			}
		})
	}
	// The tournament matrix of every seat order's means at ±5e307.
	r := decodeRun(t, data)
	for i := range r.Matchups {
		r.Matchups[i].MeanPairs[0], r.Matchups[i].MeanPairs[1] = 5e307, -5e307
	}
	withDeadline(t, time.Minute, "means at ±5e307", func() {
		if _, err := tr.Figures(ctx, r); err == nil {
			t.Error("means at ±5e307: drawn")
		}
	})
}

// A config.yaml edited after the run (another memory for a player, which changes the player
// table and the strategy figures) no longer matches the results: they are refused as another
// configuration's; another output or number of workers is not another configuration. Results of
// an older schema, unsealed results, and files that are not as memsim writes them are refused; a
// file only re-indented is read.
func TestResultsFileChecks(t *testing.T) {
	data := sealedResults(t)
	tr := sealedTournament(t, sealedConfig)
	edited := sealedTournament(t, strings.Replace(sealedConfig, "{name: dare, policy: daring}", "{name: dare, policy: daring, memory: {capacity: 3, forget: lru}}", 1))
	if _, err := edited.LoadRun(data); !errors.Is(err, report.ErrOtherConfiguration) {
		t.Errorf("a player's memory edited in the configuration: %v, want ErrOtherConfiguration", err)
	}
	// Where a run is written, and with how many workers, is not what it computes.
	moved := sealedTournament(t, sealedConfig+"output: /elsewhere\nworkers: 3\n# a comment\n")
	if _, err := moved.LoadRun(data); err != nil {
		t.Errorf("another output, workers and a comment: %v", err)
	}
	more := sealedTournament(t, strings.Replace(sealedConfig, "games: 300", "games: 301", 1))
	if _, err := more.LoadRun(data); !errors.Is(err, report.ErrOtherConfiguration) ||
		err.Error() != "300 games per matchup, the configuration's 301" {
		t.Errorf("other games in the configuration: %v", err)
	}

	var indented bytes.Buffer
	if err := json.Indent(&indented, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), "", "\t"); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.LoadRun(indented.Bytes()); err != nil {
		t.Errorf("re-indented with tabs and CRLF: %v", err)
	}

	unsealed := decodeRun(t, data)
	unsealed.ContentHash = ""
	tests := []struct {
		name string
		data []byte
		want error
		text string
	}{
		{"schema version 3", bytes.Replace(data, fmt.Appendf(nil, `"schema_version": %d`, report.SchemaVersion), []byte(`"schema_version": 3`), 1), nil,
			fmt.Sprintf("schema version 3, this memsim reads %d (run it again)", report.SchemaVersion)},
		{"no seal", encodeRun(t, unsealed), report.ErrUnsealed, ""},
		{"a key in capitals", bytes.Replace(data, []byte(`"games"`), []byte(`"GAMES"`), 1), report.ErrChanged, ""},
		{"a repeated key", bytes.Replace(data, []byte(`"seed": 11,`), []byte(`"seed": 12, "seed": 11,`), 1), report.ErrChanged, ""},
		{"a number respelt", bytes.Replace(data, []byte(`"seed": 11,`), []byte(`"seed": 1.1e1,`), 1), nil, "not a valid results file"},
		{"a float respelt", bytes.Replace(data, []byte(`"games": 300,`), []byte(`"games": 300, "paired": true,`), 1), report.ErrChanged, ""},
		{"an unknown field", bytes.Replace(data, []byte(`"seed": 11,`), []byte(`"seed": 11, "note": "x",`), 1), nil, `unknown field "note"`},
		{"more after the object", append(append([]byte{}, data...), "{}"...), nil, "more data after its object"},
		{"not JSON", []byte("\x00\xff"), nil, "not a valid results file"},
		{"empty", nil, nil, "not a valid results file"},
	}
	for _, tt := range tests {
		_, err := tr.LoadRun(tt.data)
		switch {
		case err == nil:
			t.Errorf("%s: accepted", tt.name)
			continue
		case tt.want != nil && !errors.Is(err, tt.want):
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		case tt.text != "" && !strings.Contains(err.Error(), tt.text):
			t.Errorf("%s: %v, want %q", tt.name, err, tt.text)
		}
		oneLine(t, tt.name, err)
	}
}

// sameJSON reports whether a and b are the same JSON, whitespace aside.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// Seeded random damage to a sealed results.json is refused with one line, or leaves the same
// JSON (whitespace aside); nothing panics.
func TestDamagedResults(t *testing.T) {
	data := sealedResults(t)
	tr := sealedTournament(t, sealedConfig)
	r := rand.New(rand.NewPCG(5, 6))
	n := 400
	if testing.Short() {
		n = 50
	}
	refused := 0
	for i := range n {
		mutated := mutate(r, data)
		withDeadline(t, time.Minute, fmt.Sprintf("mutation %d", i), func() {
			_, err := tr.LoadRun(mutated)
			switch {
			case err != nil:
				refused++
				oneLine(t, fmt.Sprintf("mutation %d", i), err)
			case !sameJSON(mutated, data):
				t.Errorf("mutation %d: accepted, and the file differs from the one memsim wrote", i)
			}
		})
	}
	t.Logf("%d of %d mutations refused", refused, n)
}

// FuzzLoadRun runs memsim report's read path (LoadRun, then Figures where it accepts; nothing is
// written) on arbitrary results.json files, each under a deadline. A file as given is refused
// unless it is the sealed file, whitespace aside; with its seal recomputed (a forger's edit), it
// may be accepted, but then its figures are drawn without error. Nothing may panic or hang, and
// every refusal is one line.
func FuzzLoadRun(f *testing.F) {
	data := sealedResults(f)
	f.Add(data, false)
	f.Add(data, true)
	for _, m := range sealedMutations {
		if testing.Short() {
			break // TestEditedResultsAreRefused reads each of them; the long form seeds the fuzzer too
		}
		if strings.HasPrefix(m.name, "far too many score counts") {
			continue // 1.6 MB: TestEditedResultsAreRefused reads it; the fuzzer would crawl
		}
		r := decodeRun(f, data)
		m.edit(r)
		f.Add(encodeRun(f, r), true)
	}
	tr := sealedTournament(f, sealedConfig)
	f.Fuzz(func(t *testing.T, in []byte, reseal bool) {
		if reseal {
			var r report.Run
			if json.Unmarshal(in, &r) != nil || report.Seal(&r, tournament.ResultsConfigHash(tr.Config)) != nil {
				return
			}
			in = encodeRun(t, &r)
		}
		withDeadline(t, 30*time.Second, "reading", func() {
			r, err := tr.LoadRun(in)
			if err != nil {
				oneLine(t, "refusal", err)
				return
			}
			if !reseal && !sameJSON(in, data) {
				t.Errorf("a changed file was accepted")
			}
			if testing.Short() && sameJSON(in, data) {
				return // the figures of the results as written: TestFiguresRefuseEditedRuns draws them
			}
			if _, err := tr.Figures(context.Background(), r); err != nil {
				t.Errorf("accepted, then its figures failed: %v", err)
			}
		})
	})
}
