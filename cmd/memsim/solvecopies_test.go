package main

import (
	"context"
	"encoding/json"
	"math"
	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"strings"
	"testing"
)

// One face of four cards: any two cards match, so the mover takes both pairs in two turns, each a
// lucky match. The values follow by hand.
func TestSolveCopiesOneFace(t *testing.T) {
	t.Parallel()
	out, stderr, code := runArgs(t, "solve", "--copies", "4", "--pairs", "2", "--value-only")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `copies 4, 2 pairs, faces 4:1u, perfect memory, pass never, exact arithmetic
2 players: seat 0 (to move) plays optimal; seat 1 plays optimal (no --opponent: the mover's policy)
expected pairs, seat 0: 2.000000 (2)
expected pairs, seat 1: 0.000000 (0)
expected lead, seat 0:  2.000000 (2)
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	out, stderr, code = runArgs(t, "solve", "--copies", "4", "--pairs", "2", "--players", "1", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Model struct {
			Copies, Pairs int
			Faces         string
		}
		ExpectedTurns struct{ Exact string } `json:"expected_turns"`
		ExpectedLucky struct{ Exact string } `json:"expected_lucky"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Model.Copies != 4 || got.Model.Pairs != 2 || got.Model.Faces != "4:1u" || got.ExpectedTurns.Exact != "2" || got.ExpectedLucky.Exact != "2" {
		t.Errorf("got %+v from %s", got, out)
	}
}

// The choices' values in the copies model, with one turn left, follow by hand: in 4:1u+1h (a face
// A of four unknown cards, a face B of four with one remembered) seven cards are unknown. Daring
// takes a pair when its first card is of B (3/7), or of A (4/7) and its second of A (3/6): 5/7.
// Safe and known-first take one only when their unknown card is of B: 3/7. Without the limit the
// list names the pairs, and --first gives the value of a choice then the policy.
func TestSolveCopiesChoices(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--faces", "4:1u+1h", "--turn-limit", "1"}, []string{
			"copies 4, 4 pairs, faces 4:1u+1h, perfect memory, pass never, turn limit 1, exact arithmetic\n",
			"  daring:      0.714286 (5/7) pairs, lead 0.714286 (5/7), best\n",
			"  safe:        0.428571 (3/7) pairs, lead 0.428571 (3/7), 0.285714 (2/7) below the best\n",
			"  known-first: 0.428571 (3/7) pairs, lead 0.428571 (3/7), 0.285714 (2/7) below the best\n",
			"best: daring for the lead\n"}},
		{[]string{"--faces", "4:1u+1h", "--turn-limit", "1", "--first", "safe", "--value-only"}, []string{
			"seat 0 (to move) plays safe now, then optimal",
			"expected pairs, seat 0: 0.428571 (3/7)\nexpected pairs, seat 1: 0.000000 (0)\n"}},
		{[]string{"--faces", "4:1u+1h", "--turn-limit", "1", "--players", "1", "--json"}, []string{
			`"turn_limit":1`, `{"choice":"daring","expected_pairs":{"exact":"5/7"`}},
		{[]string{"--pairs", "2"}, []string{"  daring:      2.000000 (2) pairs, the only legal choice\n"}},
		// Win-optimal under pass always with one turn left: daring wins when it takes a pair, 3/7,
		// and draws otherwise; a pass uses the last turn and draws, taking nothing.
		{[]string{"--pairs", "4", "--policy", "win-optimal", "--pass", "always", "--turn-limit", "1"}, []string{
			"seat 0 wins 0.428571 (3/7), draws 0.571429 (4/7), loses 0.000000 (0)\n",
			"  pass:        0.000000 (0) pairs, lead 0.000000 (0), 0.428571 (3/7) below the best\n",
			"  daring:      score 0.714286 (5/7), best\n",
			"  pass:        score 0.500000 (1/2), 0.214286 (3/14) below the best\n"}},
	}
	for _, tc := range tests {
		out, stderr, code := runArgs(t, append([]string{"solve", "--copies", "4"}, tc.args...)...)
		if code != exitOK {
			t.Errorf("%v: exit %d: %s", tc.args, code, stderr)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out)
			}
		}
		if strings.Contains(strings.Join(tc.args, " "), "--value-only") && strings.Contains(out, "legal choices") {
			t.Errorf("%v: the choices are listed with --value-only:\n%s", tc.args, out)
		}
	}
}

// --faces gives the state (echoed largest faces first); the seats share its three pairs.
func TestSolveCopiesFaces(t *testing.T) {
	t.Parallel()
	out, stderr, code := runArgs(t, "solve", "--copies", "4", "--faces", "2:1h,4:1u", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Model struct {
			Pairs int
			Faces string
		}
		ExpectedBySeat []struct{ Float float64 } `json:"expected_pairs_by_seat"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Model.Pairs != 3 || got.Model.Faces != "4:1u,2:1h" || len(got.ExpectedBySeat) != 2 ||
		got.ExpectedBySeat[0].Float+got.ExpectedBySeat[1].Float != 3 {
		t.Errorf("got %+v from %s", got, out)
	}
}

// With two copies of a face under blind flips, the copies model gives the values the standard
// solver gives under blind flips, and its answer names the flip rule.
func TestSolveCopiesBlindTwoCopies(t *testing.T) {
	t.Parallel()
	type answer struct {
		Model struct {
			Flips string
		}
		ExpectedPairs struct{ Exact string } `json:"expected_pairs"`
	}
	read := func(args ...string) answer {
		out, stderr, code := runArgs(t, append([]string{"solve", "--pairs", "5", "--flips", "blind", "--value-only", "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var a answer
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return a
	}
	for _, policy := range []string{"optimal", "safe", "daring"} {
		got, want := read("--copies", "2", "--policy", policy), read("--policy", policy)
		if got.Model.Flips != "blind" || got.ExpectedPairs.Exact == "" || got.ExpectedPairs != want.ExpectedPairs {
			t.Errorf("%s: copies 2 under blind flips gives %+v, the standard solver %+v", policy, got, want)
		}
	}
}

func TestSolveCopiesFlagErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--copies", "3", "--pairs", "4"}, "memsim solve: --copies 3: must be an even number from 2 to 64"},
		{[]string{"--copies", "4", "--pairs", "3"}, "memsim solve: --pairs 3: 3 pairs with copies 4: the 6 cards must make whole faces of 4 cards (pairs a multiple of 2)"},
		{[]string{"--copies", "4", "--pairs", "4", "--pass", "sometimes"}, "memsim solve: --pass sometimes: unknown pass rule (allowed: never, two-known, always)"},
		{[]string{"--copies", "4", "--faces", "4:1u+1h", "--pass", "two-known", "--first", "pass"}, "memsim solve: --first pass: not legal in 4:1u+1h with pass two-known (legal there: daring, safe, known-first)"},
		{[]string{"--copies", "4", "--pairs", "4", "--players", "1", "--distribution", "--turn-limit", "4"}, "memsim solve: --distribution with --players 1: turn limit 4: solitaire's distribution of the number of turns is built without a turn limit"},
		{[]string{"--copies", "4", "--pairs", "4", "--flips", "blindly"}, `memsim solve: --flips "blindly": unknown rule (allowed: sequential, blind)`},
		{[]string{"--copies", "4", "--pairs", "4", "--first", "safe"}, "memsim solve: --first safe: not legal in 4:2u with pass never (legal there: daring)"},
		{[]string{"--copies", "4", "--pairs", "4", "--memory", "3"}, "memsim solve: --forget RULE is required with --memory 3: the forgetting rule of the limited memory (with --copies: handover-uniform or decay)"},
		{[]string{"--copies", "4", "--pairs", "4", "--memory", "3", "--forget", "lru"}, "memsim solve: --forget lru with --copies: no exact model (allowed: handover-uniform, decay; lru forgets by the order faces were seen, which the state of faces does not hold)"},
		{[]string{"--copies", "4", "--pairs", "4", "--memory", "3", "--forget", "handover-uniform", "--turn-limit", "4", "--players", "1"}, "memsim solve: --players 1 --policy optimal: copies 4 with handover-uniform(3), turn limit 4: solitaire has no exact model under a turn limit (two seats have)"},
		{[]string{"--copies", "4", "--pairs", "4", "--unknown", "3"}, "memsim solve: --unknown does not go with --copies (the copies model has perfect memory, a shared handover-uniform memory of a fixed capacity or a shared decay memory, no singletons, and gives the value of the policies from the start of a game or from --faces)"},
		{[]string{"--copies", "4", "--faces", "6:1u"}, `memsim solve: --faces: state "6:1u": group "6:1u": 6 cards on the table, must be even, 2 to 4`},
		{[]string{"--copies", "4", "--pairs", "4", "--policy", "parity"}, "memsim solve: --copies 4: policy parity with copies 4 has no exact model (allowed: optimal, safe, daring, best-response; win-optimal and win-best-response with two players)"},
		{[]string{"--copies", "4", "--pairs", "20", "--policy", "win-optimal", "--players", "3", "--turn-limit", "30"}, "memsim solve: --pairs 20 with --copies 4 --players 3 --turn-limit 30: about 14534520 count states times standings and turns left, more than 1500000 (estimated more than 30 s; --big solves it anyway, or use --float)"},
		{[]string{"--copies", "4", "--pairs", "4", "--seats", "win-optimal,parity,safe"}, "memsim solve: --players 3 --seats win-optimal,parity,safe: seat 1: policy parity with copies 4 beside win-optimal has no exact model (allowed: win-optimal, win-best-response, optimal, safe, daring)"},
		{[]string{"--copies", "4", "--pairs", "30", "--policy", "win-optimal", "--players", "3"}, "memsim solve: --pairs 30 with --copies 4 --players 3: about 11907072 count states times standings, more than 1500000 (estimated more than 30 s; --big solves it anyway, or use --float)"},
		{[]string{"--copies", "4", "--pairs", "18", "--policy", "win-optimal", "--players", "3", "--pass", "always"}, "memsim solve: --pairs 18 with --copies 4 --players 3: about 2574000 count states times standings and pass streaks, more than 1500000 (estimated more than 30 s; --big solves it anyway, or use --float)"},
		{[]string{"--faces", "4:1u"}, "memsim solve: --copies K is required with --faces: the cards of a face (even, 2 to 64)"},
		{[]string{"--copies", "4"}, "memsim solve: --pairs N is required: the pairs of the deal, a multiple of --copies/2 (or --faces STATE)"},
		{[]string{"--copies", "4", "--pairs", "400"}, "memsim solve: --pairs 400 with --copies 4: about 70058751 count states, more than 200000 (estimated more than 30 s; --big solves it anyway, or use --float)"},
	}
	for _, tt := range tests {
		wantUsageError(t, append([]string{"solve"}, tt.args...), tt.want)
	}
}

// --distribution gives seat 0's shares: their probabilities add up to one and their mean is seat
// 0's expected pairs.
func TestSolveCopiesDistribution(t *testing.T) {
	t.Parallel()
	out, stderr, code := runArgs(t, "solve", "--copies", "6", "--pairs", "6", "--policy", "safe", "--opponent", "daring", "--distribution", "--json", "--float")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		ExpectedPairs     struct{ Float float64 } `json:"expected_pairs"`
		ScoreDistribution []struct {
			Share       float64
			Probability struct{ Float float64 }
		} `json:"score_distribution"`
		Win, Draw, Loss struct{ Float float64 }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var sum, mean float64
	for _, s := range got.ScoreDistribution {
		sum += s.Probability.Float
		mean += s.Share * s.Probability.Float
	}
	if len(got.ScoreDistribution) != 13 || math.Abs(sum-1) > 1e-12 || math.Abs(mean-got.ExpectedPairs.Float) > 1e-12 ||
		math.Abs(got.Win.Float+got.Draw.Float+got.Loss.Float-1) > 1e-12 {
		t.Errorf("shares %v add up to %v with mean %v, expected pairs %v; win, draw, loss %v %v %v",
			got.ScoreDistribution, sum, mean, got.ExpectedPairs.Float, got.Win.Float, got.Draw.Float, got.Loss.Float)
	}
}

// --memory M --forget handover-uniform with --copies names the memory, and a capacity that holds
// the whole deck gives perfect memory's values.
func TestSolveCopiesHandoverUniform(t *testing.T) {
	t.Parallel()
	lead := func(args ...string) (string, string) {
		out, stderr, code := runArgs(t, append([]string{"solve", "--copies", "4", "--pairs", "4", "--policy", "safe", "--opponent", "optimal", "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var got struct {
			Model        struct{ Memory string }
			ExpectedLead struct{ Exact string } `json:"expected_lead"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return got.Model.Memory, got.ExpectedLead.Exact
	}
	mem, big := lead("--memory", "8", "--forget", "handover-uniform")
	_, perfect := lead()
	if mem != "handover-uniform(8)" || big != perfect {
		t.Errorf("handover-uniform(8): memory %q, lead %s; perfect memory %s", mem, big, perfect)
	}
	if _, small := lead("--memory", "2", "--forget", "handover-uniform"); small == perfect {
		t.Errorf("handover-uniform(2): lead %s, as perfect memory's", small)
	}
}

// Solitaire with --copies and a shared handover-uniform memory prints the library's expected turns
// for each policy, a capacity that holds the whole deck gives perfect memory's, and a small one
// costs turns.
func TestSolveCopiesHandoverUniformSolitaire(t *testing.T) {
	t.Parallel()
	turns := func(args ...string) string {
		out, stderr, code := runArgs(t, append([]string{"solve", "--copies", "4", "--pairs", "4", "--players", "1", "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var got struct {
			ExpectedTurns struct{ Exact string } `json:"expected_turns"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return got.ExpectedTurns.Exact
	}
	ctx := context.Background()
	st, err := exact.StartCopiesState(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring} {
		m := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}, Variant: rules.Variant{Copies: 4}}
		want, err := exact.EvaluateCopies(ctx, field.Rat{}, m, exact.Lineup{Players: 1, Policy: p, Opponent: p}, st)
		if err != nil {
			t.Fatal(err)
		}
		if got := turns("--memory", "3", "--forget", "handover-uniform", "--policy", p.String()); got != want.ExpectedTurns.RatString() {
			t.Errorf("%s: prints %s turns, the library %s", p, got, want.ExpectedTurns.RatString())
		}
	}
	perfect := turns()
	if big := turns("--memory", "8", "--forget", "handover-uniform"); big != perfect {
		t.Errorf("handover-uniform(8): %s turns, perfect memory %s", big, perfect)
	}
	if small := turns("--memory", "2", "--forget", "handover-uniform"); small == perfect {
		t.Errorf("handover-uniform(2): %s turns, as perfect memory's", small)
	}
}
