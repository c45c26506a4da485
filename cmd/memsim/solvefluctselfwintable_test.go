package main

import (
	"bufio"
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

// fluctWinTableCase is a table of the seats that play to win under a fluctuating capacity at
// three seats: its model, lineup and the flags that ask for it.
type fluctWinTableCase struct {
	mem      rules.Memory
	pass     rules.PassRule
	pairs    int
	seats    []rules.Policy
	opponent rules.Policy // for win-best-response at seat 0
	flags    []string
	float    bool // --float: the solver's tables in float64
}

// TestSolveFluctSelfWinTablePrintsTheEnginesChoices prints the table of every seat that plays to
// win at three seats under a fluctuating capacity (every seat win-optimal, win-optimal beside safe,
// win-best-response to safe; in the long form also beside optimal and under pass always) and
// checks that every letter printed, at every capacity drawn, count state, pass streak and
// standings, is the choice the engine's player of that seat reads (strategies' table, read by
// capacity and pairs so far) and the solver's (exact.FluctSelfWinLineupTables of the lineup seen
// from the seat), that each row covers every standings once, and that its reference letter is the
// optimum of every seat for itself in expected pairs at that capacity.
func TestSolveFluctSelfWinTablePrintsTheEnginesChoices(t *testing.T) {
	t.Parallel()
	win, reply, safe := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicySafe
	lru := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}
	hu := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}
	cases := []fluctWinTableCase{
		{mem: lru, pairs: 3, seats: []rules.Policy{win, win, win}, flags: []string{"--players", "3", "--policy", "win-optimal"}, float: true},
	}
	if !testing.Short() {
		cases = append(cases,
			fluctWinTableCase{mem: lru, pairs: 3, seats: []rules.Policy{win, safe, win}, flags: []string{"--seats", "win-optimal,safe,win-optimal"}, float: true},
			fluctWinTableCase{mem: lru, pairs: 3, seats: []rules.Policy{reply, safe, safe}, opponent: safe, flags: []string{"--players", "3", "--policy", "win-best-response", "--opponent", "safe"}},
			fluctWinTableCase{mem: hu, pairs: 3, seats: []rules.Policy{win, rules.PolicyOptimal, rules.PolicyOptimal}, flags: []string{"--players", "3", "--policy", "win-optimal", "--opponent", "optimal"}, float: true},
			fluctWinTableCase{mem: hu, pass: rules.PassAlways, pairs: 2, seats: []rules.Policy{win, win, safe}, flags: []string{"--seats", "win-optimal,win-optimal,safe", "--pass", "always", "--big"}, float: true},
		)
	}
	for _, tc := range cases {
		checkFluctSelfWinTableText(t, tc)
	}
}

// checkFluctSelfWinTableText runs the table of case tc and compares it as
// TestSolveFluctSelfWinTablePrintsTheEnginesChoices describes.
func checkFluctSelfWinTableText(t *testing.T, tc fluctWinTableCase) {
	t.Helper()
	ctx := context.Background()
	args := append([]string{"solve", "--table", "--pairs-max", strconv.Itoa(tc.pairs), "--memory", strconv.Itoa(tc.mem.Capacity),
		"--forget", tc.mem.Forget.String(), "--fluctuation", strconv.Itoa(tc.mem.Fluctuation)}, tc.flags...)
	if tc.float {
		args = append(args, "--float")
	}
	stdout, stderr, code := runArgs(t, args...)
	if code != 0 {
		t.Fatalf("%q: exit %d, %s", args, code, stderr)
	}
	model := exact.Model{Memory: tc.mem, Pass: tc.pass}
	mu := exact.SeatLineup(tc.seats...)
	p := len(tc.seats)
	tables := strategies.NewTables()
	engine := map[int]*rules.ChoiceTable{}
	solver := map[int][]*rules.StandingsTable{}
	solverLo := map[int]int{}
	for _, s := range fluctWinSeats(mu) {
		pol := tc.seats[s]
		seen := exact.RotateSeats(mu, s)
		var tab *rules.ChoiceTable
		var err error
		if mu.SelfWinMixed() && pol == rules.PolicyWinOptimal {
			tab, err = tables.SeatWinTable(ctx, model, seen, tc.pairs)
		} else {
			mem := tc.mem
			spec := strategies.Spec{Name: pol.String(), Policy: pol.String(),
				Memory: strategies.MemoryOverride{Forget: &mem.Forget, Capacity: &mem.Capacity, Fluctuation: &mem.Fluctuation}}
			if pol == rules.PolicyWinBestResponse {
				spec.Opponent = tc.opponent.String()
			}
			var b strategies.Built
			b, err = strategies.Build(ctx, spec, strategies.Env{MaxPairs: tc.pairs, Players: p, Pass: tc.pass, Tables: tables})
			tab = b.Player.Table
		}
		if err != nil {
			t.Fatalf("%q: seat %d's engine table: %v", args, s, err)
		}
		engine[s] = tab
		if tc.float {
			solverLo[s], solver[s], err = exact.FluctSelfWinLineupTables(ctx, field.Float{}, model, seen, tc.pairs)
		} else {
			solverLo[s], solver[s], err = exact.FluctSelfWinLineupTables(ctx, field.Rat{}, model, seen, tc.pairs)
		}
		if err != nil {
			t.Fatalf("%q: seat %d's solver table: %v", args, s, err)
		}
	}
	var ref *rules.ChoiceTable
	var err error
	if tc.float {
		ref, err = exact.FluctSelfishTable(ctx, field.Float{}, model, p, tc.pairs)
	} else {
		ref, err = exact.FluctSelfishTable(ctx, field.Rat{}, model, p, tc.pairs)
	}
	if err != nil {
		t.Fatal(err)
	}
	streaks := 1
	if tc.pass != rules.PassNever {
		streaks = p
	}
	seat, c := -1, 0
	checked, rows := 0, 0
	blocks := map[int]int{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if _, err := fmt.Sscanf(line, "seat %d c=%d", &seat, &c); err == nil {
			if engine[seat] == nil {
				t.Fatalf("%q: a block of seat %d, which does not play to win", args, seat)
			}
			blocks[seat]++
			continue
		}
		head, rest, ok := strings.Cut(line, ": ")
		if !ok || seat < 0 {
			t.Fatalf("%q: line %q is no row of a block", args, line)
		}
		var st rules.State
		l := 0
		var n int
		if streaks > 1 {
			n, _ = fmt.Sscanf(head, "%d %d %d", &st.N, &st.J, &l)
		} else {
			n, _ = fmt.Sscanf(head, "%d %d", &st.N, &st.J)
		}
		if n != 2+min(streaks-1, 1) {
			t.Fatalf("%q: row %q", args, line)
		}
		rows++
		parts := strings.Split(rest, "; ")
		letter := func(s string) rules.Choice {
			for ch, b := range choiceLetters {
				if len(s) > 0 && s[0] == b {
					return rules.Choice(ch)
				}
			}
			t.Fatalf("%q: row %q: no choice %q", args, line, s)
			return 0
		}
		base := letter(parts[0])
		if w, ok := ref.LookupCapacityPasses(st, l, c); !ok || w != base {
			t.Errorf("%q: seat %d, c=%d, %v, streak %d: reference %v, the optimum in expected pairs %v (%v)", args, seat, c, st, l, base, w, ok)
		}
		var count int
		if _, err := fmt.Sscanf(parts[0][1:], " (%d standings)", &count); err != nil {
			t.Fatalf("%q: row %q: %v", args, line, err)
		}
		printed := map[string]rules.Choice{}
		for _, part := range parts[1:] {
			ch := letter(part)
			_, list, _ := strings.Cut(part, ": ")
			for _, d := range strings.Fields(list) {
				if _, dup := printed[d]; dup {
					t.Errorf("%q: row %q names standings %s twice", args, line, d)
				}
				printed[d] = ch
			}
		}
		lo, layers := solverLo[seat], solver[seat]
		want := layers[min(max(c-lo, 0), len(layers)-1)]
		got := engine[seat].StandingsAt(0, c)
		seen := 0
		everyStandings(p, st.N, func(d []int) {
			key := deficitsText(d)
			ch, ok := printed[key]
			if !ok {
				ch = base
			} else {
				delete(printed, key)
			}
			pairs := make([]int, p)
			pairsOfStandings(pairs, d)
			e, eok := got.LookupPasses(st, pairs, l)
			s, sok := want.LookupPasses(st, pairs, l)
			if !eok || !sok || e != ch || s != ch {
				t.Errorf("%q: seat %d, c=%d, %v, streak %d, standings %s: printed %v, the engine reads %v (%v), the solver %v (%v)", args, seat, c, st, l, key, ch, e, eok, s, sok)
			}
			seen++
			checked++
		})
		if seen != count || len(printed) > 0 {
			t.Errorf("%q: row %q: %d standings, %d in the state; left over %v", args, line, count, seen, printed)
		}
	}
	for s := range engine {
		if lo, layers := solverLo[s], solver[s]; blocks[s] != len(layers) {
			t.Errorf("%q: %d blocks of seat %d, the solver has capacities %d .. %d", args, blocks[s], s, lo, lo+len(layers)-1)
		}
	}
	if checked == 0 || rows == 0 {
		t.Fatalf("%q: nothing checked", args)
	}
}

// The table of a seat that plays to win under a fluctuating capacity refuses what it does not
// print with one line.
func TestSolveFluctSelfWinTableBadInput(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--table", "--pairs-max", "3", "--memory", "3", "--forget", "lru", "--fluctuation", "1"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--seats", "optimal,safe,safe"}, "memsim solve: --seats does not go with --table (the table is of every state with n <= --pairs-max, every seat playing one policy)"},
		{[]string{"--seats", "win-optimal,safe,safe", "--players", "4"}, `memsim solve: --players 4 with --seats "win-optimal,safe,safe": 3 seats`},
		{[]string{"--seats", "win-optimal,safe,safe", "--json"}, "memsim solve: --fluctuation 1 with --table --json: JSON is written for solitaire's table and the two-seat tables of optimal and best-response without a turn limit; this one is printed as text (leave out --json)"},
		{[]string{"--players", "3", "--policy", "win-optimal", "--turn-limit", "4"}, "memsim solve: --turn-limit 4 with --fluctuation 1 and a seat that plays to win at three or more seats: solved for the standard game only (leave out --turn-limit)"},
		{[]string{"--players", "3", "--policy", "win-best-response"}, "memsim solve: --opponent B is required with --policy win-best-response: the policy it answers (allowed: optimal, safe, daring, parity, win-optimal)"},
		{[]string{"--players", "3", "--policy", "win-optimal", "--capacity", "3"}, "memsim solve: --capacity and --after-pass do not go with --table (the table has a block per capacity, and under a pass rule one just after a pass)"},
	} {
		wantUsageError(t, append(append([]string(nil), base...), tt.args...), tt.want)
	}
}
