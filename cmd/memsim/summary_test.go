package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"memsim/analysis/report"
)

// summaryMatchup is a two-player matchup at 5 pairs for the summary's tests: seat 0 averages mean
// pairs with the interval mean ± half, seat 1 the rest; exact is seat 0's exact value ("" for
// none; seat 1's is then 5 minus it).
func summaryMatchup(players string, mean, half float64, exact string, la *report.LuckAdjusted) report.Matchup {
	m := report.Matchup{
		Pairs: 5, Players: strings.Split(players, " vs "), Games: 1000,
		MeanPairs:  []float64{mean, 5 - mean},
		StdDev:     []float64{1, 1},
		CI95:       [][2]float64{{mean - half, mean + half}, {5 - mean - half, 5 - mean + half}},
		ExactPairs: []*string{nil, nil},
		Wins:       []int64{500, 400}, Draws: []int64{100, 100}, Losses: []int64{400, 500},
		MeanTurns: 8, CI95Turns: [2]float64{7.9, 8.1},
		LuckAdjusted: la,
	}
	if exact != "" {
		e0, e1 := exact, exactRest(exact)
		m.ExactPairs = []*string{&e0, &e1}
	}
	return m
}

// exactRest returns 5 - x for an exact "p/q".
func exactRest(x string) string {
	switch x {
	case "5/2":
		return "5/2"
	case "8/3":
		return "7/3"
	}
	panic("exactRest: " + x)
}

// luck is a luck-adjusted estimate of a two-player matchup at 5 pairs with seat 0's mean and
// interval mean ± half.
func luck(mean, half float64) *report.LuckAdjusted {
	return &report.LuckAdjusted{Reference: "optimal self-play", Coefficient: []float64{1, 1},
		MeanPairs: []float64{mean, 5 - mean}, CI95: [][2]float64{{mean - half, mean + half}, {5 - mean - half, 5 - mean + half}}}
}

// The summary has one layout whatever the run: the same header, and on every line the basis of
// the matchup's verdict with seat 0's mean and half-width on that basis, so that "outside CI"
// flags the interval shown, as the reports do.
func TestWriteSummary(t *testing.T) {
	t.Parallel()
	const long = "a-player-with-a-very-long-name vs another-player-with-a-long-name"
	const header = "t: seat 0's mean pairs per game ±95% half-width on the interval that judges the exact values " +
		"(adjusted: luck-adjusted; raw: no luck table), exact value, wins/draws/losses; \"outside CI\": an exact value outside its interval"
	cases := []struct {
		name     string
		matchups []report.Matchup
		want     []string // each in the line of its matchup, in order
		not      []string // in no line of the matchups
	}{
		{"no estimates", []report.Matchup{
			summaryMatchup("a vs b", 2.5, 0.1, "5/2", nil),
			summaryMatchup("b vs a", 2.8, 0.1, "5/2", nil),
		}, []string{
			"   5 a vs b raw        2.5000 ±0.1000 exact 2.5000  50/10/40%\n",
			"   5 b vs a raw        2.8000 ±0.1000 exact 2.5000  50/10/40%    outside CI\n",
		}, []string{"—", "*", "adjusted"}},
		{"an estimate and none", []report.Matchup{
			summaryMatchup("a vs b", 2.5, 0.1, "5/2", luck(2.5001, 0.001)),
			summaryMatchup("b vs c", 2.5, 0.1, "", nil),
		}, []string{
			"   5 a vs b adjusted   2.5001 ±0.0010 exact 2.5000  50/10/40%\n",
			"   5 b vs c raw        2.5000 ±0.1000               50/10/40%\n",
		}, []string{"outside CI", "*", "—"}},
		{"long names cut to fit", []report.Matchup{
			summaryMatchup(long, 2.5, 0.1, "5/2", luck(2.5001, 0.001)),
			summaryMatchup("b vs c", 2.4, 0.1, "", nil),
		}, []string{
			" adjusted   2.5001 ±0.0010 exact 2.5000  50/10/40%\n",
			"   5 b vs c",
			" raw        2.4000 ±0.1000               50/10/40%\n",
		}, []string{"2.5000 ±0.1000"}},
		{"raw outside, adjusted inside: not flagged", []report.Matchup{
			summaryMatchup("a vs b", 2.8, 0.1, "5/2", luck(2.5, 0.001)),
		}, []string{"   5 a vs b adjusted   2.5000 ±0.0010 exact 2.5000  50/10/40%\n"}, []string{"outside CI", "2.8000"}},
		{"raw inside, adjusted outside: flagged", []report.Matchup{
			summaryMatchup("a vs b", 2.5, 0.1, "5/2", luck(2.51, 0.001)),
		}, []string{"   5 a vs b adjusted   2.5100 ±0.0010 exact 2.5000  50/10/40%    outside CI\n"}, nil},
		{"zero-width adjusted interval at the nearest float", []report.Matchup{
			summaryMatchup("a vs b", 2.6, 0.1, "8/3", luck(8.0/3, 0)),
		}, []string{" adjusted   2.6667 ±0.0000 exact 2.6667  50/10/40%\n"}, []string{"outside CI"}},
		{"zero-width adjusted interval off by the rounding of the luck", []report.Matchup{
			summaryMatchup("a vs b", 2.6, 0.1, "8/3", luck(8.0/3-0.4/(1<<24), 0)),
		}, []string{" adjusted   2.6667 ±0.0000 exact 2.6667  50/10/40%\n"}, []string{"outside CI"}},
		{"zero-width adjusted interval off the exact value", []report.Matchup{
			summaryMatchup("a vs b", 2.6, 0.1, "8/3", luck(2.6667, 0)),
		}, []string{" adjusted   2.6667 ±0.0000 exact 2.6667  50/10/40%    outside CI\n"}, nil},
		{"turns still judged on the raw interval", []report.Matchup{
			func() report.Matchup {
				m := summaryMatchup("a vs b", 2.5, 0.1, "5/2", luck(2.5, 0.001))
				turns := "9"
				m.ExactTurns = &turns
				m.StoppedEarly = "precision reached"
				return m
			}(),
		}, []string{"50/10/40%    outside CI, stopped early\n"}, nil},
		{"long names, flags and early stops stay within 100 columns", []report.Matchup{
			func() report.Matchup {
				m := summaryMatchup(long, 2.5, 0.1, "5/2", luck(2.6, 0.001))
				m.StoppedEarly = "sprt"
				return m
			}(),
			summaryMatchup(long+" vs "+long, 2.5, 0.1, "5/2", nil),
		}, []string{"outside CI, stopped early\n", "…"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := &report.Run{SchemaVersion: report.SchemaVersion, Name: "t", Matchups: c.matchups}
			r.Judge()
			var buf bytes.Buffer
			if err := writeSummary(&buf, r, "dir"); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			head, body, _ := summaryParts(t, out)
			if len(body) != len(c.matchups) {
				t.Fatalf("want a header, %d lines and the report's path:\n%s", len(c.matchups), out)
			}
			if head != header {
				t.Errorf("header %q, want %q", head, header)
			}
			k := 0
			for _, want := range c.want {
				for k < len(body) && !strings.Contains(body[k], want) {
					k++
				}
				if k == len(body) {
					t.Errorf("no line (in order) holds %q:\n%s", want, out)
					break
				}
			}
			for _, l := range body {
				if n := utf8.RuneCountInString(strings.TrimSuffix(l, "\n")); n > summaryWidth {
					t.Errorf("a line of %d columns: %q", n, l)
				}
				for _, bad := range append(c.not, "NaN") {
					if strings.Contains(l, bad) {
						t.Errorf("line %q holds %q", l, bad)
					}
				}
			}
		})
	}
}

// matchupLine matches a matchup's line of the summary: the deal size, right-aligned in 4 columns.
var matchupLine = regexp.MustCompile(`^ *[0-9]+ `)

// summaryParts splits what memsim run prints into its header (its lines joined by spaces, each
// checked to fit 80 columns), the matchups' lines (each with its newline) and the last line, the
// path of the full report.
func summaryParts(t *testing.T, out string) (header string, body []string, last string) {
	t.Helper()
	lines := strings.SplitAfter(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[len(lines)-1], "full report: ") {
		t.Fatalf("no header, or no report's path last:\n%s", out)
	}
	k := 0
	var head []string
	for ; k < len(lines)-1 && !matchupLine.MatchString(lines[k]); k++ {
		line := strings.TrimSuffix(lines[k], "\n")
		if n := utf8.RuneCountInString(line); n > 79 {
			t.Errorf("a header line of %d columns: %q", n, line)
		}
		head = append(head, line)
	}
	return strings.Join(head, " "), lines[k : len(lines)-1], lines[len(lines)-1]
}
