package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// seatsLimitCase is a table at three or more seats under a turn limit.
type seatsLimitCase struct {
	players, pairsMax, limit int
	mem                      rules.Memory
	pass                     rules.PassRule
}

func (c seatsLimitCase) args(policy string) []string {
	args := []string{"solve", "--table", "--pairs-max", strconv.Itoa(c.pairsMax), "--players", strconv.Itoa(c.players),
		"--turn-limit", strconv.Itoa(c.limit), "--pass", c.pass.String()}
	if c.mem.Capacity > 0 {
		args = append(args, "--memory", strconv.Itoa(c.mem.Capacity), "--forget", c.mem.Forget.String())
	}
	if policy != "" {
		args = append(args, "--policy", policy)
	}
	return args
}

func (c seatsLimitCase) model(turns int) exact.Model {
	return exact.Model{Memory: c.mem, Pass: c.pass, Variant: rules.Variant{TurnLimit: turns}}
}

// engineTable builds the table the engine plays for policy at the case's seats, as a tournament
// player of that policy gets it.
func (c seatsLimitCase) engineTable(t *testing.T, policy string) *rules.ChoiceTable {
	t.Helper()
	spec := strategies.Spec{Name: policy, Policy: policy}
	if c.mem.Capacity > 0 {
		capacity, forget := c.mem.Capacity, c.mem.Forget
		spec.Memory = strategies.MemoryOverride{Capacity: &capacity, Forget: &forget}
	}
	env := strategies.Env{MaxPairs: c.pairsMax, Players: c.players, Pass: c.pass, Variant: rules.Variant{TurnLimit: c.limit}}
	b, err := strategies.Build(context.Background(), spec, env)
	if err != nil {
		t.Fatalf("%s: %v", policy, err)
	}
	return b.Player.Table
}

func seatsLimitCases() []seatsLimitCase {
	out := []seatsLimitCase{
		{players: 3, pairsMax: 2, limit: 3, mem: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}, pass: rules.PassAlways},
	}
	if !testing.Short() {
		out = append(out,
			seatsLimitCase{players: 3, pairsMax: 3, limit: 4, pass: rules.PassNever},
			seatsLimitCase{players: 4, pairsMax: 2, limit: 3, pass: rules.PassTwoKnown},
			seatsLimitCase{players: 3, pairsMax: 3, limit: 4, mem: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}, pass: rules.PassNever})
	}
	return out
}

// limitRows returns the rows of a table's text under a turn limit by turns left, a range of
// blocks t=A..B giving its rows to every t from A to B, and fails unless every t from 1 to limit
// has them.
func limitRows(t *testing.T, out string, limit int) map[int][]string {
	t.Helper()
	rows := map[int][]string{}
	var cur []int
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		if r, ok := strings.CutPrefix(line, "t="); ok {
			a, b, isRange := strings.Cut(r, "..")
			from, err := strconv.Atoi(a)
			to := from
			if isRange {
				to, err = strconv.Atoi(b)
			}
			if err != nil || from < 1 || to < from {
				t.Fatalf("block %q", line)
			}
			cur = cur[:0]
			for x := from; x <= to; x++ {
				if _, dup := rows[x]; dup {
					t.Fatalf("block %q: t=%d twice", line, x)
				}
				rows[x] = []string{}
				cur = append(cur, x)
			}
			continue
		}
		if len(cur) == 0 {
			t.Fatalf("row %q before any block", line)
		}
		for _, x := range cur {
			rows[x] = append(rows[x], line)
		}
	}
	for x := 1; x <= limit; x++ {
		if len(rows[x]) == 0 {
			t.Fatalf("no rows with %d turns left in\n%s", x, out)
		}
	}
	if len(rows) != limit {
		t.Fatalf("blocks for %d numbers of turns left, want %d", len(rows), limit)
	}
	return rows
}

// allStandings returns every standings of p seats with n pairs left, written as in the table:
// deficits 0 .. n+1 with at least one 0.
func allStandings(p, n int) []string {
	var out []string
	d := make([]int, p)
	var rec func(s int)
	rec = func(s int) {
		if s == p {
			zero := false
			for _, v := range d {
				zero = zero || v == 0
			}
			if zero {
				out = append(out, deficitsText(d))
			}
			return
		}
		for v := 0; v <= n+1; v++ {
			d[s] = v
			rec(s + 1)
		}
	}
	rec(0)
	return out
}

// pairsOf returns seat pairs so far that give the standings written s with n pairs left.
func pairsOf(t *testing.T, s string, n int) []int {
	t.Helper()
	var pairs []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("standings %q", s)
		}
		pairs = append(pairs, n+1-v)
	}
	return pairs
}

// --table --players P --policy win-optimal --turn-limit T prints, for every number of turns left,
// count state and pass streak, the choice the engine's optimum of every seat for itself makes
// there and every standings at which the engine's win-optimal table chooses otherwise: every
// standings' letter read back from the text is the engine's (StandingsTurnsLeft), the standings
// are all there, and where the solver values the turn (after no pass) its choice is the letter.
func TestSolveSeatsWinLimitTableIsTheEngines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range seatsLimitCases() {
		args := c.args("win-optimal")
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		win, pairsTab := c.engineTable(t, "win-optimal"), c.engineTable(t, "optimal")
		streaks := 1
		if c.pass != rules.PassNever {
			streaks = c.players
		}
		for turns, rows := range limitRows(t, out, c.limit) {
			std := win.StandingsTurnsLeft(turns)
			seen := map[string]bool{}
			for _, row := range rows {
				head, rest, ok := strings.Cut(row, ": ")
				f := strings.Fields(head)
				if !ok || len(f) != 2+min(streaks-1, 1) {
					t.Fatalf("%q t=%d: row %q", args, turns, row)
				}
				n, _ := strconv.Atoi(f[0])
				j, _ := strconv.Atoi(f[1])
				k := 0
				if streaks > 1 {
					k, _ = strconv.Atoi(f[2])
				}
				st := rules.State{N: n, J: j}
				seen[fmt.Sprint(n, j, k)] = true
				parts := strings.Split(rest, "; ")
				ref := parts[0][0]
				if want, ok := pairsTab.LookupTurnsLeftPasses(st, k, turns); !ok || ref != choiceLetters[want] {
					t.Errorf("%q t=%d %v streak %d: the optimum in pairs printed %c, the engine's %s", args, turns, st, k, ref, want)
				}
				all := allStandings(c.players, n)
				if want := fmt.Sprintf("%c (%d standings)", ref, len(all)); parts[0] != want {
					t.Errorf("%q t=%d %v streak %d: %q, want %q", args, turns, st, k, parts[0], want)
				}
				printed := map[string]byte{}
				for _, s := range all {
					printed[s] = ref
				}
				for _, p := range parts[1:] {
					var letter byte
					var count int
					var list string
					if _, err := fmt.Sscanf(p[:strings.Index(p, ":")], "%c at %d", &letter, &count); err != nil {
						t.Fatalf("%q t=%d: part %q of row %q", args, turns, p, row)
					}
					list = p[strings.Index(p, ":")+2:]
					if ds := strings.Fields(list); len(ds) != count {
						t.Errorf("%q t=%d: %q names %d standings", args, turns, p, len(ds))
					}
					for _, s := range strings.Fields(list) {
						if _, ok := printed[s]; !ok {
							t.Fatalf("%q t=%d %v: %q is not a standings", args, turns, st, s)
						}
						printed[s] = letter
					}
				}
				for _, s := range all {
					pairs := pairsOf(t, s, n)
					want, ok := std.LookupPasses(st, pairs, k)
					if !ok || printed[s] != choiceLetters[want] {
						t.Errorf("%q t=%d %v streak %d standings %s: printed %c, the engine's %s", args, turns, st, k, s, printed[s], want)
					}
					// The solver values the turn after no pass, one standings a sweep, with the most
					// turns left: in deals of at most 2 pairs every standings where win-optimal
					// leaves the optimum in pairs and the level one, and every standings of the
					// largest deal of at most 2 pairs, at four seats (five times the standings of
					// three) from its state with a card known only (the short form: the
					// standings where win-optimal leaves the optimum in deals of at most 2 pairs).
					last := turns == c.limit && n == c.pairsMax && (c.players == 3 || j < n)
					switch {
					case k != 0:
						continue
					case turns != c.limit, n > 2 && !last, testing.Short() && (n > 2 || printed[s] == ref):
						continue
					case printed[s] == ref && s != all[0] && (!last || n > 2):
						continue
					}
					res, err := exact.EvaluateSelfWin(ctx, field.Rat{}, c.model(turns), c.players, st, pairs)
					if err != nil {
						t.Fatalf("%v t=%d standings %v: %v", st, turns, pairs, err)
					}
					if printed[s] != choiceLetters[res.Choice] {
						t.Errorf("%q t=%d %v standings %s: printed %c, the solver's choice %s", args, turns, st, s, printed[s], res.Choice)
					}
				}
			}
			for n := 1; n <= c.pairsMax; n++ {
				for j := 1; j <= n; j++ {
					if (rules.State{N: n, J: j}).Validate(c.mem) != nil {
						continue
					}
					for k := range streaks {
						if !seen[fmt.Sprint(n, j, k)] {
							t.Errorf("%q t=%d: no row of n=%d j=%d streak %d", args, turns, n, j, k)
						}
					}
				}
			}
		}
	}
}

// --table --players P --turn-limit T (optimal) prints, for every number of turns left, the choice
// of the optimum of every seat for itself at every count state and pass streak, the engine's
// (LookupTurnsLeftPasses), which after no pass is the choice exact.ChoiceValues names with that
// many turns left.
func TestSolveSeatsLimitTableIsTheEngines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range seatsLimitCases() {
		args := c.args("")
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		tab := c.engineTable(t, "optimal")
		streaks := 1
		if c.pass != rules.PassNever {
			streaks = c.players
		}
		mu := exact.Lineup{Players: c.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		for turns, rows := range limitRows(t, out, c.limit) {
			if len(rows) != c.pairsMax {
				t.Fatalf("%q t=%d: %d rows, want one per n", args, turns, len(rows))
			}
			for i, row := range rows {
				n := i + 1
				head, cells, _ := strings.Cut(row, ":")
				if head != strconv.Itoa(n) {
					t.Fatalf("%q t=%d: row %q, want n=%d", args, turns, row, n)
				}
				var js []int
				for j := 1; j <= n; j++ {
					if (rules.State{N: n, J: j}).Validate(c.mem) == nil {
						js = append(js, j)
					}
				}
				fields := strings.Fields(cells)
				if len(fields) != len(js) {
					t.Fatalf("%q t=%d: row %q, want a cell per j in %v", args, turns, row, js)
				}
				for x, cell := range fields {
					st := rules.State{N: n, J: js[x]}
					if len(cell) != streaks {
						t.Fatalf("%q t=%d %v: %q, want %d letters", args, turns, st, cell, streaks)
					}
					for k := range streaks {
						want, ok := tab.LookupTurnsLeftPasses(st, k, turns)
						if !ok || cell[k] != choiceLetters[want] {
							t.Errorf("%q t=%d %v streak %d: printed %c, the engine's %s", args, turns, st, k, cell[k], want)
						}
					}
					cs, err := exact.ChoiceValues(ctx, field.Rat{}, c.model(turns), mu, st)
					if err != nil {
						t.Fatalf("%v t=%d: %v", st, turns, err)
					}
					if cell[0] != choiceLetters[cs.PolicyChoice] {
						t.Errorf("%q t=%d %v: printed %c, the solver's choice %s", args, turns, st, cell[0], cs.PolicyChoice)
					}
				}
			}
		}
	}
}

// A table at three or more seats under a turn limit is text only, and of a model the solver has
// under a limit; anything else is a one-line error.
func TestSolveSeatsLimitTableBadInput(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--table", "--pairs-max", "3", "--players", "3", "--turn-limit", "4"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--json"}, "memsim solve: --json with --table --players 3 --turn-limit 4: the table of every seat for itself under a turn limit is printed as text, a block per turns left (leave out --json)"},
		{[]string{"--policy", "win-optimal", "--json"}, "memsim solve: --json with --table --players 3 --turn-limit 4: the table of every seat for itself under a turn limit is printed as text, a block per turns left (leave out --json)"},
		{[]string{"--policy", "safe"}, "memsim solve: --policy safe with --table --players 3: the table is of optimal or win-optimal (every seat for itself), or of best-response with --opponent"},
		{[]string{"--policy", "win-optimal", "--memory", "3", "--forget", "lru", "--fluctuation", "1"}, "memsim solve: --turn-limit 4 with --fluctuation 1 and a seat that plays to win at three or more seats: solved for the standard game only (leave out --turn-limit)"},
	} {
		wantUsageError(t, append(append([]string(nil), base...), tt.args...), tt.want)
	}
}
