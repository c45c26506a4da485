package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// WriteJSON writes r as indented JSON (two spaces) with a trailing newline. Floats are printed as
// encoding/json prints them (the shortest form that reads back to the same float64), so the
// output is deterministic and decodes back to an equal Run. Characters such as < > & are written
// as they are, not escaped. It returns an error, having written nothing, if r does not Validate.
func WriteJSON(w io.Writer, r *Run) error {
	if err := r.Validate(); err != nil {
		return err
	}
	data, err := encode(r)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// CSVHeader returns the header row of WriteCSV's output.
func CSVHeader() []string {
	return []string{"run", "seed", "pairs", "matchup", "seat", "player", "games", "mean_pairs", "sd_pairs", "ci95_low", "ci95_high",
		"exact_pairs", "exact_pairs_float", "wins", "draws", "losses", "mean_turns", "stopped_early",
		"adjusted_pairs", "adjusted_ci95_low", "adjusted_ci95_high", "adjusted_lead", "variance_reduction",
		"luck_coefficient", "luck_reference", "check_basis", "outside_ci",
	}
}

// WriteCSV writes r's matchups as tidy CSV: the header CSVHeader(), then one row per matchup and seat
// (each naming the run and its seed), in the order of r.Matchups and then seat order. matchup is the seat order joined by " vs ", seat
// counts from 0 (seat 0 moves first), exact_pairs is "p/q" or empty where there is no exact model
// and exact_pairs_float its value as a number, and the matchup-level games, mean_turns and
// stopped_early (why the matchup stopped before its games, or empty) repeat on each of its rows.
//
// The next seven columns are the matchup's luck-adjusted estimate (Matchup.LuckAdjusted), all
// empty where it has none: the row's seat's adjusted mean pairs per game (adjusted_pairs), its
// 95% interval (adjusted_ci95_low, adjusted_ci95_high) and the multiple of its luck subtracted
// (luck_coefficient); and, repeated on each row of the matchup as the other matchup-level
// columns are, seat 0's adjusted mean lead over seat 1 (adjusted_lead; empty unless two
// players), seat 0's variance reduction (variance_reduction: raw variance over adjusted
// variance; empty where it is null, no variance left, which luck_reference tells apart from no
// estimate at all) and the reference value function that measured the luck (luck_reference).
//
// The last two are the matchup's verdict (Matchup.Verdict), repeated on each of its rows: the
// interval that judges its exact values (check_basis: "adjusted" or "raw") and what lies outside
// it, comma-separated (outside_ci: "seat 1", "seat 0, lead", "turns"; empty where nothing does).
//
// Floats are printed in the shortest form that reads back to the same float64. It returns an
// error, having written nothing, if r does not Validate.
func WriteCSV(w io.Writer, r *Run) error {
	if err := r.Validate(); err != nil {
		return err
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	if err := cw.Write(CSVHeader()); err != nil {
		return err
	}
	for _, m := range r.Matchups {
		name := matchupName(m.Players)
		for s, player := range m.Players {
			exact, exactFloat := "", ""
			if m.ExactPairs[s] != nil {
				exact = *m.ExactPairs[s]
				if f := ExactFloat(exact); !math.IsNaN(f) {
					exactFloat = formatFloat(f)
				}
			}
			row := []string{
				r.Name, strconv.FormatUint(r.Seed, 10), strconv.Itoa(m.Pairs), name, strconv.Itoa(s), player,
				strconv.FormatInt(m.Games, 10),
				formatFloat(m.MeanPairs[s]), formatFloat(m.StdDev[s]),
				formatFloat(m.CI95[s][0]), formatFloat(m.CI95[s][1]),
				exact, exactFloat,
				strconv.FormatInt(m.Wins[s], 10), strconv.FormatInt(m.Draws[s], 10),
				strconv.FormatInt(m.Losses[s], 10),
				formatFloat(m.MeanTurns), m.StoppedEarly,
			}
			row = append(row, luckCSV(m.LuckAdjusted, s)...)
			row = append(row, m.Verdict.Basis, strings.Join(m.Verdict.Outside, ", "))
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// luckCSV returns the luck-adjusted columns of seat s's CSV row (see WriteCSV); empty cells
// without an estimate.
func luckCSV(la *LuckAdjusted, s int) []string {
	if la == nil {
		return make([]string, 7)
	}
	return []string{
		formatFloat(la.MeanPairs[s]), formatFloat(la.CI95[s][0]), formatFloat(la.CI95[s][1]),
		formatFloatOr(la.MeanLead), formatFloatOr(la.VarianceReduction),
		formatFloat(la.Coefficient[s]), la.Reference,
	}
}

// formatFloatOr is formatFloat of *x, or "" for nil.
func formatFloatOr(x *float64) string {
	if x == nil {
		return ""
	}
	return formatFloat(*x)
}

// formatFloat prints x as encoding/json does: the shortest representation that reads back to x,
// in plain decimal unless the magnitude is below 1e-6 or at least 1e21.
func formatFloat(x float64) string {
	if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
		s := strconv.FormatFloat(x, 'e', -1, 64)
		// Like encoding/json, print e-07 as e-7.
		if n := len(s); n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
			s = s[:n-2] + s[n-1:]
		}
		return s
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// WriteMarkdown writes report.md: a title with the run's name, a line with the seed, games, pairing,
// format and rules, a table of the players, a table of the faults of the player processes (when
// some player has on_error forfeit or some fault is counted: each such player's games, crashes,
// timeouts, illegal moves and games forfeited), then for each deal size (ascending) a table of its
// matchups in the order of r.Matchups, then for paired runs a table of the pairings, and last a
// short note on how to read the tables. A matchup's row shows, for each seat, its luck-adjusted
// mean pairs per game with its 95% interval ("mean [low, high]", 4 decimals; a column only at a
// deal size where some matchup has a luck-adjusted estimate, "—" for a matchup without one), its
// raw mean with its interval and its exact value ("0.6667 (2/3)", or "—" where there is no exact
// model); then the wins, draws and losses of seat 0 as percentages of the games and the mean
// turns per game. Its last column is the matchup's verdict (Verdict.Flag): "outside adjusted CI"
// or "outside raw CI", naming the seats, the lead or the turns, where an exact value lies outside
// the interval that judges it; and why the matchup stopped early, if it did.
//
// When any matchup has a luck-adjusted estimate, a section "Luck adjustment" follows the deal
// sizes: one row per matchup, by deal size, with seat 0's adjusted lead over seat 1 and its
// interval (two players), the variance reduction (seat 0's raw variance over its adjusted
// variance; "∞ (no variance left)" where it is null) and each seat's coefficient; "—" marks a
// matchup without an estimate. Its note explains luck adjustment and names each reference value
// function once (numbered, with a reference column, when there are several). When any pairing
// has one, the pairings table leads with the adjusted advantage of A, with its interval and its
// variance reduction, before the raw advantage.
//
// With figures, a section links each one's PNG in plots/ with its title and caption; with game
// records, a section "Game records" links each file of records/ on a line of its own, as
// "- [TITLE](records/NAME)". It returns an error, having written nothing, if r does not Validate
// or a record file's name is not one a run folder's records/ holds.
func WriteMarkdown(w io.Writer, r *Run, figs []Figure, recs ...RecordFile) error {
	if err := r.Validate(); err != nil {
		return err
	}
	for _, rf := range recs {
		if err := rf.validate(); err != nil {
			return err
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", inline(r.Name))
	b.WriteString(summaryLine(r) + "\n\n")
	for i, t := range tables(r) {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "## %s\n\n", t.Title)
		if t.Note != "" {
			b.WriteString(t.Note + "\n\n")
		}
		align := make([]string, len(t.Head))
		for k := range align {
			align[k] = "---"
			if k < len(t.Right) && t.Right[k] {
				align[k] = "---:"
			}
		}
		b.WriteString("| " + strings.Join(t.Head, " | ") + " |\n|" + strings.Join(align, "|") + "|\n")
		for _, row := range t.Rows {
			cells := make([]string, len(row))
			for k, c := range row {
				cells[k] = cell(c)
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
	}

	if len(figs) > 0 {
		b.WriteString("\n## Figures\n\n")
		for _, f := range figs {
			fmt.Fprintf(&b, "### %s\n\n![%s](%s/%s.png)\n\n%s\n\n", inline(f.Title), inline(f.Title), PlotsDir, f.Name, f.Caption)
		}
	}
	if len(recs) > 0 {
		b.WriteString("\n## Game records\n\n")
		b.WriteString("The first games of each matchup, move by move, as game records (memsim-record/1), which `memsim review` reads:\n\n")
		for _, rf := range recs {
			fmt.Fprintf(&b, "- [%s](%s/%s)\n", inline(rf.Title), RecordsDir, rf.Name)
		}
	}
	b.WriteString("\n## How to read this\n\n")
	b.WriteString(howTo(r) + "\n")

	_, err := io.WriteString(w, b.String())
	return err
}

// table is one table of a report, as plain text: both report.md and report.html show it.
type table struct {
	Title, Note string
	Head        []string
	Right       []bool // columns aligned right in Markdown
	Rows        [][]string
}

// summaryLine describes the run in one line.
func summaryLine(r *Run) string {
	paired := "unpaired"
	if r.Paired {
		paired = "paired (each deal played in both seat orders)"
	}
	return fmt.Sprintf("Seed %d · %s per matchup and deal size · %s · format %s · rules: %s",
		r.Seed, count(r.Games, "game"), paired, inlineOr(r.Format), rulesLine(r.Rules))
}

// tables lists the tables of a report in order: the players, the faults of the player
// processes (when some player forfeits at a fault, or a fault is counted), the matchups of each deal size
// (ascending), the luck adjustment (when any matchup has a luck-adjusted estimate), the
// pairings, the comparisons and the ratings.
func tables(r *Run) []table {
	players := table{Title: "Players", Head: []string{"name", "policy", "memory", "table"}}
	for _, p := range r.Players {
		policy := p.Policy
		if p.Opponent != "" {
			policy += " (opponent: " + p.Opponent + ")"
		}
		if x := p.Process; x != nil {
			policy = fmt.Sprintf("process: %s %s (%s view), command %s", x.Name, x.Version, x.View, strings.Join(x.Command, " "))
		}
		players.Rows = append(players.Rows, []string{p.Name, policy, p.Memory, p.Table})
	}
	out := []table{players}
	if t, ok := faultsTable(r); ok {
		out = append(out, t)
	}
	sizes := make([]int, 0, len(r.Matchups))
	for _, m := range r.Matchups {
		sizes = append(sizes, m.Pairs)
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	for _, n := range sizes {
		head, rows := sizeTable(r, n)
		out = append(out, table{Title: fmt.Sprintf("%d pairs", n), Head: head, Rows: rows})
	}
	luckSection := false
	for _, m := range r.Matchups {
		luckSection = luckSection || m.LuckAdjusted != nil
	}
	if luckSection {
		out = append(out, luckTable(r, sizes))
	}
	if len(r.Pairings) > 0 {
		pairingLuck := false
		for _, p := range r.Pairings {
			pairingLuck = pairingLuck || p.LuckAdjusted != nil
		}
		t := table{Title: "Pairings", Note: pairingsNote,
			Head:  []string{"pairs", "A", "B", "deals"},
			Right: []bool{true, false, false, true}}
		raw := "advantage of A [95% CI]"
		if pairingLuck {
			t.Note += " " + pairingLuckNote
			if luckSection {
				t.Note += " Luck adjustment is explained under Luck adjustment."
			} else {
				t.Note += " " + luckNote
			}
			t.Head = append(t.Head, "adjusted advantage of A [95% CI]", "adjusted variance reduction")
			t.Right = append(t.Right, false, true)
			raw = "raw advantage of A [95% CI]"
		}
		t.Head = append(t.Head, raw, "variance reduction", "sequential test")
		t.Right = append(t.Right, false, true, false)
		for _, p := range r.Pairings {
			row := []string{fmt.Sprint(p.Pairs), p.Players[0], p.Players[1], fmt.Sprint(p.Deals)}
			if pairingLuck {
				if l := p.LuckAdjusted; l != nil {
					row = append(row, meanCI(l.MeanAdvantage, l.CI95), luckRatio(l.VarianceReduction, p.CI95[0] == p.CI95[1]))
				} else {
					row = append(row, "—", "—")
				}
			}
			row = append(row, meanCI(p.MeanAdvantage, p.CI95), ratio(p.VarianceReduction))
			t.Rows = append(t.Rows, append(row, sprtCell(p.SPRT)))
		}
		out = append(out, t)
	}
	if len(r.Comparisons) > 0 {
		t := table{Title: "Comparisons against the first player", Note: comparisonsNote,
			Head:  []string{"pairs", "opponent", "A", "B", "A − B (pairs per game)", "Welch t", "df", "p"},
			Right: []bool{true, false, false, false, true, true, true, true}}
		for _, c := range r.Comparisons {
			t.Rows = append(t.Rows, comparisonRow(c))
		}
		out = append(out, t)
	}
	for _, rs := range r.Ratings {
		t := table{Title: fmt.Sprintf("Ratings, %d pairs", rs.Pairs), Note: ratingsNote, Head: []string{"player", "Bradley-Terry score [95% CI]"}}
		for _, p := range rs.Players {
			t.Rows = append(t.Rows, []string{p.Name, meanCI(p.Score, [2]float64{p.Lo, p.Hi})})
		}
		out = append(out, t)
	}
	return out
}

// faultsTable returns the table of the faults of the player processes, and whether the report
// has one: when some player forfeits at a fault (on_error: forfeit) or some fault is counted.
// One row per such player, in the order of r.Players, with the games it played, its crashes,
// timeouts and illegal moves, and the games it forfeited, over every matchup and deal size.
func faultsTable(r *Run) (table, bool) {
	sums := map[string]*[5]int64{} // games, crashes, timeouts, illegal, forfeits
	show := false
	for _, p := range r.Players {
		if p.OnError == OnErrorForfeit {
			sums[p.Name] = new([5]int64)
			show = true
		}
	}
	for _, m := range r.Matchups {
		for s, name := range m.Players {
			x := sums[name]
			if x == nil && s < len(m.Faults) && m.Faults[s].Forfeits > 0 {
				x = new([5]int64)
				sums[name] = x
			}
			if x == nil {
				continue
			}
			x[0] += m.Games
			if s < len(m.Faults) {
				f := m.Faults[s]
				x[1], x[2], x[3], x[4] = x[1]+f.Crashes, x[2]+f.Timeouts, x[3]+f.Illegal, x[4]+f.Forfeits
				show = show || f.Forfeits > 0
			}
		}
	}
	if !show {
		return table{}, false
	}
	t := table{Title: "Faults", Note: faultsNote,
		Head:  []string{"player", "games", "crashes", "timeouts", "illegal moves", "games forfeited"},
		Right: []bool{false, true, true, true, true, true}}
	for _, p := range r.Players {
		if x := sums[p.Name]; x != nil {
			t.Rows = append(t.Rows, []string{p.Name, fmt.Sprint(x[0]), fmt.Sprint(x[1]), fmt.Sprint(x[2]), fmt.Sprint(x[3]), fmt.Sprint(x[4])})
		}
	}
	return t, true
}

// faultsNote explains the faults table.
const faultsNote = "A player process with on_error: forfeit loses a game at a fault of its instead of stopping the run: " +
	"a crash (it exited or closed its output), a timeout (no reply within its time per move, or it did not read its input) " +
	"or an illegal move (a reply that does not fit the game or breaks the protocol). " +
	"The game ends there: the player keeps the pairs it took, the other seats share those left on the table, " +
	"and the game counts in every table as it ended. A new process plays the next game."

// sizeTable returns the header and the rows, as plain text, of the table of the matchups with n
// pairs: per seat, the luck-adjusted mean (when any of them has one), the raw mean and the exact
// value; seat 0's wins, draws and losses; the game length; and the verdict.
func sizeTable(r *Run, n int) (head []string, rows [][]string) {
	var ms []*Matchup
	seats, turnsExact, luck := 0, false, false
	for i := range r.Matchups {
		if m := &r.Matchups[i]; m.Pairs == n {
			ms = append(ms, m)
			seats = max(seats, len(m.Players))
			turnsExact = turnsExact || m.ExactTurns != nil
			luck = luck || m.LuckAdjusted != nil
		}
	}
	head = []string{"matchup (seat order)"}
	for s := range seats {
		if luck {
			head = append(head, fmt.Sprintf("seat %d adjusted mean [95%% CI]", s))
		}
		head = append(head, fmt.Sprintf("seat %d raw mean [95%% CI]", s), fmt.Sprintf("seat %d exact", s))
	}
	head = append(head, "seat 0 W / D / L", "mean turns [95% CI]")
	if turnsExact {
		head = append(head, "exact turns")
	}
	head = append(head, "check")

	for _, m := range ms {
		row := []string{matchupName(m.Players)}
		for s := range seats {
			switch {
			case s >= len(m.Players):
				row = append(row, "", "")
				if luck {
					row = append(row, "")
				}
				continue
			case !luck:
			case m.LuckAdjusted == nil:
				row = append(row, "—")
			default:
				row = append(row, meanCI(m.LuckAdjusted.MeanPairs[s], m.LuckAdjusted.CI95[s]))
			}
			row = append(row, meanCI(m.MeanPairs[s], m.CI95[s]), exactCell(m.ExactPairs[s]))
		}
		row = append(row, fmt.Sprintf("%s / %s / %s",
			percent(m.Wins[0], m.Games), percent(m.Draws[0], m.Games), percent(m.Losses[0], m.Games)),
			meanCI(m.MeanTurns, m.CI95Turns))
		if turnsExact {
			row = append(row, exactCell(m.ExactTurns))
		}
		check := m.Verdict.Flag()
		if m.StoppedEarly != "" {
			check = strings.TrimPrefix(check+"; stopped early: "+m.StoppedEarly, "; ")
		}
		rows = append(rows, append(row, check))
	}
	return head, rows
}

// luckTable returns the table of the luck adjustment of every matchup, by deal size (sizes,
// ascending) and then in the order of r.Matchups: seat 0's adjusted lead over seat 1 with its
// interval (when any matchup has two players), seat 0's variance reduction, the coefficient of
// each seat and the reference (a footnote number, when the matchups used more than one). A
// matchup without an estimate shows "—". The adjusted means are in the tables of the deal sizes.
// The note explains luck adjustment and names each distinct reference once.
func luckTable(r *Run, sizes []int) table {
	var refs []string
	lead := false
	for _, m := range r.Matchups {
		if la := m.LuckAdjusted; la != nil {
			lead = lead || la.MeanLead != nil
			if ref := inlineOr(la.Reference); !slices.Contains(refs, ref) {
				refs = append(refs, ref)
			}
		}
	}
	t := table{Title: "Luck adjustment",
		Head:  []string{"pairs", "matchup (seat order)"},
		Right: []bool{true, false}}
	if lead {
		t.Head = append(t.Head, "seat 0 adjusted lead [95% CI]")
		t.Right = append(t.Right, false)
	}
	t.Head = append(t.Head, "variance reduction", "coefficient (by seat)")
	t.Right = append(t.Right, true, false)
	if len(refs) > 1 {
		t.Head = append(t.Head, "reference")
		t.Right = append(t.Right, false)
	}

	t.Note = luckNote
	if lead {
		t.Note += " The lead is seat 0's pairs minus seat 1's."
	}
	t.Note += " " + luckNoneNote
	if len(refs) == 1 {
		t.Note += " Reference value function: " + refs[0] + "."
	} else {
		named := make([]string, len(refs))
		for i, ref := range refs {
			named[i] = fmt.Sprintf("(%d) %s", i+1, ref)
		}
		t.Note += " Reference value functions: " + strings.Join(named, "; ") + "."
	}

	for _, n := range sizes {
		for i := range r.Matchups {
			m := &r.Matchups[i]
			if m.Pairs != n {
				continue
			}
			row := []string{fmt.Sprint(n), matchupName(m.Players)}
			la := m.LuckAdjusted
			if la == nil {
				for range len(t.Head) - len(row) {
					row = append(row, "—")
				}
				t.Rows = append(t.Rows, row)
				continue
			}
			if lead {
				row = append(row, leadCell(la))
			}
			coef := make([]string, len(la.Coefficient))
			for s, c := range la.Coefficient {
				coef[s] = fmt.Sprintf("%.3f", c)
			}
			row = append(row, luckRatio(la.VarianceReduction, m.StdDev[0] == 0), strings.Join(coef, " / "))
			if len(refs) > 1 {
				row = append(row, fmt.Sprintf("(%d)", slices.Index(refs, inlineOr(la.Reference))+1))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// leadCell formats seat 0's adjusted lead with its interval, or "—" without one.
func leadCell(la *LuckAdjusted) string {
	switch {
	case la.MeanLead == nil:
		return "—"
	case la.CI95Lead == nil:
		return fmt.Sprintf("%.4f", *la.MeanLead)
	}
	return meanCI(*la.MeanLead, *la.CI95Lead)
}

// luckRatio formats the variance reduction of a luck-adjusted estimate. Null means the adjusted
// estimate has no variance left: "∞ (no variance left)", or, where the raw estimate had none
// either (rawZero), "— (no variance at all)".
func luckRatio(x *float64, rawZero bool) string {
	switch {
	case x != nil:
		return fmt.Sprintf("%.2f×", *x)
	case rawZero:
		return "— (no variance at all)"
	}
	return "∞ (no variance left)"
}

// luckNote explains luck adjustment, for the table of luck-adjusted estimates.
const luckNote = "Luck adjustment: every card nobody had seen has a luck, the change its turning brings to " +
	"a seat's expected score under a reference value function minus the change expected before it. " +
	"Luck has mean zero, so subtracting each game's luck (times a coefficient fitted on the games to minimise the variance; " +
	"1 where the reference values are exact for the games) keeps the mean and removes the luck's share of the variance. " +
	"The variance reduction is seat 0's raw variance over its adjusted variance: how many times fewer games the adjusted " +
	"estimate needs for an interval of the same width (∞ where no variance is left: every game gave the same adjusted score); " +
	"with N games the intervals rely on a reduction of at most N/3, whatever the games show, since few games can miss rare events."

// luckNoneNote explains the "—" cells of the table of the luck adjustment and where the adjusted
// means are.
const luckNoneNote = "\"—\" marks a matchup whose games had no luck table (solitaire, or deals too large for one). " +
	"The adjusted means, and the verdicts they give, are in the tables of the deal sizes."

// pairingLuckNote explains the luck-adjusted columns of the pairings table.
const pairingLuckNote = "The adjusted advantage takes the luck of both games of each deal out; " +
	"its variance reduction is the raw advantage's variance over the adjusted one's, and \"—\" marks a pairing whose games had no luck table."

func rulesLine(r Rules) string {
	sizes := make([]string, len(r.Pairs))
	for i, n := range r.Pairs {
		sizes[i] = strconv.Itoa(n)
	}
	line := fmt.Sprintf("pairs %s; %s; %s per game; pass %s",
		inlineOr(strings.Join(sizes, ", ")), count(r.Singletons, "singleton"), count(r.PlayersPerGame, "player"), inlineOr(r.Pass))
	if r.Copies > 0 {
		line += fmt.Sprintf("; %d copies of each face", r.Copies)
	}
	if r.Flips != "" {
		line += "; " + inlineOr(r.Flips) + " flips"
	}
	if r.TurnLimit > 0 {
		line += fmt.Sprintf("; turn limit %d (pairs left then count for nobody)", r.TurnLimit)
	}
	return line
}

// count writes n with its noun, singular for one and plural (an "s" added) otherwise: "1
// singleton", "0 singletons", "3 players".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// meanCI formats "mean [low, high]" with 4 decimals.
func meanCI(mean float64, ci [2]float64) string {
	return fmt.Sprintf("%.4f [%.4f, %.4f]", mean, ci[0], ci[1])
}

// ratingsNote explains the ratings tables.
const ratingsNote = "Bradley-Terry log-strengths fitted from every game's win, draw (half a win) or loss, " +
	"centred to sum to zero: the difference of two scores is the log-odds that one player beats the other."

// pairingsNote explains the pairings table.
const pairingsNote = "Each deal is played twice, once in each seat order. The advantage of A is, per deal, " +
	"A's mean pairs over the two games minus half the pairs, averaged over the deals; positive favours A. " +
	"Under a turn limit, where the pairs left count for nobody, it is half A's mean lead over B in the two games."

// comparisonsNote explains the comparisons table.
const comparisonsNote = "Welch's test of the difference between A's and B's mean pairs per game against the same opponent, " +
	"over the games of both seat orders."

// comparisonRow formats a comparison as table cells.
func comparisonRow(c Comparison) []string {
	return []string{fmt.Sprint(c.Pairs), c.Opponent, c.A, c.B, fmt.Sprintf("%.4f", c.Diff),
		fmt.Sprintf("%.2f", c.T), fmt.Sprintf("%.0f", c.DF), fmt.Sprintf("%.3g", c.P)}
}

// sprtCell describes a pairing's sequential test, or "—" without one.
func sprtCell(s *SPRT) string {
	if s == nil {
		return "—"
	}
	return fmt.Sprintf("%s (d %g pairs per game of lead, α %g, β %g; LLR %.2f, bounds %.2f and %.2f)", s.Decision, s.D, s.Alpha, s.Beta, s.LLR, s.Lower, s.Upper)
}

// ratio formats a variance-reduction ratio; "—" when there is none.
func ratio(x *float64) string {
	if x == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f×", *x)
}

// howTo explains the tables of r's report.md and report.html: the luck-adjusted means and the
// adjusted basis of the verdicts only where some matchup has a luck-adjusted estimate.
func howTo(r *Run) string {
	luck := slices.ContainsFunc(r.Matchups, func(m Matchup) bool { return m.LuckAdjusted != nil })
	var b strings.Builder
	b.WriteString("Scores are pairs collected per game and game lengths are turns per game. " +
		"Each \"mean [low, high]\" is a sample mean with its 95% Student-t confidence interval. ")
	if luck {
		b.WriteString("Where the games had a luck table, each seat's luck-adjusted mean comes first: it estimates the same expectation " +
			"as the raw mean beside it, from the same games, with the luck's share of the variance taken out, so its interval is narrower. ")
	}
	b.WriteString("Exact values come from the solver where an exact model of the matchup exists, and \"—\" marks a seat without one. " +
		"W / D / L are the shares of games that seat 0 (which moves first) won outright, tied for the most pairs, or lost. " +
		"The last column is memsim's verdict on the exact values, the one results.json, matchups.csv and the summary of memsim run give too: ")
	if luck {
		b.WriteString("\"outside adjusted CI\" where a matchup has a luck-adjusted estimate and an exact value (a seat's, or seat 0's lead " +
			"over seat 1) lies outside its adjusted interval by more than 2^-23 pairs (each game's luck is rounded to 2^-24 pairs) " +
			"plus 1e-9 relative (float noise); \"outside raw CI\" where a matchup has none and an exact value lies outside its raw " +
			"interval, and for the game length, which is not luck-adjusted. ")
	} else {
		b.WriteString("\"outside raw CI\" where an exact value lies outside its interval. ")
	}
	b.WriteString("Even with a correct simulator each exact value falls outside its interval about 1 time in 20, " +
		"so an isolated flag is no cause for alarm, but many flags, or a value far outside, are. " +
		"A matchup stopped early by a stopping rule says so in the last column; its interval is then approximate.")
	return b.String()
}

// maxFractionWidth is the longest "p/q" the report prints beside an exact value's decimal;
// longer fractions are left to results.json and matchups.csv.
const maxFractionWidth = 15

// exactCell formats an exact value as "0.6667 (2/3)", or "—" when there is none; a fraction
// longer than maxFractionWidth is shown as its decimal alone, marked "exact".
func exactCell(s *string) string {
	if s == nil {
		return "—"
	}
	x, err := parseExact(*s)
	if err != nil {
		return cell(*s)
	}
	switch {
	case x.IsInt():
		return x.FloatString(4) + " (" + x.Num().String() + ")"
	case len(x.String()) > maxFractionWidth:
		return x.FloatString(4) + " (exact)"
	}
	return x.FloatString(4) + " (" + x.String() + ")"
}

// percent formats k/n as a percentage with one decimal; "—" when n is 0.
func percent(k, n int64) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
}

// cell makes s safe inside a Markdown table cell: pipes are escaped and line breaks become spaces.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return inline(s)
}

// inline puts s on one line.
func inline(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// inlineOr is inline, with "—" for an empty string.
func inlineOr(s string) string {
	if s = inline(s); s == "" {
		return "—"
	}
	return s
}

// The files of a run folder, and RecordsDir the folder of its game records.
const (
	ConfigFile   = "config.yaml"
	ResultsFile  = "results.json"
	MatchupsFile = "matchups.csv"
	ReportFile   = "report.md"
	RecordsDir   = "records"
)

// RecordFile is a file of game records (docs/records.md) in a run folder's records/.
type RecordFile struct {
	// Name is the file's name in records/: letters, digits, '.', '_' and '-', not beginning with
	// '.', at most 255 bytes.
	Name string
	// Title says which games the file holds, for the report's link to it.
	Title string
	// Write writes the file's content; nil when the file is only listed in the report, not
	// written (a report regenerated beside the records of its run).
	Write func(io.Writer) error
}

// recordFileName matches the names of record files: what file systems and a run folder accept.
var recordFileName = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$`)

// validate checks the file's name.
func (f *RecordFile) validate() error {
	if !recordFileName.MatchString(f.Name) {
		return fmt.Errorf("record file name %q: must match [A-Za-z0-9._-]+, not begin with '.' and have at most 255 bytes", f.Name)
	}
	return nil
}

// WriteDir writes the run folder dir: config.yaml (the config bytes as given; nil leaves an
// existing config.yaml alone, for regenerating a report), results.json (WriteJSON), matchups.csv
// (WriteCSV), report.md (WriteMarkdown, with figs and recs), report.html (WriteHTML with figs), a
// PNG per figure in plots/ and, last, each record file of recs that has a Write in records/. All
// but the record files are rendered in memory first, so a rendering error (a Run that does not
// Validate, a malformed figure, a bad record file name) writes nothing, not even the folder; a
// record file, which can be large, is rendered and written one at a time, and an error in its
// Write stops there (write a staging folder, as memsim does, to have all or nothing). The folder
// is created with its parents if needed, and each file is written with WriteFileAtomic, in the
// order above, replacing any file of the same name. Each file is therefore either complete or
// untouched, but a failure part-way (a full disk, say) can leave the folder with some files new
// and the rest old or missing; the error names the file that failed.
func WriteDir(dir string, r *Run, config []byte, figs []Figure, recs ...RecordFile) error {
	type file struct {
		name   string
		render func(io.Writer, *Run) error
		data   []byte
	}
	files := []file{
		{name: ConfigFile, data: config},
		{name: ResultsFile, render: WriteJSON},
		{name: MatchupsFile, render: WriteCSV},
		{name: ReportFile, render: func(w io.Writer, r *Run) error { return WriteMarkdown(w, r, figs, recs...) }},
		{name: HTMLFile, render: func(w io.Writer, r *Run) error { return WriteHTML(w, r, figs) }},
	}
	for i := range files {
		if files[i].render == nil {
			continue
		}
		var buf bytes.Buffer
		if err := files[i].render(&buf, r); err != nil {
			return fmt.Errorf("render %s: %w", files[i].name, err)
		}
		files[i].data = buf.Bytes()
	}
	for _, f := range figs {
		files = append(files, file{name: filepath.Join(PlotsDir, f.Name+".png"), data: f.PNG})
	}
	if err := os.MkdirAll(filepath.Join(dir, PlotsDir), 0o755); err != nil {
		return fmt.Errorf("create run folder %s: %w", dir, err)
	}
	for _, f := range files {
		if f.data == nil && f.name == ConfigFile {
			continue // regenerating a report leaves the configuration as it is
		}
		if err := WriteFileAtomic(filepath.Join(dir, f.name), f.data); err != nil {
			return err
		}
	}
	return writeRecords(dir, recs)
}

// writeRecords writes the record files of recs that have a Write to dir's records/, one at a
// time.
func writeRecords(dir string, recs []RecordFile) error {
	var buf bytes.Buffer
	for _, rf := range recs {
		if rf.Write == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Join(dir, RecordsDir), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Join(dir, RecordsDir), err)
		}
		buf.Reset()
		path := filepath.Join(dir, RecordsDir, rf.Name)
		if err := rf.Write(&buf); err != nil {
			return fmt.Errorf("render %s: %w", path, err)
		}
		if err := WriteFileAtomic(path, buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// WriteFileAtomic writes data to path so that path holds either its old content or all of data,
// never a part: it writes a temporary file in the same directory (os.CreateTemp), syncs it to
// disk, closes it, sets its permissions to 0644 and renames it over path. On any error it removes
// the temporary file and returns an error of the form "write PATH: cause". The directory must
// exist; the directory entry itself is not synced.
func WriteFileAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close() // a second Close after a successful one only reports os.ErrClosed
			os.Remove(tmp.Name())
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
