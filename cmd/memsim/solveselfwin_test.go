package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"memsim/analysis/exact/answer"
)

// The values of (n=2, j=1) at three seats, seat 0 two pairs ahead, follow by hand: one pair is
// half known, the other unknown. Daring takes both pairs with probability 2/3 (the first card
// finds its partner, or a new card then its partner and the known pair); otherwise seat 1 takes
// both and ties seat 0 at two. Safe and known-first take both with probability 1/3 and leave both
// to seat 1 otherwise. So daring gives seat 0 a score of 2/3 + (1/3)/2 = 5/6.
func TestSolveWinOptimalThreeSeats(t *testing.T) {
	t.Parallel()
	out, stderr, code := runArgs(t, "solve", "--pairs", "2", "--unknown", "1", "--players", "3", "--policy", "win-optimal", "--standings", "2,0,0")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `(n=2, j=1), perfect memory, pass never, exact arithmetic
3 players, every seat win-optimal (each maximises its own P(most pairs), a tie for the most shared); pairs so far 2,0,0 (seat 0 first)
seat 0: P(most pairs) 0.833333 (5/6); alone 0.666667 (2/3), tied 0.333333 (1/3)
seat 1: P(most pairs) 0.166667 (1/6); alone 0.000000 (0), tied 0.333333 (1/3)
seat 2: P(most pairs) 0.000000 (0); alone 0.000000 (0), tied 0.000000 (0)
expected pairs, seat 0: 1.333333 (4/3)
expected pairs, seat 1: 0.666667 (2/3)
expected pairs, seat 2: 0.000000 (0)
seat 0's legal choices (of {daring, safe, known-first, pass}), each played now, then win-optimal for every seat afterwards:
  daring:      P(most pairs) 0.833333 (5/6), best
  safe:        P(most pairs) 0.666667 (2/3), 0.166667 (1/6) less
  known-first: P(most pairs) 0.666667 (2/3), 0.166667 (1/6) less
best: daring to win (win-optimal plays daring)
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Under a turn limit the header names it: with one turn left and seat 0 two pairs ahead of seats
// that have none, no turn can take seat 0's lead, so its P(most pairs) is 1 whatever it chooses.
func TestSolveWinOptimalThreeSeatsUnderTurnLimit(t *testing.T) {
	t.Parallel()
	out, stderr, code := runArgs(t, "solve", "--pairs", "2", "--unknown", "1", "--players", "3", "--policy", "win-optimal",
		"--standings", "2,0,0", "--turn-limit", "1", "--flips", "blind")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"(n=2, j=1), perfect memory, pass never, blind flips, turn limit 1, exact arithmetic\n",
		"seat 0: P(most pairs) 1.000000 (1); alone 1.000000 (1), tied 0.000000 (0)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// The JSON of win-optimal at four seats: the scores of the seats sum to 1, a seat's score lies
// between its chance of ending alone with the most and that plus its chance of a tie, and --first
// safe gives the values the list gives safe.
func TestSolveWinOptimalJSON(t *testing.T) {
	t.Parallel()
	pairs, unknown := "4", "3"
	if testing.Short() {
		pairs, unknown = "3", "2" // four pairs at four seats take the race-enabled solver most of a minute
	}
	run := func(args ...string) answer.SelfWin {
		t.Helper()
		out, stderr, code := runArgs(t, append([]string{"solve", "--pairs", pairs, "--unknown", unknown, "--players", "4", "--policy", "win-optimal",
			"--standings", "1,0,2,1", "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var res answer.SelfWin
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v in %s", err, out)
		}
		return res
	}
	res := run()
	sum := 0.0
	for s, v := range res.ScoreBySeat {
		sum += v.Float
		if w, d := res.WinBySeat[s].Float, res.DrawBySeat[s].Float; v.Float < w || v.Float > w+d {
			t.Errorf("seat %d: score %g outside [%g, %g]", s, v.Float, w, w+d)
		}
	}
	if math.Abs(sum-1) > 1e-12 || len(res.Standings) != 4 || res.ChoiceValues == nil {
		t.Fatalf("scores sum to %g, standings %v, choices %v", sum, res.Standings, res.ChoiceValues)
	}
	first := run("--first", "safe", "--value-only")
	for _, v := range res.ChoiceValues.Values {
		if v.Choice != "safe" {
			continue
		}
		for s := range v.ScoreBySeat {
			if v.ScoreBySeat[s].Exact != first.ScoreBySeat[s].Exact {
				t.Errorf("seat %d: safe's score %s in the list, %s with --first safe", s, v.ScoreBySeat[s].Exact, first.ScoreBySeat[s].Exact)
			}
		}
		return
	}
	t.Error("safe is not in the list")
}

// Bad input to --standings and to win-optimal at three or more seats: one line, exit 2.
func TestSolveStandingsBadInput(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--pairs", "3"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--standings", "1,0"}, "--standings goes with --players P (3 or more)"},
		{[]string{"--players", "3", "--policy", "win-optimal", "--standings", "1,2"}, `--standings "1,2": 2 counts, need one per seat (3)`},
		{[]string{"--players", "3", "--policy", "win-optimal", "--standings", "1,x,0"}, `seat 1: "x" is not a count of pairs`},
		{[]string{"--seats", "optimal,safe,daring", "--two-player-optimal", "--standings", "0,0,0"}, "--standings goes with --players P (3 or more)"},
		{[]string{"--players", "3", "--policy", "win-optimal", "--opponent", "win-best-response"}, "policy win-best-response: with 3 players one seat replies to the others, not 2"},
		{[]string{"--players", "3", "--policy", "win-optimal", "--lead", "1"}, "the lead is defined for 2 players"},
		{[]string{"--pairs", "26", "--players", "3", "--policy", "win-optimal"}, "add --big to solve it anyway"},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, append(base, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("solve %q: exit %d, %q; want exit 2 and one line with %q", tt.args, code, stderr, tt.want)
		}
	}
}

// A lineup that mixes policies, in the state of TestSolveWinOptimalThreeSeats: seat 0 plays safe,
// seat 1 win-optimal, seat 2 daring. Safe takes both pairs with probability 1/3 (its first card
// finds the known card's partner, then the last pair); otherwise it turns a known card second and
// seat 1 takes both pairs and ties seat 0 at two, whatever it chooses. So seat 0 scores 1/3 + (2/3)/2
// = 2/3 and seat 1 (2/3)/2 = 1/3; daring made now is worth 5/6 to seat 0, as there.
func TestSolveMixedSeatsThreeSeats(t *testing.T) {
	t.Parallel()
	out, stderr, code := runArgs(t, "solve", "--pairs", "2", "--unknown", "1", "--seats", "safe,win-optimal,daring", "--standings", "2,0,0")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `(n=2, j=1), perfect memory, pass never, exact arithmetic
3 players, seats safe, win-optimal, daring (win-optimal maximises its own P(most pairs), a tie for the most shared); pairs so far 2,0,0 (seat 0 first)
seat 0: P(most pairs) 0.666667 (2/3); alone 0.333333 (1/3), tied 0.666667 (2/3)
seat 1: P(most pairs) 0.333333 (1/3); alone 0.000000 (0), tied 0.666667 (2/3)
seat 2: P(most pairs) 0.000000 (0); alone 0.000000 (0), tied 0.000000 (0)
expected pairs, seat 0: 0.666667 (2/3)
expected pairs, seat 1: 1.333333 (4/3)
expected pairs, seat 2: 0.000000 (0)
seat 0's legal choices (of {daring, safe, known-first, pass}), each played now, then every seat's own policy afterwards:
  daring:      P(most pairs) 0.833333 (5/6), best
  safe:        P(most pairs) 0.666667 (2/3), 0.166667 (1/6) less
  known-first: P(most pairs) 0.666667 (2/3), 0.166667 (1/6) less
best: daring to win (safe plays safe)
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Under decay forgetting at two pairs and three seats whoever takes the first pair takes the
// second too (the last two cards are a pair), so no game ends in a tie, a seat one pair ahead
// of the others changes nothing (the winner ends with two pairs), and the scores add up to 1.
func TestSolveWinOptimalThreeSeatsUnderDecay(t *testing.T) {
	t.Parallel()
	scores := func(standings string) []string {
		out, stderr, code := runArgs(t, "solve", "--pairs", "2", "--forget", "decay", "--q", "0.5", "--players", "3",
			"--policy", "win-optimal", "--standings", standings, "--float")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var lines []string
		sum := 0.0
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, "seat ") || !strings.Contains(l, "P(most pairs)") {
				continue
			}
			lines = append(lines, l)
			var s int
			var p, alone, tied float64
			if _, err := fmt.Sscanf(l, "seat %d: P(most pairs) %f; alone %f, tied %f", &s, &p, &alone, &tied); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			if tied != 0 {
				t.Errorf("standings %s: %q: a tie at two pairs", standings, l)
			}
			sum += p
		}
		if len(lines) != 3 || math.Abs(sum-1) > 2e-6 {
			t.Errorf("standings %s: %d seats' scores summing to %v, want 3 summing to 1:\n%s", standings, len(lines), sum, out)
		}
		return lines
	}
	even, ahead := scores("0,0,0"), scores("0,1,0")
	if strings.Join(even, "\n") != strings.Join(ahead, "\n") {
		t.Errorf("standings 0,0,0:\n%s\nstandings 0,1,0:\n%s", strings.Join(even, "\n"), strings.Join(ahead, "\n"))
	}
}
