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

// writeSummary prints a run's results compactly, one line per matchup of at most summaryWidth
// columns: the deal size, the seat order, seat 0's mean pairs with the half-width of its 95%
// interval, the exact value where there is one, seat 0's wins, draws and losses, and a flag for an
// exact value outside its interval or an early stop; then where the full report is.
//
// Where a matchup has a luck-adjusted estimate (report.Matchup.LuckAdjusted), seat 0's adjusted
// mean and half-width join the line: next to the raw ones when every line then fits in
// summaryWidth columns without cutting a seat order ("—" for a matchup without one), otherwise in
// their place (the raw ones, marked "*", for a matchup without one). The header line says which.
// The flag "outside CI" says whether report.Matchup.Outside names anything: it judges the exact
// values of such a matchup against its adjusted intervals and its game length against the raw
// interval, and a matchup without one against its raw intervals.
func writeSummary(w io.Writer, r *report.Run, dir string) error {
	type line struct{ head, raw, adj, rest string }
	lines := make([]line, len(r.Matchups))
	luck := false
	for i, m := range r.Matchups {
		exact := ""
		if m.ExactPairs[0] != nil {
			exact = fmt.Sprintf("exact %.4f", report.ExactFloat(*m.ExactPairs[0]))
		}
		out := m.Outside()
		if la := m.LuckAdjusted; la != nil {
			luck = true
			lines[i].adj = fmt.Sprintf(" %8.4f ±%.4f", la.MeanPairs[0], (la.CI95[0][1]-la.CI95[0][0])/2)
		}
		flag := ""
		if len(out) > 0 {
			flag = "outside CI"
		}
		if m.StoppedEarly != "" {
			flag = strings.TrimPrefix(flag+", stopped early", ", ")
		}
		wdl := fmt.Sprintf("%.0f/%.0f/%.0f%%", pct(m.Wins[0], m.Games), pct(m.Draws[0], m.Games), pct(m.Losses[0], m.Games))
		lines[i].raw = fmt.Sprintf(" %8.4f ±%.4f", m.MeanPairs[0], (m.CI95[0][1]-m.CI95[0][0])/2)
		lines[i].rest = fmt.Sprintf(" %-13s %-12s %s", exact, wdl, flag)
		lines[i].head = fmt.Sprintf("%4d %s", m.Pairs, strings.Join(m.Players, " vs "))
	}
	// The mean columns: the raw estimate alone without luck-adjusted ones; with them, the raw and
	// the adjusted side by side if every line fits whole, else the adjusted in place of the raw.
	tail := func(l line) string { return strings.TrimRight(l.raw+l.rest, " ") }
	header := "%s: seat 0's mean pairs per game [±95%% half-width], exact value, seat 0's wins/draws/losses\n"
	if luck {
		tail = func(l line) string {
			adj := l.adj
			if adj == "" {
				adj = fmt.Sprintf(" %8s %-7s", "—", "")
			}
			return strings.TrimRight(l.raw+adj+l.rest, " ")
		}
		header = "%s: seat 0's mean pairs per game [±95%% half-width], raw then luck-adjusted (— none), exact value, " +
			"wins/draws/losses; \"outside CI\" by the adjusted interval where there is one\n"
		headWidth, tailWidth := 0, 0
		for _, l := range lines {
			headWidth = max(headWidth, utf8.RuneCountInString(l.head))
			tailWidth = max(tailWidth, utf8.RuneCountInString(tail(l)))
		}
		if headWidth+tailWidth > summaryWidth {
			tail = func(l line) string {
				if l.adj == "" {
					return strings.TrimRight(l.raw+"*"+l.rest, " ")
				}
				return strings.TrimRight(l.adj+" "+l.rest, " ")
			}
			header = "%s: seat 0's luck-adjusted mean pairs per game [±95%% half-width] (*: raw, no luck table), " +
				"exact value, wins/draws/losses; \"outside CI\" by the interval shown\n"
		}
	}
	fmt.Fprintf(w, header, r.Name)
	heads, tails := make([]string, len(lines)), make([]string, len(lines))
	headWidth, tailWidth := 0, 0
	for i, l := range lines {
		heads[i], tails[i] = l.head, tail(l)
		headWidth = max(headWidth, utf8.RuneCountInString(heads[i]))
		tailWidth = max(tailWidth, utf8.RuneCountInString(tails[i]))
	}
	// One column for the seat orders, as wide as the longest or as the line leaves room for.
	headWidth = min(headWidth, summaryWidth-tailWidth)
	for i := range heads {
		fmt.Fprintf(w, "%-*s%s\n", headWidth, fitRunes(heads[i], headWidth), tails[i])
	}
	_, err := fmt.Fprintf(w, "full report: %s (and %s); memsim run --markdown prints it here\n",
		filepath.Join(dir, report.ReportFile), filepath.Join(dir, report.HTMLFile))
	return err
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
