package main

import (
	"context"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// choicesByJSON is the part of solve's JSON that holds every seat's expected pairs and each
// choice's.
type choicesByJSON struct {
	seatsByJSON
	ChoiceValues struct {
		Values []struct {
			Choice string `json:"choice"`
			seatsByJSON
		} `json:"values"`
		PolicyChoice string `json:"policy_choice"`
	} `json:"choice_values"`
}

// At three seats under a fluctuating capacity (lru(3) ± 1, drawing 2, 3 and 4 with probability
// 1/3 each) --capacity C gives every seat's values after the draw, which weighted by the draw are
// solve's values before it; --first X gives the value of X in the list of choices.
func TestSolveFluctuationSeatsCapacityWeightsToTheDraw(t *testing.T) {
	t.Parallel()
	pairs := "4"
	if testing.Short() {
		pairs = "3" // both lineups at 3 pairs
	}
	for _, extra := range [][]string{
		{"--players", "3"},
		{"--seats", "optimal,safe,daring", "--pass", "always"},
	} {
		base := append([]string{"--pairs", pairs, "--unknown", "2", "--memory", "3", "--forget", "lru", "--fluctuation", "1"}, extra...)
		var before seatsByJSON
		seatsDecode(t, &before, base...)
		sum := make([]*big.Rat, 3)
		for i := range sum {
			sum[i] = new(big.Rat)
		}
		for c := 2; c <= 4; c++ {
			args := append(append([]string(nil), base...), "--capacity", strconv.Itoa(c))
			var after choicesByJSON
			seatsDecode(t, &after, args...)
			if len(after.BySeat) != 3 || len(after.ChoiceValues.Values) == 0 {
				t.Fatalf("%q: no values of every seat, or no choices", args)
			}
			for i, v := range after.BySeat {
				sum[i].Add(sum[i], new(big.Rat).Mul(ratOf(t, v.Exact), big.NewRat(1, 3)))
			}
			for _, v := range after.ChoiceValues.Values {
				if c != 3 {
					break // --first at one capacity
				}
				var first seatsByJSON
				seatsDecode(t, &first, append(append([]string(nil), args...), "--first", v.Choice)...)
				for i := range v.BySeat {
					if first.BySeat[i] != v.BySeat[i] {
						t.Errorf("%q --first %s: seat %d %s, the list of choices %s", args, v.Choice, i, first.BySeat[i].Exact, v.BySeat[i].Exact)
					}
				}
			}
		}
		for i, v := range before.BySeat {
			if ratOf(t, v.Exact).Cmp(sum[i]) != 0 {
				t.Errorf("%q: seat %d: %s before the draw, %s weighted after it", base, i, v.Exact, sum[i].RatString())
			}
		}
	}
}

// --table at three or more seats under a fluctuating capacity prints, per capacity, n and j (and
// pass streak), the choice the engine reads from the solver's table, which is the choice
// FluctSeatsChoiceValues names for every seat for itself after that draw.
func TestSolveFluctuationSeatsTableIsTheEngines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		players int
		mem     rules.Memory
		pass    rules.PassRule
	}{
		{3, rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}, rules.PassNever},
		{3, rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}, rules.PassAlways},
	} {
		pairsMax := 3
		if !testing.Short() {
			pairsMax = 5
		}
		args := []string{"solve", "--table", "--pairs-max", strconv.Itoa(pairsMax), "--players", strconv.Itoa(tc.players),
			"--memory", strconv.Itoa(tc.mem.Capacity), "--forget", tc.mem.Forget.String(), "--fluctuation", strconv.Itoa(tc.mem.Fluctuation), "--pass", tc.pass.String()}
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		m := exact.Model{Memory: tc.mem, Pass: tc.pass}
		tab, err := exact.FluctSelfishTable(ctx, field.Rat{}, m, tc.players, pairsMax)
		if err != nil {
			t.Fatal(err)
		}
		streaks := 1
		if tc.pass != rules.PassNever {
			streaks = tc.players
		}
		blocks := 0
		c := 0
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if strings.HasPrefix(line, "#") {
				continue
			}
			if after, ok := strings.CutPrefix(line, "c="); ok {
				if c, err = strconv.Atoi(after); err != nil {
					t.Fatalf("%q: block %q", args, line)
				}
				blocks++
				continue
			}
			head, cells, ok := strings.Cut(line, ":")
			n, err := strconv.Atoi(head)
			if !ok || err != nil {
				t.Fatalf("%q: row %q", args, line)
			}
			fields := strings.Fields(cells)
			k := min(n, c)
			if tc.mem.Forget != rules.ForgetLRU {
				k = min(n, tc.mem.Capacity+tc.mem.Fluctuation)
			}
			if len(fields) != min(n, k+1) {
				t.Errorf("%q c=%d n=%d: %d cells, want one per j from %d to %d", args, c, n, len(fields), max(1, n-k), n)
				continue
			}
			for i, cell := range fields {
				st := rules.State{N: n, J: max(1, n-k) + i}
				if len(cell) != streaks {
					t.Fatalf("%q c=%d %v: %q, want %d letters", args, c, st, cell, streaks)
				}
				for l := range streaks {
					want, ok := tab.LookupCapacityPasses(st, l, c)
					if !ok || cell[l] != choiceLetters[want] {
						t.Errorf("%q c=%d %v streak %d: printed %c, the engine's table %s", args, c, st, l, cell[l], want)
					}
					cs, err := exact.FluctSeatsChoiceValues(ctx, field.Rat{}, m, exact.Lineup{Players: tc.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, st, c, l)
					if err != nil {
						t.Fatalf("%v c=%d streak %d: %v", st, c, l, err)
					}
					if cell[l] != choiceLetters[cs.PolicyChoice] {
						t.Errorf("%q c=%d %v streak %d: printed %c, the choices' values name %s", args, c, st, l, cell[l], cs.PolicyChoice)
					}
				}
			}
		}
		if want := min(tc.mem.Capacity+tc.mem.Fluctuation, pairsMax+1) - max(2, tc.mem.Capacity-tc.mem.Fluctuation) + 1; blocks != want {
			t.Errorf("%q: %d blocks, want %d", args, blocks, want)
		}
	}
}

// A fluctuating capacity at three or more seats refuses, with one line, the score distribution
// of the policies that play to win and with --table, and the turn just after a pass, and gives the choices with --capacity and the table.
func TestSolveFluctuationSeatsCapacityBadInput(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--pairs", "4", "--unknown", "2", "--memory", "3", "--forget", "lru", "--fluctuation", "1", "--players", "3"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--distribution", "--table"}, "--fluctuation 1 with --distribution and three or more seats: every seat's score distribution is computed for optimal, safe, daring, parity and best-response, without --table"},
		{[]string{"--distribution", "--policy", "win-optimal"}, "every seat's score distribution is computed for optimal, safe, daring, parity and best-response"},
		{[]string{"--pass", "always", "--capacity", "3", "--after-pass"}, "--after-pass with three or more seats: the turn after a pass depends on how many seats passed in a row"},
		{[]string{"--capacity", "5"}, "--capacity 5: --memory 3 --fluctuation 1 draws 2 to 4"},
		{[]string{"--capacity", "3", "--first", "pass"}, "--first pass: not legal in (n=4, j=2) with pass never"},
	} {
		_, stderr, code := runArgs(t, append(append([]string(nil), base...), tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("solve %q: exit %d, %q; want exit 2 and one line with %q", tt.args, code, stderr, tt.want)
		}
	}
	out, stderr, code := runArgs(t, append(append([]string(nil), base...), "--capacity", "2", "--pass", "two-known")...)
	if want := "capacity 2 drawn for seat 0's turn, after no pass (pass streak 0)"; code != exitOK || !strings.Contains(out, want) {
		t.Errorf("--capacity 2 --pass two-known: exit %d, %s; want %q in\n%s", code, stderr, want, out)
	}
}

// best-response at one of three seats under a fluctuating capacity gives its seat at least what
// safe, daring and optimal give it against the same other seats, and its choice after the draw is
// a best one of the listed choices.
func TestSolveFluctuationSeatsReplyIsAtLeastAnyPolicy(t *testing.T) {
	t.Parallel()
	pairs := "4"
	if testing.Short() {
		pairs = "3" // every policy at 3 pairs, all of them unknown
	}
	base := []string{"--pairs", pairs, "--unknown", "3", "--memory", "3", "--forget", "handover-uniform", "--fluctuation", "1", "--pass", "always"}
	var reply choicesByJSON
	seatsDecode(t, &reply, append(append([]string(nil), base...), "--seats", "safe,best-response,daring")...)
	for _, alt := range []string{"safe", "daring", "optimal"} {
		var other seatsByJSON
		seatsDecode(t, &other, append(append([]string(nil), base...), "--seats", "safe,"+alt+",daring")...)
		if ratOf(t, other.BySeat[1].Exact).Cmp(ratOf(t, reply.BySeat[1].Exact)) > 0 {
			t.Errorf("seat 1 %s: %s pairs, best-response %s", alt, other.BySeat[1].Exact, reply.BySeat[1].Exact)
		}
	}
	var drawn choicesByJSON
	seatsDecode(t, &drawn, append(append([]string(nil), base...), "--players", "3", "--policy", "best-response", "--opponent", "optimal", "--capacity", "2")...)
	best := ratOf(t, drawn.ChoiceValues.Values[0].BySeat[0].Exact)
	for _, v := range drawn.ChoiceValues.Values {
		if x := ratOf(t, v.BySeat[0].Exact); x.Cmp(best) > 0 {
			best = x
		}
	}
	for _, v := range drawn.ChoiceValues.Values {
		if v.Choice == drawn.ChoiceValues.PolicyChoice && ratOf(t, v.BySeat[0].Exact).Cmp(best) != 0 {
			t.Errorf("--capacity 2: best-response plays %s, worth %s, the best %s", v.Choice, v.BySeat[0].Exact, best.RatString())
		}
	}
}
