package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func ptr(s string) *string { return &s }

// sampleRun is a small hand-made paired run at two deal sizes: matchup 0 has exact values inside
// its intervals, matchup 1 an exact value outside seat 1's interval and a null for seat 0, and
// matchup 2 (a different deal size) no exact values at all. Its matchups are judged.
func sampleRun() *Run {
	r := &Run{
		SchemaVersion: SchemaVersion,
		Name:          "demo run",
		Seed:          42,
		Games:         1000,
		Paired:        true,
		Format:        "round-robin",
		Rules:         Rules{Pairs: []int{2, 4}, Singletons: 0, PlayersPerGame: 2, Pass: "never"},
		Players: []Player{
			{Name: "opt", Policy: "optimal", Memory: "perfect", Table: "perfect shared memory"},
			{Name: "br", Policy: "best-response", Opponent: "optimal", Memory: "lru(7)",
				Table: "shared lru(7) table: private memory has no exact model"},
		},
		Matchups: []Matchup{
			{
				Pairs: 2, Players: []string{"opt", "opt"}, Games: 1000,
				MeanPairs:  []float64{0.672, 1.328},
				StdDev:     []float64{0.5, 0.5},
				CI95:       [][2]float64{{0.641, 0.703}, {1.297, 1.359}},
				ExactPairs: []*string{ptr("2/3"), ptr("4/3")},
				Wins:       []int64{300, 600}, Draws: []int64{100, 100}, Losses: []int64{600, 300},
				MeanTurns: 3.25, CI95Turns: [2]float64{3.2, 3.3},
			},
			{
				Pairs: 2, Players: []string{"br", "opt"}, Games: 1000,
				MeanPairs:  []float64{0.9, 1.1},
				StdDev:     []float64{0.6, 0.6},
				CI95:       [][2]float64{{0.86, 0.94}, {1.06, 1.14}},
				ExactPairs: []*string{nil, ptr("1")},
				Wins:       []int64{400, 450}, Draws: []int64{150, 150}, Losses: []int64{450, 400},
				MeanTurns: 3.5, CI95Turns: [2]float64{3.4, 3.6}, Stalemates: 7,
			},
			{
				Pairs: 4, Players: []string{"opt", "br"}, Games: 1000,
				MeanPairs:  []float64{1.75, 2.25},
				StdDev:     []float64{0.9, 0.9},
				CI95:       [][2]float64{{1.69, 1.81}, {2.19, 2.31}},
				ExactPairs: []*string{nil, nil},
				Wins:       []int64{350, 500}, Draws: []int64{150, 150}, Losses: []int64{500, 350},
				MeanTurns: 7.125, CI95Turns: [2]float64{7, 7.25},
			},
		},
		Pairings: []Pairing{
			{Pairs: 2, Players: [2]string{"br", "opt"}, Deals: 1000, MeanAdvantage: 0.0625,
				CI95: [2]float64{0.03, 0.095}},
		},
	}
	r.Judge()
	return r
}

func TestJSONRoundTrip(t *testing.T) {
	r := sampleRun()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasSuffix(out, "}\n") || !strings.HasPrefix(out, "{\n  \"schema_version\": 5,") {
		t.Errorf("unexpected framing:\n%s", out)
	}
	for _, key := range []string{`"mean_pairs"`, `"sd_pairs"`, `"ci95"`, `"exact_pairs"`, `"wins"`, `"draws"`,
		`"losses"`, `"mean_turns"`, `"ci95_turns"`, `"stalemates"`, `"mean_advantage"`, `"players_per_game"`,
		`"exact_pairs": [` + "\n        null,", `"opponent": "optimal"`,
		`"verdict": {` + "\n        \"basis\": \"raw\",\n        \"outside\": [\n          \"seat 1\"\n        ]\n      }",
		`"verdict": {` + "\n        \"basis\": \"raw\",\n        \"outside\": []\n      }"} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	// Every field is always there: a missing value is null, never an absent key.
	if !strings.Contains(out, `"exact_turns": null`) {
		t.Errorf("exact_turns should be null when there is none")
	}
	var back Run
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, r) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", back, *r)
	}
	// Deterministic output.
	var again bytes.Buffer
	if err := WriteJSON(&again, r); err != nil || again.String() != out {
		t.Errorf("second rendering differs (err %v)", err)
	}
}

func TestCSV(t *testing.T) {
	r := sampleRun()
	var buf bytes.Buffer
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+3*2 {
		t.Fatalf("%d rows, want 7", len(rows))
	}
	if !slices.Equal(rows[0], CSVHeader()) || strings.Join(CSVHeader(), ",") !=
		"run,seed,pairs,matchup,seat,player,games,mean_pairs,sd_pairs,ci95_low,ci95_high,exact_pairs,exact_pairs_float,wins,draws,losses,mean_turns,stopped_early,"+
			"adjusted_pairs,adjusted_ci95_low,adjusted_ci95_high,adjusted_lead,variance_reduction,luck_coefficient,luck_reference,check_basis,outside_ci" {
		t.Errorf("header = %v", rows[0])
	}
	want := [][]string{
		{"demo run", "42", "2", "opt vs opt", "0", "opt", "1000", "0.672", "0.5", "0.641", "0.703", "2/3", "0.6666666666666666", "300", "100", "600", "3.25", "", "", "", "", "", "", "", "", "raw", ""},
		{"demo run", "42", "2", "opt vs opt", "1", "opt", "1000", "1.328", "0.5", "1.297", "1.359", "4/3", "1.3333333333333333", "600", "100", "300", "3.25", "", "", "", "", "", "", "", "", "raw", ""},
		{"demo run", "42", "2", "br vs opt", "0", "br", "1000", "0.9", "0.6", "0.86", "0.94", "", "", "400", "150", "450", "3.5", "", "", "", "", "", "", "", "", "raw", "seat 1"},
		{"demo run", "42", "2", "br vs opt", "1", "opt", "1000", "1.1", "0.6", "1.06", "1.14", "1", "1", "450", "150", "400", "3.5", "", "", "", "", "", "", "", "", "raw", "seat 1"},
		{"demo run", "42", "4", "opt vs br", "0", "opt", "1000", "1.75", "0.9", "1.69", "1.81", "", "", "350", "150", "500", "7.125", "", "", "", "", "", "", "", "", "raw", ""},
		{"demo run", "42", "4", "opt vs br", "1", "br", "1000", "2.25", "0.9", "2.19", "2.31", "", "", "500", "150", "350", "7.125", "", "", "", "", "", "", "", "", "raw", ""},
	}
	for i, w := range want {
		if !slices.Equal(rows[i+1], w) {
			t.Errorf("row %d = %q, want %q", i+1, rows[i+1], w)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	for _, x := range []float64{0, 1, -2.5, 1.0 / 3, 1e-7, 1e-10, -3e-9, 2.5e-300, 123456789012, 1e21, 1e22, -1.5e300, math.SmallestNonzeroFloat64} {
		want, _ := json.Marshal(x)
		if got := formatFloat(x); got != string(want) {
			t.Errorf("formatFloat(%v) = %s, JSON prints %s", x, got, want)
		}
	}
}

// tableRow returns the markdown table row whose first cell is name, under the heading "## head".
func tableRow(t *testing.T, md, head, name string) string {
	t.Helper()
	_, section, ok := strings.Cut(md, "\n## "+head+"\n")
	if !ok {
		t.Fatalf("no section %q", head)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| "+name+" |") {
			return line
		}
	}
	t.Fatalf("no row %q in section %q:\n%s", name, head, section)
	return ""
}

func TestMarkdown(t *testing.T) {
	r := sampleRun()
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if !strings.HasPrefix(md, "# demo run\n") {
		t.Errorf("title: %q", md[:min(40, len(md))])
	}
	for _, s := range []string{
		"Seed 42 · 1000 games per matchup and deal size · paired",
		"| matchup (seat order) | seat 0 raw mean [95% CI] | seat 0 exact | seat 1 raw mean [95% CI] | seat 1 exact | seat 0 W / D / L | mean turns [95% CI] | check |",
		"format round-robin",
		"pairs 2, 4; 0 singletons; 2 players per game; pass never",
		"| br | best-response (opponent: optimal) | lru(7) | shared lru(7) table: private memory has no exact model |",
		"## How to read this",
		"1 time in 20",
		"95% Student-t confidence interval",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("report lacks %q", s)
		}
	}

	row := tableRow(t, md, "2 pairs", "opt vs opt")
	for _, s := range []string{"0.6720 [0.6410, 0.7030]", "0.6667 (2/3)", "1.3333 (4/3)",
		"30.0% / 10.0% / 60.0%", "3.2500 [3.2000, 3.3000]"} {
		if !strings.Contains(row, s) {
			t.Errorf("row %q lacks %q", row, s)
		}
	}
	if strings.HasSuffix(row, "|  |") == false {
		t.Errorf("row %q flagged, but its exact values are inside", row)
	}

	row = tableRow(t, md, "2 pairs", "br vs opt")
	for _, s := range []string{"0.9000 [0.8600, 0.9400] | — |", "1.0000 (1)", "40.0% / 15.0% / 45.0%",
		"| outside raw CI (seat 1) |"} {
		if !strings.Contains(row, s) {
			t.Errorf("row %q lacks %q", row, s)
		}
	}

	row = tableRow(t, md, "4 pairs", "opt vs br")
	if strings.Count(row, "| — |") != 2 || !strings.HasSuffix(row, "|  |") {
		t.Errorf("row %q: want two missing exact values and no flag", row)
	}
	if n := strings.Count(md, "| outside "); n != 1 {
		t.Errorf("%d flags, want 1", n)
	}

	row = tableRow(t, md, "Pairings", "2")
	if !strings.Contains(row, "| br | opt | 1000 | 0.0625 [0.0300, 0.0950] |") {
		t.Errorf("pairing row %q", row)
	}
	if strings.Index(md, "## 2 pairs") > strings.Index(md, "## 4 pairs") {
		t.Errorf("deal sizes out of order")
	}
}

func TestMarkdownSolitaireTurns(t *testing.T) {
	r := &Run{
		SchemaVersion: SchemaVersion, Name: "solo | test", Games: 10,
		Rules:   Rules{Pairs: []int{3}, PlayersPerGame: 1, Pass: "never"},
		Players: []Player{{Name: "p", Policy: "optimal", Memory: "perfect"}},
		Matchups: []Matchup{
			{Pairs: 3, Players: []string{"p"}, Games: 10, MeanPairs: []float64{3}, StdDev: []float64{0},
				CI95: [][2]float64{{3, 3}}, ExactPairs: []*string{ptr("3")}, Wins: []int64{10},
				Draws: []int64{0}, Losses: []int64{0}, MeanTurns: 5.2, CI95Turns: [2]float64{4.9, 5.5},
				ExactTurns: ptr("23/5")},
		},
	}
	r.Judge()
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if !strings.HasPrefix(md, "# solo | test\n") || !strings.Contains(md, "| exact turns |") ||
		!strings.Contains(md, "Seed 0 · 10 games per matchup and deal size") || !strings.Contains(md, "pairs 3; 0 singletons; 1 player per game; pass never") {
		t.Errorf("report:\n%s", md)
	}
	row := tableRow(t, md, "3 pairs", "p")
	if !strings.Contains(row, "4.6000 (23/5) | outside raw CI (turns) |") || !strings.Contains(row, "3.0000 (3)") {
		t.Errorf("row %q", row)
	}
	if strings.Contains(md, "|---|---|---|---|\n| p | optimal | perfect |  |\n") == false {
		t.Errorf("players table:\n%s", md)
	}
}

func TestValidate(t *testing.T) {
	if err := sampleRun().Validate(); err != nil {
		t.Fatalf("sample run: %v", err)
	}
	cases := map[string]func(r *Run){
		"short slice":  func(r *Run) { r.Matchups[0].Wins = r.Matchups[0].Wins[:1] },
		"NaN mean":     func(r *Run) { r.Matchups[1].MeanPairs[0] = math.NaN() },
		"Inf CI":       func(r *Run) { r.Pairings[0].CI95[1] = math.Inf(1) },
		"reversed CI":  func(r *Run) { r.Matchups[0].CI95Turns = [2]float64{2, 1} },
		"bad exact":    func(r *Run) { r.Matchups[0].ExactPairs[0] = ptr("0.6667") },
		"zero denom":   func(r *Run) { r.Matchups[0].ExactPairs[0] = ptr("2/0") },
		"bad sum":      func(r *Run) { r.Matchups[2].Losses[1]++ },
		"no players":   func(r *Run) { r.Matchups[2].Players = nil },
		"bad turns":    func(r *Run) { r.Matchups[2].ExactTurns = ptr("x") },
		"stalemates":   func(r *Run) { r.Matchups[1].Stalemates = 1001 },
		"negative dls": func(r *Run) { r.Pairings[0].Deals = -1 },
		"no verdict":   func(r *Run) { r.Matchups[0].Verdict = Verdict{} },
		"wrong basis":  func(r *Run) { r.Matchups[0].Verdict.Basis = BasisAdjusted },
		"flag missing": func(r *Run) { r.Matchups[1].Verdict.Outside = nil },
		"flag added":   func(r *Run) { r.Matchups[2].Verdict.Outside = []string{"seat 0"} },
		"stale verdict": func(r *Run) {
			// 2/3 falls outside the new interval; the verdict still says inside.
			r.Matchups[0].CI95[0] = [2]float64{0.67, 0.68}
		},
	}
	for name, spoil := range cases {
		r := sampleRun()
		spoil(r)
		if err := r.Validate(); err == nil {
			t.Errorf("%s: Validate accepted it", name)
		}
		for _, w := range []func(*bytes.Buffer, *Run) error{
			func(b *bytes.Buffer, r *Run) error { return WriteJSON(b, r) },
			func(b *bytes.Buffer, r *Run) error { return WriteCSV(b, r) },
			func(b *bytes.Buffer, r *Run) error { return WriteMarkdown(b, r, nil) },
		} {
			var buf bytes.Buffer
			if err := w(&buf, r); err == nil || buf.Len() != 0 {
				t.Errorf("%s: writer returned %v after writing %d bytes", name, err, buf.Len())
			}
		}
	}
	var nilRun *Run
	if nilRun.Validate() == nil {
		t.Errorf("nil run accepted")
	}
}

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs", "demo")
	r := sampleRun()
	config := []byte("name: demo run\nseed: 42\n")
	if err := WriteDir(dir, r, config, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{ConfigFile, MatchupsFile, PlotsDir, HTMLFile, ReportFile, ResultsFile}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("folder holds %v, want %v", got, want)
	}
	check := func(name string, render func(*bytes.Buffer) error) {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("%s differs from its writer's output", name)
		}
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, err %v", name, fi.Mode(), err)
		}
	}
	check(ConfigFile, func(b *bytes.Buffer) error { b.Write(config); return nil })
	check(ResultsFile, func(b *bytes.Buffer) error { return WriteJSON(b, r) })
	check(MatchupsFile, func(b *bytes.Buffer) error { return WriteCSV(b, r) })
	check(ReportFile, func(b *bytes.Buffer) error { return WriteMarkdown(b, r, nil) })
	check(HTMLFile, func(b *bytes.Buffer) error { return WriteHTML(b, r, nil) })

	// Rewriting replaces the files in place.
	r.Name = "renamed"
	if err := WriteDir(dir, r, []byte("x: 1\n"), nil); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("after rewrite folder holds %v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ConfigFile)); string(b) != "x: 1\n" {
		t.Errorf("config not replaced: %q", b)
	}
}

func TestWriteDirRenderErrorWritesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r := sampleRun()
	r.Matchups[0].MeanPairs[0] = math.NaN()
	err := WriteDir(dir, r, []byte("a: 1\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "render results.json") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("folder was created (stat err %v)", err)
	}
}

func TestWriteDirOverAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(path, sampleRun(), nil, nil); err == nil {
		t.Fatal("WriteDir over a file succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "keep" {
		t.Errorf("file clobbered: %q", b)
	}
}

func TestWriteDirRenameFailureCleansUp(t *testing.T) {
	// results.json is a non-empty directory, so renaming over it fails after config.yaml is written.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ResultsFile, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteDir(dir, sampleRun(), []byte("c: 1\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "write "+filepath.Join(dir, ResultsFile)+":") {
		t.Fatalf("err = %v", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{ConfigFile, PlotsDir, ResultsFile}) {
		t.Errorf("folder holds %v, want config.yaml, plots/ and the blocking directory only", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ConfigFile)); string(b) != "c: 1\n" {
		t.Errorf("config.yaml = %q", b)
	}
}

func TestWriteDirReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: a read-only folder is still writable")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	err := WriteDir(dir, sampleRun(), []byte("c: 1\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "write "+filepath.Join(dir, ConfigFile)+":") {
		t.Fatalf("err = %v", err)
	}
	if got := names(t, dir); len(got) != 0 {
		t.Errorf("folder holds %v, want nothing", got)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	for _, content := range []string{"first\n", "second, longer\n", ""} {
		if err := WriteFileAtomic(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Errorf("content %q, want %q", b, content)
		}
		if got := names(t, dir); !slices.Equal(got, []string{"f.txt"}) {
			t.Errorf("folder holds %v", got)
		}
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "f"), nil); err == nil ||
		!strings.HasPrefix(err.Error(), "write "+filepath.Join(dir, "missing", "f")+": ") {
		t.Errorf("err = %v", err)
	}
}

func TestWriteHTML(t *testing.T) {
	r := sampleRun()
	fig := Figure{Name: "conv-1", Title: "A <title>", Caption: "how to read", SVG: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><text>x</text></svg>`), PNG: []byte{1}}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, []Figure{fig}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"<!DOCTYPE html>", "<h1>demo run</h1>", "A &lt;title&gt;", `<svg xmlns="http://www.w3.org/2000/svg"><text>x</text></svg>`,
		`href="plots/conv-1.png"`, "opt vs opt", `<td class="nowrap flag">outside raw CI (seat 1)</td>`} {
		if !strings.Contains(out, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(out, "http://") && strings.Count(out, "http://") != strings.Count(out, "http://www.w3.org/2000/svg") {
		t.Error("report.html refers to the network")
	}
	for _, bad := range []Figure{{Name: "Bad Name", SVG: fig.SVG, PNG: fig.PNG}, {Name: "x", SVG: []byte("<?xml?><svg/>"), PNG: fig.PNG}, {Name: "x", SVG: fig.SVG}} {
		if err := WriteHTML(&buf, r, []Figure{bad}); err == nil {
			t.Errorf("figure %+v accepted", bad)
		}
	}
}

func fptr(x float64) *float64 { return &x }

// luckRun is sampleRun with luck-adjusted estimates: matchup 0 (opt vs opt, exact 2/3 and 4/3)
// has one with no variance left (zero-width intervals at the float nearest each exact value, a
// null variance reduction); matchup 1 (br vs opt) one whose seat 1 interval misses the exact
// value 1; matchup 2 none (no luck table). The pairing has one too.
func luckRun() *Run {
	r := sampleRun()
	r.Matchups[0].LuckAdjusted = &LuckAdjusted{
		Reference:   "optimal self-play",
		Coefficient: []float64{1, 1},
		MeanPairs:   []float64{2.0 / 3, 4.0 / 3},
		CI95:        [][2]float64{{2.0 / 3, 2.0 / 3}, {4.0 / 3, 4.0 / 3}},
		MeanLead:    fptr(2.0/3 - 4.0/3),
		CI95Lead:    &[2]float64{2.0/3 - 4.0/3, 2.0/3 - 4.0/3},
	}
	r.Matchups[1].LuckAdjusted = &LuckAdjusted{
		Reference:         "perfect-memory values on the public record",
		Coefficient:       []float64{0.98, 1.02},
		MeanPairs:         []float64{0.95, 1.05},
		CI95:              [][2]float64{{0.94, 0.96}, {1.04, 1.06}},
		MeanLead:          fptr(-0.1),
		CI95Lead:          &[2]float64{-0.12, -0.08},
		VarianceReduction: fptr(4),
	}
	r.Pairings[0].LuckAdjusted = &PairingLuck{Coefficient: 0.99, MeanAdvantage: 0.06,
		CI95: [2]float64{0.055, 0.065}, VarianceReduction: fptr(12.5)}
	r.Judge()
	return r
}

func TestOutsideAdjustedCI(t *testing.T) {
	third := 2.0 / 3
	cases := []struct {
		name  string
		exact []*string
		la    *LuckAdjusted
		want  []string
	}{
		{"no estimate", []*string{ptr("2/3"), ptr("4/3")}, nil, nil},
		{"inside", []*string{ptr("2/3"), ptr("4/3")}, &LuckAdjusted{
			CI95: [][2]float64{{0.6, 0.7}, {1.3, 1.4}}, CI95Lead: &[2]float64{-0.7, -0.6}}, nil},
		{"zero width at the nearest float", []*string{ptr("2/3"), ptr("4/3")}, &LuckAdjusted{
			CI95: [][2]float64{{third, third}, {4.0 / 3, 4.0 / 3}}, CI95Lead: &[2]float64{third - 4.0/3, third - 4.0/3}}, nil},
		{"zero width off by float noise", []*string{ptr("2/3"), ptr("4/3")}, &LuckAdjusted{
			CI95: [][2]float64{{third * (1 + 1e-12), third * (1 + 1e-12)}, {4.0 / 3 * (1 - 1e-12), 4.0 / 3 * (1 - 1e-12)}}}, nil},
		{"zero width off by the rounding of the luck", []*string{ptr("7/5"), ptr("8/5")}, &LuckAdjusted{
			// The engine's figures for optimal self-play at 3 pairs: each game's luck rounded to
			// 2^-24 pairs puts both means 0.4 units off, the same way in every game.
			CI95:     [][2]float64{{1.399999976158142, 1.399999976158142}, {1.600000023841858, 1.600000023841858}},
			CI95Lead: &[2]float64{-0.20000004768371582, -0.20000004768371582}}, nil},
		{"zero width off by a millionth", []*string{ptr("7/5"), ptr("8/5")}, &LuckAdjusted{
			CI95: [][2]float64{{1.400001, 1.400001}, {1.6, 1.6}}}, []string{"seat 0"}},
		{"zero width off by more", []*string{ptr("2/3"), ptr("4/3")}, &LuckAdjusted{
			CI95: [][2]float64{{0.6667, 0.6667}, {1.3333, 1.3333}}, CI95Lead: &[2]float64{-0.6666, -0.6666}},
			[]string{"seat 0", "seat 1", "lead"}},
		{"zero lead, noise near zero", []*string{ptr("1"), ptr("1")}, &LuckAdjusted{
			CI95: [][2]float64{{1, 1}, {1, 1}}, CI95Lead: &[2]float64{1e-17, 1e-17}}, nil},
		{"narrow interval missed", []*string{ptr("1/2"), ptr("3/2")}, &LuckAdjusted{
			CI95: [][2]float64{{0.5001, 0.5002}, {1.4, 1.6}}, CI95Lead: &[2]float64{-1.1, -0.9}}, []string{"seat 0"}},
		{"one exact value missing: no lead", []*string{nil, ptr("1")}, &LuckAdjusted{
			CI95: [][2]float64{{5, 6}, {1.04, 1.06}}, CI95Lead: &[2]float64{7, 8}}, []string{"seat 1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := Matchup{Players: []string{"a", "b"}, ExactPairs: c.exact, LuckAdjusted: c.la}
			if got := m.OutsideAdjustedCI(); !slices.Equal(got, c.want) {
				t.Errorf("OutsideAdjustedCI() = %q, want %q", got, c.want)
			}
		})
	}
}

func TestLuckCSV(t *testing.T) {
	cases := []struct {
		name string
		run  func() *Run
		want map[int][]string // row (after the header) -> its last nine cells: the luck's and the verdict's
	}{
		{"no estimates", sampleRun, map[int][]string{
			0: {"", "", "", "", "", "", "", "raw", ""}, 5: {"", "", "", "", "", "", "", "raw", ""}}},
		{"estimates", luckRun, map[int][]string{
			// Null variance reduction: an empty cell, with the reference still named.
			0: {"0.6666666666666666", "0.6666666666666666", "0.6666666666666666", "-0.6666666666666666", "", "1", "optimal self-play", "adjusted", ""},
			1: {"1.3333333333333333", "1.3333333333333333", "1.3333333333333333", "-0.6666666666666666", "", "1", "optimal self-play", "adjusted", ""},
			2: {"0.95", "0.94", "0.96", "-0.1", "4", "0.98", "perfect-memory values on the public record", "adjusted", "seat 1"},
			3: {"1.05", "1.04", "1.06", "-0.1", "4", "1.02", "perfect-memory values on the public record", "adjusted", "seat 1"},
			4: {"", "", "", "", "", "", "", "raw", ""}, 5: {"", "", "", "", "", "", "", "raw", ""}}},
		{"three players, no lead", func() *Run {
			r := &Run{SchemaVersion: SchemaVersion, Name: "three, \"quoted\"", Games: 10,
				Rules:   Rules{Pairs: []int{3}, PlayersPerGame: 3, Pass: "never"},
				Players: []Player{{Name: "a"}, {Name: "b"}, {Name: "c"}},
				Matchups: []Matchup{{Pairs: 3, Players: []string{"a", "b", "c"}, Games: 10,
					MeanPairs: []float64{1, 1, 1}, StdDev: []float64{1, 1, 1}, CI95: [][2]float64{{0, 2}, {0, 2}, {0, 2}},
					MeanTurns: 4, CI95Turns: [2]float64{3.5, 4.5},
					ExactPairs: []*string{nil, nil, nil}, Wins: []int64{3, 3, 3}, Draws: []int64{1, 1, 1}, Losses: []int64{6, 6, 6},
					LuckAdjusted: &LuckAdjusted{Reference: "ref, with \"commas\"", Coefficient: []float64{1, 0.5, 0.25},
						MeanPairs: []float64{1, 1, 1}, CI95: [][2]float64{{0.9, 1.1}, {0.8, 1.2}, {0.7, 1.3}}, VarianceReduction: fptr(2.5)}}}}
			r.Judge()
			return r
		}, map[int][]string{
			1: {"1", "0.8", "1.2", "", "2.5", "0.5", "ref, with \"commas\"", "adjusted", ""},
			2: {"1", "0.7", "1.3", "", "2.5", "0.25", "ref, with \"commas\"", "adjusted", ""}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteCSV(&buf, c.run()); err != nil {
				t.Fatal(err)
			}
			cr := csv.NewReader(&buf)
			cr.FieldsPerRecord = -1 // count them here
			rows, err := cr.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			for i, row := range rows {
				if len(row) != len(CSVHeader()) {
					t.Errorf("row %d has %d cells, the header %d", i, len(row), len(CSVHeader()))
				}
			}
			for i, want := range c.want {
				row := rows[i+1]
				if got := row[len(row)-9:]; !slices.Equal(got, want) {
					t.Errorf("row %d ends %q, want %q", i+1, got, want)
				}
			}
		})
	}
}

// section returns the text of the section "## head" of a Markdown report, or "" without one.
func section(md, head string) string {
	_, s, ok := strings.Cut(md, "\n## "+head+"\n")
	if !ok {
		return ""
	}
	s, _, _ = strings.Cut(s, "\n## ")
	return s
}

func TestLuckMarkdown(t *testing.T) {
	cases := []struct {
		name  string
		run   func() *Run
		check func(t *testing.T, md string)
	}{
		{"no estimates: no section, no columns", sampleRun, func(t *testing.T, md string) {
			if strings.Contains(md, "Luck adjustment") || strings.Contains(md, "adjusted") {
				t.Errorf("a report without estimates mentions them:\n%s", md)
			}
		}},
		{"estimates", luckRun, func(t *testing.T, md string) {
			// The deal size with estimates leads with them, the raw means beside them, and
			// judges on them: br vs opt's seat 1 misses 1 by its adjusted interval.
			s := section(md, "2 pairs")
			for _, want := range []string{
				"| matchup (seat order) | seat 0 adjusted mean [95% CI] | seat 0 raw mean [95% CI] | seat 0 exact | " +
					"seat 1 adjusted mean [95% CI] | seat 1 raw mean [95% CI] | seat 1 exact | seat 0 W / D / L | mean turns [95% CI] | check |",
				"| opt vs opt | 0.6667 [0.6667, 0.6667] | 0.6720 [0.6410, 0.7030] | 0.6667 (2/3) | 1.3333 [1.3333, 1.3333] | 1.3280 [1.2970, 1.3590] | 1.3333 (4/3) | 30.0% / 10.0% / 60.0% | 3.2500 [3.2000, 3.3000] |  |",
				"| br vs opt | 0.9500 [0.9400, 0.9600] | 0.9000 [0.8600, 0.9400] | — | 1.0500 [1.0400, 1.0600] | 1.1000 [1.0600, 1.1400] | 1.0000 (1) | 40.0% / 15.0% / 45.0% | 3.5000 [3.4000, 3.6000] | outside adjusted CI (seat 1) |",
			} {
				if !strings.Contains(s, want) {
					t.Errorf("2 pairs lacks %q:\n%s", want, s)
				}
			}
			// A deal size without estimates has no column for them, and judges on the raw intervals.
			if s := section(md, "4 pairs"); strings.Contains(s, "adjusted") || !strings.Contains(s, "| seat 0 raw mean [95% CI] |") {
				t.Errorf("4 pairs:\n%s", s)
			}
			s = section(md, "Luck adjustment")
			for _, want := range []string{
				"| pairs | matchup (seat order) | seat 0 adjusted lead [95% CI] | variance reduction | coefficient (by seat) | reference |",
				"| 2 | opt vs opt | -0.6667 [-0.6667, -0.6667] | ∞ (no variance left) | 1.000 / 1.000 | (1) |",
				"| 2 | br vs opt | -0.1000 [-0.1200, -0.0800] | 4.00× | 0.980 / 1.020 | (2) |",
				"| 4 | opt vs br | — | — | — | — |",
				"Reference value functions: (1) optimal self-play; (2) perfect-memory values on the public record.",
				"how many times fewer games", "had no luck table",
			} {
				if !strings.Contains(s, want) {
					t.Errorf("section lacks %q:\n%s", want, s)
				}
			}
			if strings.Count(s, "optimal self-play") != 1 || strings.Contains(s, "outside") {
				t.Errorf("the reference is named %d times, want once, and the verdicts are in the deal sizes' tables:\n%s",
					strings.Count(s, "optimal self-play"), s)
			}
			if n := strings.Count(md, "| outside "); n != 1 {
				t.Errorf("%d flags, want 1", n)
			}
			// The section comes after the deal sizes and before the pairings.
			if i := strings.Index(md, "## Luck adjustment"); i < strings.Index(md, "## 4 pairs") || i > strings.Index(md, "## Pairings") {
				t.Errorf("section out of place")
			}
			row := tableRow(t, md, "Pairings", "2")
			if !strings.Contains(row, "| 1000 | 0.0600 [0.0550, 0.0650] | 12.50× | 0.0625 [0.0300, 0.0950] | — | — |") {
				t.Errorf("pairing row %q", row)
			}
			if !strings.Contains(section(md, "Pairings"), "| deals | adjusted advantage of A [95% CI] | adjusted variance reduction | raw advantage of A [95% CI] | variance reduction | sequential test |") {
				t.Errorf("pairings head:\n%s", section(md, "Pairings"))
			}
			if !strings.Contains(section(md, "How to read this"), "\"outside adjusted CI\"") {
				t.Errorf("the note does not explain the adjusted verdicts")
			}
		}},
		{"one reference: named in the note, no column", func() *Run {
			r := luckRun()
			r.Matchups[1].LuckAdjusted.Reference = "optimal self-play"
			return r
		}, func(t *testing.T, md string) {
			s := section(md, "Luck adjustment")
			if !strings.Contains(s, "Reference value function: optimal self-play.") || strings.Contains(s, "| reference |") ||
				!strings.Contains(s, "| 4 | opt vs br | — | — | — |\n") {
				t.Errorf("section:\n%s", s)
			}
		}},
		{"zero width off the exact value: flagged", func() *Run {
			r := luckRun()
			la := r.Matchups[0].LuckAdjusted
			la.CI95[0], la.MeanPairs[0] = [2]float64{0.6667, 0.6667}, 0.6667
			r.Judge()
			return r
		}, func(t *testing.T, md string) {
			if !strings.HasSuffix(tableRow(t, md, "2 pairs", "opt vs opt"), "| outside adjusted CI (seat 0) |") {
				t.Errorf("no flag")
			}
		}},
		{"raw outside, adjusted inside: not flagged", func() *Run {
			r := luckRun()
			m := &r.Matchups[0]
			m.MeanPairs[0], m.CI95[0] = 0.7, [2]float64{0.69, 0.71}
			r.Judge()
			return r
		}, func(t *testing.T, md string) {
			if row := tableRow(t, md, "2 pairs", "opt vs opt"); !strings.HasSuffix(row, "|  |") {
				t.Errorf("row %q flagged by its raw interval", row)
			}
		}},
		{"no variance raw or adjusted", func() *Run {
			r := luckRun()
			r.Matchups[0].StdDev[0] = 0
			r.Pairings[0].CI95 = [2]float64{0.0625, 0.0625}
			r.Pairings[0].LuckAdjusted.VarianceReduction = nil
			return r
		}, func(t *testing.T, md string) {
			if !strings.Contains(tableRow(t, md, "Luck adjustment", "2 | opt vs opt"), "| — (no variance at all) |") ||
				!strings.Contains(tableRow(t, md, "Pairings", "2"), "| — (no variance at all) |") {
				t.Errorf("report:\n%s", md)
			}
		}},
		{"pairing without an estimate", func() *Run {
			r := luckRun()
			r.Pairings = append(r.Pairings, Pairing{Pairs: 4, Players: [2]string{"opt", "br"}, Deals: 1000, CI95: [2]float64{-0.1, 0.1}})
			r.Pairings[0].LuckAdjusted.VarianceReduction = nil
			return r
		}, func(t *testing.T, md string) {
			if !strings.Contains(tableRow(t, md, "Pairings", "4"), "| 1000 | — | — | 0.0000 [-0.1000, 0.1000] |") ||
				!strings.Contains(tableRow(t, md, "Pairings", "2"), "| ∞ (no variance left) |") {
				t.Errorf("pairings:\n%s", section(md, "Pairings"))
			}
		}},
		{"pairings only: the explanation goes with them", func() *Run {
			r := luckRun()
			for i := range r.Matchups {
				r.Matchups[i].LuckAdjusted = nil
			}
			r.Judge()
			return r
		}, func(t *testing.T, md string) {
			if s := section(md, "Pairings"); section(md, "Luck adjustment") != "" ||
				!strings.Contains(s, "Luck adjustment: every card nobody had seen") || !strings.Contains(s, "12.50×") {
				t.Errorf("report:\n%s", md)
			}
		}},
		{"three players: no lead column", func() *Run {
			r := luckRun()
			r.Rules.PlayersPerGame = 3
			r.Players = append(r.Players, Player{Name: "x", Policy: "safe", Memory: "perfect"})
			r.Matchups = r.Matchups[2:]
			m := &r.Matchups[0]
			m.Players = append(m.Players, "x")
			m.MeanPairs, m.StdDev = append(m.MeanPairs, 0), append(m.StdDev, 0)
			m.CI95, m.ExactPairs = append(m.CI95, [2]float64{0, 0}), append(m.ExactPairs, nil)
			m.Wins, m.Draws, m.Losses = append(m.Wins, 0), append(m.Draws, 0), append(m.Losses, 1000)
			m.LuckAdjusted = &LuckAdjusted{Reference: "r", Coefficient: []float64{1, 1, 1},
				MeanPairs: []float64{1.75, 2.25, 0}, CI95: [][2]float64{{1.7, 1.8}, {2.2, 2.3}, {0, 0}}, VarianceReduction: fptr(1.5)}
			r.Judge()
			return r
		}, func(t *testing.T, md string) {
			s := section(md, "Luck adjustment")
			if strings.Contains(s, "adjusted lead") ||
				!strings.Contains(s, "| 4 | opt vs br vs x | 1.50× | 1.000 / 1.000 / 1.000 |") {
				t.Errorf("section:\n%s", s)
			}
			if row := tableRow(t, md, "4 pairs", "opt vs br vs x"); !strings.Contains(row, "| 1.7500 [1.7000, 1.8000] | 1.7500 [1.6900, 1.8100] | — |") ||
				!strings.Contains(row, "| 0.0000 [0.0000, 0.0000] | 0.0000 [0.0000, 0.0000] | — |") {
				t.Errorf("row %q", row)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteMarkdown(&buf, c.run(), nil); err != nil {
				t.Fatal(err)
			}
			md := buf.String()
			if strings.Contains(md, "NaN") || strings.Contains(md, "Inf") {
				t.Errorf("report prints NaN or Inf:\n%s", md)
			}
			c.check(t, md)
		})
	}
}

func TestLuckHTML(t *testing.T) {
	r := luckRun()
	r.Matchups[1].LuckAdjusted.Reference = `<script>alert("x")</script> & values`
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`<h2 id="luck-adjustment">Luck adjustment</h2>`,
		"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; values",
		`<td class="nowrap flag">outside adjusted CI (seat 1)</td>`,
		`<td class="right nowrap">∞ (no variance left)</td>`,
		`<th class="nowrap">adjusted advantage of A [95% CI]</th>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(out, "<script>") || strings.Contains(out, "NaN") {
		t.Errorf("report.html has an unescaped reference or a NaN")
	}
	if n := strings.Count(out, `flag">`); n != 1 {
		t.Errorf("%d cells marked as flags, want 1", n)
	}
}

func TestValidateLuck(t *testing.T) {
	if err := luckRun().Validate(); err != nil {
		t.Fatalf("luck run: %v", err)
	}
	cases := map[string]func(r *Run){
		"short coefficient":      func(r *Run) { r.Matchups[0].LuckAdjusted.Coefficient = []float64{1} },
		"short ci95":             func(r *Run) { r.Matchups[1].LuckAdjusted.CI95 = nil },
		"NaN mean":               func(r *Run) { r.Matchups[1].LuckAdjusted.MeanPairs[1] = math.NaN() },
		"reversed ci95":          func(r *Run) { r.Matchups[1].LuckAdjusted.CI95[0] = [2]float64{1, 0} },
		"Inf lead":               func(r *Run) { r.Matchups[1].LuckAdjusted.MeanLead = fptr(math.Inf(-1)) },
		"reversed lead ci":       func(r *Run) { r.Matchups[1].LuckAdjusted.CI95Lead = &[2]float64{1, 0} },
		"NaN variance reduction": func(r *Run) { r.Matchups[1].LuckAdjusted.VarianceReduction = fptr(math.NaN()) },
		"pairing NaN":            func(r *Run) { r.Pairings[0].LuckAdjusted.Coefficient = math.NaN() },
		"pairing reversed ci":    func(r *Run) { r.Pairings[0].LuckAdjusted.CI95 = [2]float64{1, 0} },
		"pairing Inf reduction":  func(r *Run) { r.Pairings[0].LuckAdjusted.VarianceReduction = fptr(math.Inf(1)) },
	}
	for name, spoil := range cases {
		r := luckRun()
		spoil(r)
		if err := r.Validate(); err == nil {
			t.Errorf("%s: Validate accepted it", name)
		}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, r); err == nil || buf.Len() != 0 {
			t.Errorf("%s: WriteCSV returned %v after writing %d bytes", name, err, buf.Len())
		}
	}
}

// WriteDir writes the record files that have a Write to records/, and report.md links every
// record file on a line of its own; a file name that is not a run folder's is refused, with
// nothing written.
func TestWriteDirRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	content := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	recs := []RecordFile{
		{Name: "12-a-vs-b.jsonl", Title: "12 pairs: a vs b", Write: content("one\n")},
		{Name: "12-b-vs-a.jsonl", Title: "12 pairs: b vs a"},
		{Name: "26-a-vs-b.jsonl", Title: "26 pairs: a vs b", Write: content("two\n")},
	}
	if err := WriteDir(dir, sampleRun(), nil, nil, recs...); err != nil {
		t.Fatal(err)
	}
	if got, want := names(t, filepath.Join(dir, RecordsDir)), []string{"12-a-vs-b.jsonl", "26-a-vs-b.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("records/ holds %v, want %v", got, want)
	}
	if got, err := os.ReadFile(filepath.Join(dir, RecordsDir, "26-a-vs-b.jsonl")); err != nil || string(got) != "two\n" {
		t.Errorf("records/26-a-vs-b.jsonl: %q, %v", got, err)
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"- [12 pairs: a vs b](records/12-a-vs-b.jsonl)", "- [12 pairs: b vs a](records/12-b-vs-a.jsonl)", "- [26 pairs: a vs b](records/26-a-vs-b.jsonl)"} {
		if !strings.Contains(string(md), "\n"+line+"\n") {
			t.Errorf("report.md lacks the line %q", line)
		}
	}
	for _, name := range []string{"", ".hidden.jsonl", "a/b.jsonl", "a b.jsonl", strings.Repeat("x", 256)} {
		bad := filepath.Join(t.TempDir(), "bad")
		err := WriteDir(bad, sampleRun(), nil, nil, RecordFile{Name: name, Write: content("x")})
		if err == nil || !strings.Contains(err.Error(), "record file name") {
			t.Errorf("name %q: %v, want a refusal", name, err)
		}
		if _, err := os.Stat(bad); !os.IsNotExist(err) {
			t.Errorf("name %q: the folder was written", name)
		}
	}
}
