package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact/answer"
)

// seatsDecode runs memsim solve with args and --json and decodes its output into v.
func seatsDecode(t *testing.T, v any, args ...string) string {
	t.Helper()
	out, stderr, code := runArgs(t, append(append([]string{"solve"}, args...), "--json")...)
	if code != exitOK {
		t.Fatalf("solve %q: exit %d: %s", args, code, stderr)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("solve %q: %v in %s", args, err, out)
	}
	return out
}

// seatsTableRows returns the rows of a table's text, without its comment lines.
func seatsTableRows(out string) []string {
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "#") {
			rows = append(rows, line)
		}
	}
	return rows
}

// seatsExacts returns the exact fractions of ns.
func seatsExacts(ns []answer.Number) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Exact
	}
	return out
}

// Every row of the table at three or more seats, at streak 0 under a pass rule, agrees with the
// per-state solve of its state: every seat's expected pairs, the optimum's choice, the best
// choices and each legal choice's value to the mover.
func TestSolveTableSeatsAgreesWithSolve(t *testing.T) {
	t.Parallel()
	// The states n = 1..3, j = 0..n: 9, and 8 with a memory of 2 cards (not n = 3, j = 0).
	tests := []struct {
		model  []string
		states int
	}{
		{[]string{"--players", "3"}, 9},
		{[]string{"--players", "4", "--pass", "always"}, 9},
		{[]string{"--players", "3", "--pass", "two-known", "--choices", "daring,safe,pass"}, 9},
		{[]string{"--players", "3", "--memory", "2", "--forget", "lru"}, 8},
		{[]string{"--players", "3", "--memory", "2", "--forget", "handover-uniform"}, 8},
		{[]string{"--players", "3", "--singletons", "1", "--unseen-singletons", "0"}, 9},
		{[]string{"--players", "5", "--flips", "blind"}, 9},
	}
	for _, tt := range tests {
		model := tt.model
		var tab answer.SeatsTable
		seatsDecode(t, &tab, append([]string{"--table", "--pairs-max", "3"}, model...)...)
		seen := 0
		for _, c := range tab.Cells {
			if c.Passes != nil && *c.Passes != 0 {
				continue
			}
			seen++
			args := append([]string{"--pairs", strconv.Itoa(c.Pairs), "--unknown", strconv.Itoa(c.Unknown)}, model...)
			var res answer.Result
			seatsDecode(t, &res, args...)
			cv := res.ChoiceValues
			if got, want := seatsExacts(c.ExpectedBySeat), seatsExacts(res.ExpectedBySeat); !slices.Equal(got, want) {
				t.Errorf("%q: table %v, solve %v", args, got, want)
			}
			if c.Choice != cv.PolicyChoice || !slices.Equal(c.Best, cv.Best) {
				t.Errorf("%q: table chooses %s of best %v, solve %s of %v", args, c.Choice, c.Best, cv.PolicyChoice, cv.Best)
			}
			var got, want []string
			for _, v := range c.ChoiceValues {
				got = append(got, v.Choice+" "+v.Value.Exact)
			}
			for _, v := range cv.Values {
				want = append(want, v.Choice+" "+v.ExpectedPairs.Exact)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%q: table's choices %v, solve's %v", args, got, want)
			}
		}
		if seen != tt.states {
			t.Errorf("%q: %d states, want %d", model, seen, tt.states)
		}
	}
}

// The text of the table at three or more seats gives, per state with j >= 1, the choices of the
// JSON at every pass streak and every seat's expected pairs at streak 0, to 6 decimals.
func TestSolveTableSeatsText(t *testing.T) {
	t.Parallel()
	for _, model := range [][]string{{"--players", "3"}, {"--players", "3", "--pass", "always"}} {
		args := append([]string{"--table", "--pairs-max", "4"}, model...)
		var tab answer.SeatsTable
		seatsDecode(t, &tab, args...)
		letter := map[string]string{"daring": "D", "safe": "S", "known-first": "K", "pass": "P"}
		var want []string
		var vals string
		for _, c := range tab.Cells {
			if c.Unknown == 0 {
				continue
			}
			if c.Passes == nil || *c.Passes == 0 {
				want = append(want, fmt.Sprintf("%d %d:", c.Pairs, c.Unknown))
				vals = " "
				for _, v := range c.ExpectedBySeat {
					vals += fmt.Sprintf(" %.6f", v.Float)
				}
			}
			tok := letter[c.Choice]
			for _, b := range c.Best {
				if b != c.Choice {
					tok += "=" + letter[b]
				}
			}
			last := len(want) - 1
			want[last] += " " + tok
			if c.Passes == nil || *c.Passes == 2 {
				want[last] += vals
			}
		}
		out, stderr, code := runArgs(t, append([]string{"solve"}, args...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		rows := seatsTableRows(out)
		if len(rows) != len(want) {
			t.Fatalf("%q: %d rows, want %d:\n%s", args, len(rows), len(want), out)
		}
		for i, r := range rows {
			if r != want[i] {
				t.Errorf("%q: row %q, want %q", args, r, want[i])
			}
		}
	}
}

// Every cell of the win-optimal table at three seats up to 2 pairs, and those of 3 pairs at
// standings 0,0,0 or where win-optimal does not play the optimum's choice in pairs, agrees with
// the per-state solve at the standings its deficits stand for (seat s having n+1-d[s] pairs):
// every seat's P(most pairs), win-optimal's choice and the best choices; and the table's pairs
// choice is the per-state optimum's in every cell.
func TestSolveTableSeatsWinAgreesWithSolve(t *testing.T) {
	t.Parallel()
	var tab answer.SeatsWinTable
	seatsDecode(t, &tab, "--table", "--pairs-max", "3", "--players", "3", "--policy", "win-optimal")
	if len(tab.Cells) != 2*19+3*37+4*61 || tab.Model.Policy != "win-optimal" || tab.Model.Players != 3 {
		t.Fatalf("%d cells of %+v", len(tab.Cells), tab.Model)
	}
	pairsChoice := map[string]string{}
	for i, c := range tab.Cells {
		if testing.Short() && c.Pairs == 3 && i%4 != 0 {
			continue // a quarter of the three-pair cells, each solved on its own, in the short form
		}
		state := []string{"--pairs", strconv.Itoa(c.Pairs), "--unknown", strconv.Itoa(c.Unknown), "--players", "3"}
		if _, ok := pairsChoice[state[1]+" "+state[3]]; !ok {
			var res answer.Result
			seatsDecode(t, &res, state...)
			pairsChoice[state[1]+" "+state[3]] = res.ChoiceValues.PolicyChoice
		}
		if want := pairsChoice[state[1]+" "+state[3]]; c.PairsChoice != want {
			t.Errorf("%q: pairs choice %s, solve %s", state, c.PairsChoice, want)
		}
		if c.Pairs == 3 && c.Choice == c.PairsChoice && !slices.Equal(c.Deficits, []int{0, 0, 0}) {
			continue
		}
		standings := make([]string, len(c.Deficits))
		for s, d := range c.Deficits {
			standings[s] = strconv.Itoa(c.Pairs + 1 - d)
		}
		args := append(state, "--policy", "win-optimal", "--standings", strings.Join(standings, ","))
		var res answer.SelfWin
		seatsDecode(t, &res, args...)
		if got, want := seatsExacts(c.ScoreBySeat), seatsExacts(res.ScoreBySeat); !slices.Equal(got, want) {
			t.Errorf("%q: table %v, solve %v", args, got, want)
		}
		if cv := res.ChoiceValues; c.Choice != cv.PolicyChoice || !slices.Equal(c.Best, cv.Best) {
			t.Errorf("%q: table chooses %s of best %v, solve %s of %v", args, c.Choice, c.Best, cv.PolicyChoice, cv.Best)
		}
	}
}

// The JSON of the tables at three or more seats decodes into the answer types and encodes back
// to the same line.
func TestSolveTableSeatsJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		v    any
	}{
		{[]string{"--players", "3", "--pass", "two-known"}, &answer.SeatsTable{}},
		{[]string{"--players", "4", "--singletons", "1", "--float"}, &answer.SeatsTable{}},
		{[]string{"--players", "3", "--policy", "win-optimal"}, &answer.SeatsWinTable{}},
	} {
		out := seatsDecode(t, tt.v, append([]string{"--table", "--pairs-max", "3"}, tt.args...)...)
		var buf bytes.Buffer
		if err := json.NewEncoder(&buf).Encode(tt.v); err != nil {
			t.Fatal(err)
		}
		if buf.String() != out {
			t.Errorf("%q: round trip\n%s\nof\n%s", tt.args, buf.String(), out)
		}
	}
}

// The text of the win-optimal table lists, per state with j >= 1, exactly the standings of the
// JSON whose choice differs from the optimum's in expected pairs.
func TestSolveTableSeatsWinText(t *testing.T) {
	t.Parallel()
	args := []string{"--table", "--pairs-max", "5", "--players", "3", "--policy", "win-optimal"}
	var tab answer.SeatsWinTable
	seatsDecode(t, &tab, args...)
	type key struct{ n, j int }
	count := map[key]int{}
	other := map[key]map[string][]string{}
	var order []key
	for _, c := range tab.Cells {
		k := key{c.Pairs, c.Unknown}
		if k.j == 0 {
			continue
		}
		if count[k] == 0 {
			order = append(order, k)
			other[k] = map[string][]string{}
		}
		count[k]++
		if c.Choice != c.PairsChoice {
			d := make([]string, len(c.Deficits))
			for i, v := range c.Deficits {
				d[i] = strconv.Itoa(v)
			}
			other[k][c.Choice] = append(other[k][c.Choice], strings.Join(d, ","))
		}
	}
	letter := map[string]string{"daring": "D", "safe": "S", "known-first": "K"}
	var want []string
	for _, k := range order {
		var pc string
		for _, c := range tab.Cells {
			if c.Pairs == k.n && c.Unknown == k.j {
				pc = c.PairsChoice
				break
			}
		}
		row := fmt.Sprintf("%d %d: %s (%d standings)", k.n, k.j, letter[pc], count[k])
		for _, ch := range []string{"daring", "safe", "known-first"} {
			if len(other[k][ch]) > 0 {
				row += fmt.Sprintf("; %s at %d: %s", letter[ch], len(other[k][ch]), strings.Join(other[k][ch], " "))
			}
		}
		want = append(want, row)
	}
	out, stderr, code := runArgs(t, append([]string{"solve"}, args...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if rows := seatsTableRows(out); !slices.Equal(rows, want) {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// Bad input to the tables at three or more seats: one line naming the flag, exit 2.
func TestSolveTableSeatsBadInput(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--table", "--pairs-max", "4"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--players", "9"}, "--players 9 with --table: must be 2, or 3 to 8"},
		{[]string{"--players", "3", "--opponent", "safe"}, "--opponent with --table --players 3"},
		{[]string{"--players", "3", "--policy", "safe"}, "--policy safe with --table --players 3: the table is of optimal or win-optimal"},
		{[]string{"--players", "3", "--standings", "0,0,0"}, "--standings does not go with --table"},
		{[]string{"--seats", "optimal,safe,daring"}, "--seats does not go with --table"},
		{[]string{"--players", "3", "--two-player-optimal"}, "--two-player-optimal does not go with --table"},
		{[]string{"--players", "3", "--pairs-max", "60", "--policy", "win-optimal"}, "add --big to solve it anyway"},
		// The JSON's cells are many: writing them is most of the work.
		{[]string{"--players", "3", "--pairs-max", "52", "--policy", "win-optimal", "--float", "--json"}, "win-optimal --float --json: about"},
		{[]string{"--players", "8", "--pairs-max", "400", "--pass", "always"}, "--pass always --players 8: about"},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, append(base, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("solve %q: exit %d, %q; want exit 2 and one line with %q", tt.args, code, stderr, tt.want)
		}
	}
}
