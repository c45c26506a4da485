package main

import (
	"encoding/json"
	"strings"
	"testing"

	"memsim/analysis/exact/answer"
)

// The values of (n=2, j=1) follow by hand (analysis/exact's ExampleChoiceValues): daring 4/3 pairs
// and a score of 2/3 at lead 0, safe and known-first 2/3 pairs and 1/3. The list names the best,
// how far behind the others are, and who plays afterwards; the seats' line says where seat 1's
// policy comes from.
func TestSolveListsTheChoices(t *testing.T) {
	t.Parallel()
	out, stderr, code := runArgs(t, "solve", "--pairs", "2", "--unknown", "1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `(n=2, j=1), perfect memory, pass never, exact arithmetic
2 players: seat 0 (to move) plays optimal; seat 1 plays optimal (no --opponent: the mover's policy)
expected pairs, seat 0: 1.333333 (4/3)
expected pairs, seat 1: 0.666667 (2/3)
expected lead, seat 0:  0.666667 (2/3)
seat 0's legal choices (of {daring, safe, known-first, pass}), each played now, then optimal for both seats afterwards:
  daring:      1.333333 (4/3) pairs, best
  safe:        0.666667 (2/3) pairs, 0.666667 (2/3) fewer than the best
  known-first: 0.666667 (2/3) pairs, 0.666667 (2/3) fewer than the best
to win at lead 0 (score: P(win) + P(draw)/2), each played now, then win-optimal for both seats afterwards:
  daring:      score 0.666667 (2/3), best
  safe:        score 0.333333 (1/3), 0.333333 (1/3) below the best
  known-first: score 0.333333 (1/3), 0.333333 (1/3) below the best
best: daring, for pairs and to win
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// --first safe values the state as the safe row of the list does (2/3 pairs, a score of 1/3 for a
// policy that plays to win), and says so in the seats' line; --value-only leaves the list out.
func TestSolveFirst(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string
		not  string
	}{
		{[]string{"--first", "safe", "--value-only"}, []string{
			"seat 0 (to move) plays safe now, then optimal; seat 1 plays optimal (no --opponent: the mover's policy)",
			"expected pairs, seat 0: 0.666667 (2/3)\n"}, "legal choices"},
		{[]string{"--first", "safe", "--policy", "win-optimal", "--opponent", "optimal"}, []string{
			"seat 0 (to move) plays safe now, then win-optimal; seat 1 plays optimal\n",
			"seat 0's score (a win 1, a draw 1/2): 0.333333 (1/3)\n",
			"then seat 0 win-optimal and seat 1 optimal afterwards:\n"}, "no --opponent"},
		{[]string{"--players", "3", "--first", "known-first"}, []string{
			"seat 0 (to move) plays known-first now, then optimal; seats 1 and 2 play optimal (no --opponent: the mover's policy)",
			"then optimal for every seat afterwards:"}, "to win"},
		{[]string{"--players", "1", "--first", "daring"}, []string{"solitaire: seat 0 plays daring now, then optimal, alone\n"}, "seat 1"},
	}
	for _, tt := range tests {
		args := append([]string{"solve", "--pairs", "2", "--unknown", "1"}, tt.args...)
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: no %q in\n%s", args, w, out)
			}
		}
		if strings.Contains(out, tt.not) {
			t.Errorf("%q: %q in\n%s", args, tt.not, out)
		}
	}
}

// The JSON carries every choice's values, the best by each measure and who plays afterwards,
// next to the fields of the policies' value, which keep their form.
func TestSolveChoicesJSON(t *testing.T) {
	t.Parallel()
	out, stderr, code := runArgs(t, "solve", "--pairs", "2", "--unknown", "1", "--lead", "-1", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res answer.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	cv := res.ChoiceValues
	if res.ExpectedPairs == nil || res.ExpectedPairs.Exact != "4/3" || cv == nil || cv.Win == nil {
		t.Fatalf("%s", out)
	}
	var pairs, scores []string
	for _, v := range cv.Values {
		pairs = append(pairs, v.Choice+" "+v.ExpectedPairs.Exact+" "+v.VsBest.Exact)
	}
	for _, v := range cv.Win.Values {
		scores = append(scores, v.Choice+" "+v.Win.Exact+" "+v.Draw.Exact+" "+v.Loss.Exact)
	}
	// At a lead of -1 both pairs make a win and none a loss: daring wins 2/3, the others 1/3.
	if got, want := strings.Join(pairs, ", "), "daring 4/3 0, safe 2/3 -2/3, known-first 2/3 -2/3"; got != want {
		t.Errorf("pairs: %s, want %s", got, want)
	}
	if got, want := strings.Join(scores, ", "), "daring 2/3 0 1/3, safe 1/3 0 2/3, known-first 1/3 0 2/3"; got != want {
		t.Errorf("to win: %s, want %s", got, want)
	}
	if cv.Policy != "optimal" || cv.Opponent != "optimal" || cv.Win.Policy != "win-optimal" || cv.Win.Lead != -1 ||
		strings.Join(cv.Best, ",") != "daring" || strings.Join(cv.Win.Best, ",") != "daring" || cv.Choices != "daring,safe,known-first,pass" {
		t.Errorf("%+v %+v", cv, cv.Win)
	}
}

// Where the choices' values to win would take long they are left out, saying why and what
// computes them.
func TestSolveLeavesOutCostlyWinValues(t *testing.T) {
	t.Parallel()
	out, stderr, code := runArgs(t, "solve", "--pairs", "61", "--unknown", "59")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "to win: the choices' scores are left out (61 pairs: play to win is solved for at most 60 in exact arithmetic; --float goes further)\n"
	if !strings.Contains(out, want) || !strings.Contains(out, "best: ") {
		t.Errorf("no %q in\n%s", want, out)
	}
}

func TestSolveChoiceFlagErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--pairs", "3", "--first", "bold"}, `memsim solve: --first "bold": unknown choice (allowed: daring, safe, known-first, pass)`},
		{[]string{"--pairs", "3", "--first", "safe"}, "memsim solve: --first safe: not legal in (n=3, j=3) with pass never (legal there: daring)"},
		{[]string{"--pairs", "3", "--unknown", "2", "--first", "pass", "--pass", "two-known"}, "memsim solve: --first pass: not legal in (n=3, j=2) with pass two-known (legal there: daring, safe, known-first)"},
		{[]string{"--pairs", "3", "--unknown", "2", "--first", "known-first", "--choices", "daring,safe"}, "memsim solve: --first known-first: not in --choices daring,safe (legal in (n=3, j=2): daring, safe)"},
		{[]string{"--pairs", "3", "--first", "daring", "--distribution"}, "memsim solve: --first with --distribution: the score distribution is of the policies' own choices (leave out one of the two)"},
		{[]string{"--table", "--pairs-max", "3", "--first", "daring"}, "memsim solve: --first does not go with --table (it is about the one state of --pairs)"},
		{[]string{"--table", "--pairs-max", "3", "--value-only"}, "memsim solve: --value-only does not go with --table (it is about the one state of --pairs)"},
		{[]string{"--table", "--pairs-max", "3", "--seats", "optimal,safe,safe"}, "memsim solve: --seats does not go with --table (the table is of every state with n <= --pairs-max, every seat playing one policy)"},
		{[]string{"--table", "--pairs-max", "3", "--two-player-optimal"}, "memsim solve: --two-player-optimal does not go with --table (the table is of every state with n <= --pairs-max, every seat playing one policy)"},
		{[]string{"--gerez", "--cards", "4", "--first", "daring"}, "memsim solve: --first does not go with --gerez (Gerez's model is perfect memory, two players, pass always)"},
		{[]string{"--gerez", "--cards", "4", "--q", "0.2"}, "memsim solve: --q does not go with --gerez (Gerez's model is perfect memory, two players, pass always)"},
		{[]string{"--gerez", "--cards", "4", "--opponent-memory", "3"}, "memsim solve: --opponent-memory does not go with --gerez (Gerez's model is perfect memory, two players, pass always)"},
		{[]string{"--gerez", "--cards", "4", "--seats", "optimal,safe,safe"}, "memsim solve: --seats does not go with --gerez (Gerez's model is perfect memory, two players, pass always)"},
		{[]string{"--gerez", "--cards", "4", "--two-player-optimal"}, "memsim solve: --two-player-optimal does not go with --gerez (Gerez's model is perfect memory, two players, pass always)"},
		{[]string{"--gerez", "--cards", "4", "--lead", "1"}, "memsim solve: --lead does not go with --gerez (Gerez's model is perfect memory, two players, pass always)"},
	}
	for _, tt := range tests {
		wantUsageError(t, append([]string{"solve"}, tt.args...), tt.want)
	}
}

// --seats gives every seat its own policy and the seats' line names each; --two-player-optimal
// says that optimal plays the two-player optimum's choices. The values are the solver's
// (analysis/exact tests them card by card); here the command must pass the lineup through.
func TestSolveSeats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--pairs", "6", "--seats", "daring,safe,parity", "--value-only"}, []string{
			"3 players: seat 0 (to move) plays daring; seat 1 safe, seat 2 parity\n",
			"expected pairs, seat 0: 2.321308 (4826/2079)\n"}},
		{[]string{"--pairs", "6", "--seats", "optimal,safe,parity,daring"}, []string{
			"4 players: seat 0 (to move) plays optimal; seat 1 safe, seat 2 parity, seat 3 daring\n",
			"then every seat its policy afterwards:"}},
		{[]string{"--pairs", "8", "--players", "3", "--two-player-optimal", "--value-only"}, []string{
			"(optimal: the two-player optimum's choices)\n",
			"expected pairs, seat 0: 2.147050 (207244/96525)\n"}},
		{[]string{"--pairs", "8", "--players", "3", "--value-only"}, []string{
			"expected pairs, seat 0: 2.227426 (167224/75075)\n"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			out, stderr, code := runArgs(t, append([]string{"solve"}, tt.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
