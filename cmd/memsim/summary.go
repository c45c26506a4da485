package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"memsim/analysis/report"
	"memsim/sim"
	"memsim/tournament"
)

// summaryWidth is the widest line of the summary memsim run prints.
const summaryWidth = 100

// summaryHeader heads the summary, after the run's name: the same for every run, wrapped at
// headerWidth columns.
const summaryHeader = "seat 0's mean pairs per game ±95% half-width on the interval that judges the exact values " +
	"(adjusted: luck-adjusted; raw: no luck table), exact value, wins/draws/losses; " +
	"\"outside CI\": an exact value outside its interval"

// headerWidth is the widest line of the summary's header: it fits an 80-column terminal.
const headerWidth = 79

// writeSummary prints a run's results compactly, in one layout whatever the run: a header
// (summaryHeader, wrapped to fit 80 columns), then one line per matchup of at most summaryWidth columns, then where the
// full report is. A matchup's line holds the deal size, the seat order, the basis of its verdict
// (report.Matchup.Verdict: "adjusted" where it has a luck-adjusted estimate, "raw" otherwise),
// seat 0's mean pairs with the half-width of its 95% interval on that basis, the exact value
// where there is one, seat 0's wins, draws and losses, and the flags: "outside CI" where the
// verdict finds an exact value outside its interval, as results.json, matchups.csv and the
// reports do, and "stopped early". The seat orders are cut, ending "…", where a line would be
// wider.
func writeSummary(w io.Writer, r *report.Run, dir string) error {
	type line struct{ head, tail string }
	lines := make([]line, len(r.Matchups))
	headWidth, tailWidth := 0, 0
	for i, m := range r.Matchups {
		mean, ci := m.MeanPairs[0], m.CI95[0]
		if la := m.LuckAdjusted; la != nil && m.Verdict.Basis == report.BasisAdjusted {
			mean, ci = la.MeanPairs[0], la.CI95[0]
		}
		exact := ""
		if m.ExactPairs[0] != nil {
			exact = fmt.Sprintf("exact %.4f", report.ExactFloat(*m.ExactPairs[0]))
		}
		var flags []string
		if m.Verdict.Flagged() {
			flags = append(flags, "outside CI")
		}
		if m.StoppedEarly != "" {
			flags = append(flags, "stopped early")
		}
		wdl := fmt.Sprintf("%.0f/%.0f/%.0f%%", pct(m.Wins[0], m.Games), pct(m.Draws[0], m.Games), pct(m.Losses[0], m.Games))
		lines[i].head = fmt.Sprintf("%4d %s", m.Pairs, strings.Join(m.Players, " vs "))
		lines[i].tail = strings.TrimRight(fmt.Sprintf(" %-8s %8.4f ±%.4f %-13s %-12s %s",
			m.Verdict.Basis, mean, (ci[1]-ci[0])/2, exact, wdl, strings.Join(flags, ", ")), " ")
		headWidth = max(headWidth, utf8.RuneCountInString(lines[i].head))
		tailWidth = max(tailWidth, utf8.RuneCountInString(lines[i].tail))
	}
	fmt.Fprintln(w, wrapWords(r.Name+": "+summaryHeader, headerWidth))
	// One column for the seat orders, as wide as the longest or as the line leaves room for.
	headWidth = min(headWidth, summaryWidth-tailWidth)
	for _, l := range lines {
		fmt.Fprintf(w, "%-*s%s\n", headWidth, fitRunes(l.head, headWidth), l.tail)
	}
	_, err := fmt.Fprintf(w, "full report: %s (and %s); memsim run --markdown prints it here\n",
		filepath.Join(dir, report.ReportFile), filepath.Join(dir, report.HTMLFile))
	return err
}

// wrapWords breaks s into lines of at most width characters between words (a longer word has a
// line of its own).
func wrapWords(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		k := utf8.RuneCountInString(word)
		switch {
		case i == 0:
		case n+1+k > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += k
	}
	return b.String()
}

// fitRunes cuts s to at most n characters, ending it with "…" when cut.
func fitRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + "…"
}

func pct(k, n int64) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(k) / float64(n)
}

// interim describes a match under way from its tallies so far (tournament.Match.Interim): each
// participant's mean pairs per game over the seat orders played, as "optimal 13.41 - 12.59
// parity after 32768 games, 26 pairs".
func interim(t *tournament.Tournament, i int, r *sim.Result) string {
	m := &t.Matches[i]
	in, ok := m.Interim(r)
	if !ok {
		return ""
	}
	var parts []string
	for part, id := range m.IDs {
		parts = append(parts, fmt.Sprintf("%s %.2f", t.Config.Players[id].Name, in.Means[part]))
	}
	return fmt.Sprintf("%s after %d games, %d pairs", strings.Join(parts, " - "), in.Games, m.Setup.Pairs)
}
