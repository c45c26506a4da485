package main

import (
	"context"
	_ "embed"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
)

// The small validation suite (testdata/suite.yaml) and the small tournaments whose verdicts take
// every form (testdata/verdicts.yaml), YAML documents separated by "---".
var (
	//go:embed testdata/suite.yaml
	validationSuite string
	//go:embed testdata/verdicts.yaml
	verdictTournaments string
)

// verdict is a matchup's verdict as one output shows it: the interval it is judged on ("adjusted"
// or "raw"; "" where the output does not say), whether it is flagged, and what is outside, sorted
// (nil where the output does not say).
type verdict struct {
	basis   string
	flagged bool
	outside []string
}

func (v verdict) String() string {
	return fmt.Sprintf("%s/%v/%q", v.basis, v.flagged, v.outside)
}

// verdicts maps a matchup, "PAIRS NAME vs NAME", to its verdict.
type verdicts map[string]verdict

// The outputs of a run agree matchup by matchup on its verdicts: the summary memsim run prints,
// report.md, report.html, matchups.csv and results.json, each parsed on its own, flag the same
// matchups on the same basis, naming the same values outside. So on a small run (played by
// memsim run), on each tournament of a small validation suite, and on tournaments in which a raw
// interval misses an exact value its adjusted interval holds (flagged nowhere), an adjusted
// interval misses (flagged on the adjusted basis), and a raw interval of the game length misses
// (flagged on the raw basis); in the long form, on every tournament of the embedded validation
// suite too. Those are played and written as memsim run does, without the figures, which hold no
// verdict and take most of the time.
func TestOutputsAgreeOnTheVerdicts(t *testing.T) {
	t.Parallel()
	type played struct{ name, stdout, dir string }
	stdout, _, dir := smallRunPrinted(t)
	runs := []played{{"small run", stdout, dir}}
	tmp := t.TempDir()
	var cfgs []*configs.Tournament
	for _, doc := range append(strings.Split(validationSuite, "\n---\n"), strings.Split(verdictTournaments, "\n---\n")...) {
		cfg, err := configs.Parse("suite.yaml", []byte(doc), tournament.ConfigOptions())
		if err != nil {
			t.Fatal(err)
		}
		cfgs = append(cfgs, cfg)
	}
	if !testing.Short() {
		// The embedded validation suite's tournaments too, at 2,000 games each.
		file, data := configs.ValidationSuite()
		suite, err := configs.ParseSuite(file, data, tournament.ConfigOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, cfg := range suite {
			cfg.Games = 2000
			cfgs = append(cfgs, cfg)
		}
	}
	for i, cfg := range cfgs {
		ctx := context.Background()
		tr, err := tournament.New(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tr.Play(ctx, tournament.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := tr.Report(ctx, res)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(tmp, strconv.Itoa(i)+"-"+cfg.Name) // names repeat across the suites
		var summary strings.Builder
		if err := report.WriteDir(dir, r, cfg.YAML(), nil); err != nil {
			t.Fatal(err)
		}
		if err := writeSummary(&summary, r, dir); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, played{cfg.Name, summary.String(), dir})
	}

	var adjustedFlags, rawFlags, rawMissesUnflagged int
	for _, p := range runs {
		fromJSON, rawMisses := jsonVerdicts(t, filepath.Join(p.dir, "results.json"))
		outputs := map[string]verdicts{
			"the summary":  summaryVerdicts(t, p.stdout),
			"report.md":    markdownVerdicts(t, filepath.Join(p.dir, "report.md")),
			"report.html":  htmlVerdicts(t, filepath.Join(p.dir, "report.html")),
			"matchups.csv": csvVerdicts(t, filepath.Join(p.dir, "matchups.csv")),
		}
		for _, key := range slices.Sorted(maps.Keys(fromJSON)) {
			want := fromJSON[key]
			for _, output := range slices.Sorted(maps.Keys(outputs)) {
				got, ok := outputs[output][key]
				if !ok && output == "the summary" && cutInSummary(outputs[output], key) {
					continue // a seat order too wide for its line is cut, ending "…"
				}
				if !ok {
					t.Errorf("%s: %s has no matchup %s", p.name, output, key)
					continue
				}
				if got.basis != want.basis || got.flagged != want.flagged || (got.outside != nil && !slices.Equal(got.outside, want.outside)) {
					t.Errorf("%s, %s: %s says %v, results.json %v", p.name, key, output, got, want)
				}
			}
			switch {
			case want.flagged && want.basis == "adjusted":
				adjustedFlags++
			case want.flagged:
				rawFlags++
			case rawMisses[key]:
				rawMissesUnflagged++
			}
		}
		for output, vs := range outputs {
			n := len(vs)
			if output == "the summary" {
				// A line per matchup: lines whose seat orders are cut short can read alike.
				_, body, _ := summaryParts(t, p.stdout)
				n = len(body)
			}
			if n != len(fromJSON) {
				t.Errorf("%s: %s shows %d matchups, results.json %d", p.name, output, n, len(fromJSON))
			}
		}
	}
	if adjustedFlags == 0 || rawFlags == 0 || rawMissesUnflagged == 0 {
		t.Errorf("%d matchups flagged on the adjusted basis, %d on the raw basis, %d raw misses not flagged: want some of each",
			adjustedFlags, rawFlags, rawMissesUnflagged)
	}
}

// jsonVerdicts reads the verdicts of results.json, and which matchups have an exact value outside
// a raw interval of theirs (seat means, game length), by exact comparison of the numbers.
func jsonVerdicts(t *testing.T, path string) (verdicts, map[string]bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Matchups []struct {
			Pairs      int          `json:"pairs"`
			Players    []string     `json:"players"`
			CI95       [][2]float64 `json:"ci95"`
			ExactPairs []*string    `json:"exact_pairs"`
			CI95Turns  [2]float64   `json:"ci95_turns"`
			ExactTurns *string      `json:"exact_turns"`
			Verdict    struct {
				Basis   string   `json:"basis"`
				Outside []string `json:"outside"`
			} `json:"verdict"`
		} `json:"matchups"`
	}
	if err := json.Unmarshal(data, &run); err != nil {
		t.Fatal(err)
	}
	out, rawMisses := verdicts{}, map[string]bool{}
	miss := func(exact *string, ci [2]float64) bool {
		if exact == nil {
			return false
		}
		x, ok := new(big.Rat).SetString(*exact)
		if !ok {
			t.Fatalf("%s: exact value %q", path, *exact)
		}
		return x.Cmp(new(big.Rat).SetFloat64(ci[0])) < 0 || x.Cmp(new(big.Rat).SetFloat64(ci[1])) > 0
	}
	for _, m := range run.Matchups {
		key := fmt.Sprintf("%d %s", m.Pairs, strings.Join(m.Players, " vs "))
		if m.Verdict.Outside == nil {
			t.Errorf("%s: %s: verdict.outside is null, want an array", path, key)
		}
		out[key] = verdict{m.Verdict.Basis, len(m.Verdict.Outside) > 0, slices.Sorted(slices.Values(m.Verdict.Outside))}
		for s, e := range m.ExactPairs {
			rawMisses[key] = rawMisses[key] || miss(e, m.CI95[s])
		}
		rawMisses[key] = rawMisses[key] || miss(m.ExactTurns, m.CI95Turns)
	}
	return out, rawMisses
}

// summaryLine is a matchup's line of memsim run's summary: the deal size, the seat order, the
// basis, seat 0's mean and half-width, then the exact value, wins/draws/losses and flags.
var summaryLine = regexp.MustCompile(`^ *(\d+) (.+?) +(adjusted|raw) +\d+\.\d{4} ±\d+\.\d{4} (.*)$`)

// cutInSummary reports whether the summary's verdicts hold a line whose seat order was cut short
// ("…") from the matchup key.
func cutInSummary(summary verdicts, key string) bool {
	for k := range summary {
		if prefix, cut := strings.CutSuffix(k, "…"); cut && strings.HasPrefix(key, prefix) {
			return true
		}
	}
	return false
}

// summaryVerdicts reads the verdicts of memsim run's summary: the basis of each line, and whether
// it says "outside CI".
func summaryVerdicts(t *testing.T, stdout string) verdicts {
	t.Helper()
	_, body, _ := summaryParts(t, stdout)
	out := verdicts{}
	for _, line := range body {
		m := summaryLine.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
		if m == nil {
			t.Fatalf("summary line %q", line)
		}
		out[m[1]+" "+m[2]] = verdict{basis: m[3], flagged: strings.Contains(m[4], "outside CI")}
	}
	return out
}

// flagItems reads what a check cell of the reports names outside: the items in the parentheses
// of each "outside adjusted CI (...)" and "outside raw CI (...)", sorted; nil for none.
func flagItems(cell string) []string {
	var items []string
	for _, m := range regexp.MustCompile(`outside (?:adjusted|raw) CI \(([^)]*)\)`).FindAllStringSubmatch(cell, -1) {
		items = append(items, strings.Split(m[1], ", ")...)
	}
	slices.Sort(items)
	return items
}

// tableVerdicts reads the verdicts of a table of a deal size of the reports, from its head and
// rows of cells: the basis is adjusted where the row has a seat 0 adjusted mean, and the check
// cell (flagged as the report marks it) names what is outside.
func tableVerdicts(t *testing.T, out verdicts, pairs string, head []string, rows [][]string, flagged func(row, col int) bool) {
	t.Helper()
	check, adjusted := slices.Index(head, "check"), slices.Index(head, "seat 0 adjusted mean [95% CI]")
	if check < 0 {
		t.Fatalf("a table of %s pairs without a check column: %q", pairs, head)
	}
	for i, row := range rows {
		v := verdict{basis: "raw", flagged: flagged(i, check), outside: flagItems(row[check])}
		if adjusted >= 0 && row[adjusted] != "—" {
			v.basis = "adjusted"
		}
		if v.outside == nil {
			v.outside = []string{}
		}
		out[pairs+" "+row[0]] = v
	}
}

// markdownVerdicts reads the verdicts of report.md: the rows of its tables of the deal sizes,
// flagged where the check column begins "outside ".
func markdownVerdicts(t *testing.T, path string) verdicts {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := verdicts{}
	for _, sec := range strings.Split(string(data), "\n## ")[1:] {
		title, body, _ := strings.Cut(sec, "\n")
		pairs, ok := strings.CutSuffix(title, " pairs")
		if _, err := strconv.Atoi(pairs); !ok || err != nil {
			continue
		}
		var head []string
		var rows [][]string
		for _, line := range strings.Split(body, "\n") {
			if !strings.HasPrefix(line, "| ") {
				continue
			}
			cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |"), " | ")
			if head == nil {
				head = cells
				continue
			}
			rows = append(rows, cells)
		}
		tableVerdicts(t, out, pairs, head, rows, func(row, col int) bool { return strings.HasPrefix(rows[row][col], "outside ") })
	}
	return out
}

// htmlVerdicts reads the verdicts of report.html: the rows of the tables under the headings of the
// deal sizes, flagged where the check cell has the class "flag" (among any others).
func htmlVerdicts(t *testing.T, path string) verdicts {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile(`(?s)<h2[^>]*>(\d+) pairs</h2>.*?<table[^>]*>(.*?)</table>`)
	row := regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	cell := regexp.MustCompile(`(?s)<t[hd](?: class="([^"]*)")?>(.*?)</t[hd]>`)
	out := verdicts{}
	for _, sec := range section.FindAllStringSubmatch(string(data), -1) {
		var head []string
		var rows [][]string
		var flags [][]bool
		for _, r := range row.FindAllStringSubmatch(sec[2], -1) {
			var cells []string
			var flagged []bool
			for _, c := range cell.FindAllStringSubmatch(r[1], -1) {
				cells = append(cells, html.UnescapeString(c[2]))
				flagged = append(flagged, slices.Contains(strings.Fields(c[1]), "flag"))
			}
			if head == nil {
				head = cells
				continue
			}
			rows, flags = append(rows, cells), append(flags, flagged)
		}
		tableVerdicts(t, out, sec[1], head, rows, func(row, col int) bool { return flags[row][col] })
	}
	return out
}

// csvVerdicts reads the verdicts of matchups.csv: check_basis and outside_ci, which every row of
// a matchup repeats.
func csvVerdicts(t *testing.T, path string) verdicts {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	out := verdicts{}
	for _, row := range rows[1:] {
		key := row[col["pairs"]] + " " + row[col["matchup"]]
		v := verdict{basis: row[col["check_basis"]], outside: []string{}}
		if o := row[col["outside_ci"]]; o != "" {
			v.outside = slices.Sorted(slices.Values(strings.Split(o, ", ")))
		}
		v.flagged = len(v.outside) > 0
		if prev, ok := out[key]; ok && prev.String() != v.String() {
			t.Errorf("%s: the rows of %s differ: %v and %v", path, key, prev, v)
		}
		out[key] = v
	}
	return out
}
