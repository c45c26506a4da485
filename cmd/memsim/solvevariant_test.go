package main

import (
	"strings"
	"testing"
)

// The values below follow by hand from docs/models.md §4.17 and §4.18.
//
//   - Blind flips, (2, 2), two players: the two cards named are the pair with probability 1/3
//     (the mover takes it and then the last pair: lead 2), otherwise two new cards of different
//     pairs, and the other seat moves in (2, 0), where naming two unknown cards hands it both pairs
//     (lead -2) and a remembered card with an unknown one is worth 1/2·2 + 1/2·(-2) = 0. So the
//     mover's lead is 1/3·2 - 2/3·0 = 2/3: 4/3 pairs to 2/3 (sequential flips: 2/3 to 4/3).
//   - Turn limit 1, (2, 2): one turn, a new card and then its partner with probability 1/3: 1/3
//     pair to seat 0, none to seat 1; seat 0 takes one pair (and wins) with probability 1/3, none
//     (a draw, 0 to 0) with probability 2/3.
//   - Solitaire, turn limit 2, (2, 2): a lucky match with probability 1/3, then the last pair by
//     another lucky match (2 pairs); otherwise both pairs are half known and the second turn takes
//     one: 1/3·2 + 2/3·1 = 4/3 pairs, 2 turns, 1/3 + 1/3 = 2/3 lucky matches.
//   - Turn limit 1, (2, 1): one remembered card A, unknown A', B, B'. Daring turns up A' (1/3, a
//     pair) or B (2/3) and then B' (1/2, a pair) or A' (the pair goes to seat 1 after the limit):
//     2/3 pair, lead 2/3, a win 2/3 and a draw 1/3 (score 5/6). Safe and known-first take a pair
//     only when the unknown card is A' (1/3): 1/3 pair, lead 1/3, score 1/3 + 1/3 = 2/3.
//   - Blind flips, lru memory of capacity 2, turn limit 2, (2, 2): the two cards named are the
//     pair with probability 1/3 (the mover takes it and, in its second turn, the last pair: 2
//     pairs); otherwise two new cards of different pairs, both remembered, and the other seat has
//     one turn in (2, 0): naming the two unknown cards hands both pairs to seat 0, which has no
//     turn left (lead 0), while a remembered card with an unknown one takes a pair with
//     probability 1/2. So seat 0 expects 1/3·2 = 2/3 pairs and seat 1 2/3·1/2 = 1/3.
func TestSolveVariants(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--pairs", "2", "--flips", "blind", "--value-only"}, []string{
			"(n=2, j=2), perfect memory, pass never, blind flips, exact arithmetic\n",
			"expected pairs, seat 0: 1.333333 (4/3)\nexpected pairs, seat 1: 0.666667 (2/3)\nexpected lead, seat 0:  0.666667 (2/3)\n"}},
		{[]string{"--pairs", "2", "--turn-limit", "1"}, []string{
			"(n=2, j=2), perfect memory, pass never, turn limit 1, exact arithmetic\n",
			"expected pairs, seat 0: 0.333333 (1/3)\nexpected pairs, seat 1: 0.000000 (0)\nexpected lead, seat 0:  0.333333 (1/3)\n"}},
		{[]string{"--pairs", "2", "--players", "1", "--turn-limit", "2"}, []string{
			"expected pairs taken:   1.333333 (4/3)\nexpected turns:         2.000000 (2)\nexpected lucky matches: 0.666667 (2/3)\n"}},
		{[]string{"--pairs", "2", "--flips", "blind", "--memory", "2", "--forget", "lru", "--turn-limit", "2", "--value-only"}, []string{
			"(n=2, j=2), lru(2) memory, pass never, blind flips, turn limit 2, exact arithmetic\n",
			"expected pairs, seat 0: 0.666667 (2/3)\nexpected pairs, seat 1: 0.333333 (1/3)\n"}},
		{[]string{"--pairs", "2", "--turn-limit", "1", "--json"}, []string{`"turn_limit":1`, `"expected_lead":{"exact":"1/3"`}},
		{[]string{"--pairs", "2", "--flips", "blind", "--json", "--value-only"}, []string{`"flips":"blind"`, `"expected_lead":{"exact":"2/3"`}},
		{[]string{"--pairs", "2", "--unknown", "1", "--turn-limit", "1"}, []string{
			"  daring:      0.666667 (2/3) pairs, lead 0.666667 (2/3), best\n",
			"  safe:        0.333333 (1/3) pairs, lead 0.333333 (1/3), 0.333333 (1/3) below the best\n",
			"  daring:      score 0.833333 (5/6), best\n",
			"  safe:        score 0.666667 (2/3), 0.166667 (1/6) below the best\n",
			"best: daring, for the lead and to win\n"}},
		{[]string{"--pairs", "2", "--unknown", "1", "--turn-limit", "1", "--first", "safe"}, []string{
			"seat 0 (to move) plays safe now, then optimal",
			"expected pairs, seat 0: 0.333333 (1/3)\nexpected pairs, seat 1: 0.000000 (0)\n"}},
		{[]string{"--pairs", "2", "--turn-limit", "1", "--distribution", "--value-only"}, []string{
			"seat 0 wins 0.333333 (1/3), draws 0.666667 (2/3), loses 0.000000 (0)\n",
			"  share  0.0: 0.666667 (2/3)\n  share  1.0: 0.333333 (1/3)\n"}},
		{[]string{"--table", "--pairs-max", "2", "--turn-limit", "1"}, []string{"# optimal strategy table: perfect memory, pass never, turn limit 1,", "\nt=1\n1: 2\n2: 1 2\n"}},
		{[]string{"--table", "--pairs-max", "2", "--turn-limit", "1", "--json"}, []string{
			`{"turns_left":1,"pairs":2,"unknown":1,"code":1,"best":["daring"],"value":{"exact":"2/3","float":0.6666666666666666}}`}},
		{[]string{"--pairs", "2", "--unknown", "1", "--turn-limit", "1", "--players", "1", "--json"}, []string{
			`"choice":"daring","expected_pairs":{"exact":"2/3","float":0.6666666666666666},"expected_turns":{"exact":"1","float":1}`}},
	}
	for _, tc := range tests {
		out, stderr, code := runArgs(t, append([]string{"solve"}, tc.args...)...)
		if code != exitOK {
			t.Errorf("%v: exit %d: %s", tc.args, code, stderr)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out)
			}
		}
	}
}

// A variant the solver does not solve is refused in one line naming the flag and what is allowed.
func TestSolveVariantErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--pairs", "3", "--flips", "Blind"}, `--flips "Blind": unknown rule (allowed: sequential, blind)`},
		{[]string{"--pairs", "3", "--turn-limit", "-2"}, "--turn-limit -2: must be at least 1 (or 0 for no limit)"},
		{[]string{"--pairs", "3", "--flips", "blind", "--memory", "2", "--forget", "handover-uniform"}, "blind flips with handover-uniform capacity 2 have no exact model"},
		{[]string{"--pairs", "3", "--flips", "blind", "--singletons", "1", "--memory", "3", "--forget", "lru"}, "--flips blind with --singletons 1: blind flips with singletons have an exact model with perfect memory or a handover-uniform memory of a fixed capacity only"},
		{[]string{"--pairs", "3", "--flips", "blind", "--singletons", "1", "--memory", "3", "--forget", "handover-uniform", "--players", "3"}, "players 3: blind flips with singletons and handover-uniform(3) memory are solved at two seats only"},
		{[]string{"--pairs", "3", "--players", "3", "--flips", "blind", "--forget", "decay", "--q", "0.5", "--policy", "win-optimal", "--distribution"}, "every seat's score distribution at 3 players with a policy that plays to win is solved with perfect memory or lru and handover-uniform of a fixed capacity, not decay"},
		{[]string{"--table", "--pairs-max", "3", "--turn-limit", "5", "--memory", "3", "--forget", "lru", "--fluctuation", "1", "--policy", "win-optimal"},
			"--policy win-optimal with --table --fluctuation 1 --turn-limit 5: the table of a policy that plays to win under a fluctuating capacity and a turn limit is not printed (its values and --capacity choices are solved: leave out --table)"},
		{[]string{"--table", "--pairs-max", "3", "--policy", "safe"}, "--policy safe with --table: the table is of the optimal policy, of a policy that plays to win (win-optimal, or win-best-response with --opponent), or of best-response with --opponent"},
	}
	for _, tc := range tests {
		out, stderr, code := runArgs(t, append([]string{"solve"}, tc.args...)...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d; stdout %q", tc.args, code, exitUsage, out)
		}
		if !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: stderr %q, want one line with %q", tc.args, stderr, tc.want)
		}
	}
}

// The text table under a turn limit no game from its states reaches ends with a block, for the
// turns left up to the limit, whose rows are those of the table without a limit.
func TestSolveLimitTableEndsWithTheTable(t *testing.T) {
	t.Parallel()
	plain, stderr, code := runArgs(t, "solve", "--table", "--pairs-max", "4")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	limited, stderr, code := runArgs(t, "solve", "--table", "--pairs-max", "4", "--turn-limit", "30")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := plain[strings.LastIndex(plain, "\n# ")+1:]
	rows = rows[strings.Index(rows, "\n")+1:]
	head := strings.LastIndex(limited, "\nt=")
	if head < 0 {
		t.Fatalf("no block of turns left:\n%s", limited)
	}
	last := limited[head+1:]
	if !strings.HasSuffix(strings.SplitN(last, "\n", 2)[0], "..30") || strings.SplitN(last, "\n", 2)[1] != rows {
		t.Errorf("the last block under the limit\n%s\nis not the table without a limit:\n%s", last, rows)
	}
}
