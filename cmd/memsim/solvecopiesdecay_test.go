package main

import (
	"context"
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesDecayAnswer is the part of memsim solve --copies --json that the decay tests read.
type copiesDecayAnswer struct {
	Model struct {
		Memory, Policy, Opponent string
	}
	ExpectedPairs  struct{ Exact string }   `json:"expected_pairs"`
	ExpectedLead   struct{ Exact string }   `json:"expected_lead"`
	ExpectedBySeat []struct{ Exact string } `json:"expected_pairs_by_seat"`
	ChoiceValues   struct {
		Values []struct {
			Choice        string
			ExpectedPairs struct{ Exact string } `json:"expected_pairs"`
		}
	} `json:"choice_values"`
}

// memsim solve --copies K --forget decay --q Q [--memory M] prints the values the library's copies
// model under a shared decay memory gives, every legal choice's too; the seats' pairs add up to
// the pairs of the deal; and the headline names the memory.
func TestSolveCopiesDecayPrintsTheLibrarysValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args              []string
		faces             string
		copies, capacity  int
		policy, opponent  rules.Policy
		memory, headlines string
	}{
		{[]string{"--pairs", "4"}, "4:2u", 4, 0, rules.PolicyOptimal, rules.PolicyOptimal, "decay(q=0.3)", "shared decay(q=0.3) memory"},
		{[]string{"--faces", "4:1u+1h", "--memory", "2"}, "4:1u+1h", 4, 2, rules.PolicyOptimal, rules.PolicyOptimal, "decay(2, q=0.3)", "shared decay(2, q=0.3) memory"},
		{[]string{"--pairs", "3", "--policy", "best-response", "--opponent", "safe"}, "6:1u", 6, 0, rules.PolicyBestResponse, rules.PolicySafe, "decay(q=0.3)", "shared decay(q=0.3) memory"},
		{[]string{"--faces", "4:1u+1h", "--policy", "safe", "--opponent", "daring"}, "4:1u+1h", 4, 0, rules.PolicySafe, rules.PolicyDaring, "decay(q=0.3)", "shared decay(q=0.3) memory"},
	}
	ctx, f := context.Background(), field.Rat{}
	for _, tc := range tests {
		args := append([]string{"solve", "--copies", string(rune('0' + tc.copies)), "--forget", "decay", "--q", "0.3"}, tc.args...)
		out, stderr, code := runArgs(t, append(args, "--json")...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var got copiesDecayAnswer
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %v: %s", args, err, out)
		}
		m := exact.Model{Variant: rules.Variant{Copies: tc.copies}, Choices: rules.FullChoices,
			Memory: rules.Memory{Capacity: tc.capacity, Forget: rules.ForgetDecay, Decay: 0.3}}
		mu := exact.Lineup{Players: 2, Policy: tc.policy, Opponent: tc.opponent}
		st, err := exact.ParseCopiesState(tc.faces, tc.copies)
		if err != nil {
			t.Fatal(err)
		}
		want, err := exact.CopiesChoiceValues(ctx, f, m, mu, st)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if got.Model.Memory != tc.memory || got.ExpectedPairs.Exact != want.Value.ExpectedPairs.RatString() ||
			got.ExpectedLead.Exact != want.Value.ExpectedLead.RatString() {
			t.Errorf("%v: memory %q, pairs %s, lead %s; the library: %s, pairs %s, lead %s", args, got.Model.Memory,
				got.ExpectedPairs.Exact, got.ExpectedLead.Exact, tc.memory, want.Value.ExpectedPairs.RatString(), want.Value.ExpectedLead.RatString())
		}
		sum := new(big.Rat)
		for _, v := range got.ExpectedBySeat {
			r, ok := new(big.Rat).SetString(v.Exact)
			if !ok {
				t.Fatalf("%v: seat value %q", args, v.Exact)
			}
			sum.Add(sum, r)
		}
		if sum.Cmp(big.NewRat(int64(st.Pairs()), 1)) != 0 {
			t.Errorf("%v: the seats' pairs add up to %v, not %d", args, sum, st.Pairs())
		}
		if len(got.ChoiceValues.Values) != len(want.Values) {
			t.Fatalf("%v: %d choices, the library %d", args, len(got.ChoiceValues.Values), len(want.Values))
		}
		for i, v := range want.Values {
			if g := got.ChoiceValues.Values[i]; g.Choice != v.Choice.String() || g.ExpectedPairs.Exact != v.Pairs.RatString() {
				t.Errorf("%v: choice %d: %s %s, the library %s %s", args, i, g.Choice, g.ExpectedPairs.Exact, v.Choice, v.Pairs.RatString())
			}
		}
		text, stderr, code := runArgs(t, append(args, "--value-only")...)
		if code != exitOK || !strings.Contains(text, ", "+tc.headlines+", pass never, exact arithmetic\n") {
			t.Errorf("%v --value-only: exit %d, headline lacks %q: %s%s", args, code, tc.headlines, text, stderr)
		}
		fl, stderr, code := runArgs(t, append(args, "--json", "--float")...)
		var gf struct {
			ExpectedLead struct{ Float float64 } `json:"expected_lead"`
		}
		if code != exitOK || json.Unmarshal([]byte(fl), &gf) != nil {
			t.Fatalf("%v --float: exit %d: %s%s", args, code, fl, stderr)
		}
		if w, _ := want.Value.ExpectedLead.Float64(); math.Abs(gf.ExpectedLead.Float-w) > 1e-12 {
			t.Errorf("%v --float: lead %v, exact %v", args, gf.ExpectedLead.Float, w)
		}
	}
}

// A decay memory whose capacity holds every card never forgets by the capacity: it gives the
// values of the decay memory without a capacity; a capacity of two gives other values.
func TestSolveCopiesDecayLargeCapacityIsNoCapacity(t *testing.T) {
	t.Parallel()
	lead := func(args ...string) string {
		out, stderr, code := runArgs(t, append([]string{"solve", "--copies", "4", "--pairs", "4", "--forget", "decay", "--q", "0.25", "--policy", "safe", "--opponent", "optimal", "--value-only", "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var got copiesDecayAnswer
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return got.ExpectedLead.Exact
	}
	none, full, two := lead(), lead("--memory", "8"), lead("--memory", "2")
	if none != full || none == two {
		t.Errorf("lead without a capacity %s, with capacity 8 %s, with capacity 2 %s", none, full, two)
	}
}

// What the copies model under a decay memory does not solve is refused in one line naming it.
func TestSolveCopiesDecayRefusals(t *testing.T) {
	t.Parallel()
	base := []string{"--copies", "4", "--pairs", "4", "--forget", "decay", "--q", "0.3"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--copies", "4", "--pairs", "4", "--forget", "decay"}, "memsim solve: --q Q is required with --forget decay: the probability that each remembered card is forgotten at a hand-over, 0 < Q <= 1"},
		{[]string{"--copies", "4", "--pairs", "4", "--q", "0.3"}, "memsim solve: --q 0.3 goes with --forget decay"},
		{[]string{"--copies", "4", "--pairs", "4", "--memory", "3", "--forget", "handover-uniform", "--q", "0.3"}, "memsim solve: --q 0.3 goes with --forget decay"},
		{append(base[:6:6], "--q", "1.5"), "memsim solve: --q 1.5: must be in (0, 1]"},
		{append(base, "--memory", "1"), "memsim solve: --memory 1: must be 0 (no capacity) or at least 2"},
		{append(base, "--players", "3", "--pass", "always", "--turn-limit", "4"), "memsim solve: --players 3 --pass always --policy optimal --opponent optimal: copies 4 with decay(q=0.3) at 3 seats: a turn limit has no exact model (two seats and solitaire have)"},
		{append(base, "--pass", "always", "--players", "1"), "memsim solve: --players 1 --pass always --policy optimal: copies 4 with decay(q=0.3): solitaire has nobody to hand a pass to (pass rule always; allowed: never)"},
		{append(base, "--turn-limit", "4", "--players", "1"), "memsim solve: --players 1 --policy optimal: copies 4 with decay(q=0.3), turn limit 4: solitaire has no exact model under a turn limit (two seats have)"},
		{append(base, "--policy", "win-optimal"), "memsim solve: --players 2 --policy win-optimal --opponent win-optimal: policy win-optimal with copies 4 and decay(q=0.3) has no exact model (allowed: optimal, safe, daring, best-response)"},
		{[]string{"--copies", "4", "--faces", "4:1u+1h", "--forget", "decay", "--q", "0.3", "--memory", "2", "--first", "pass"}, "memsim solve: --first pass: not legal in 4:1u+1h with pass never (legal there: daring, safe, known-first)"},
		{[]string{"--copies", "4", "--pairs", "20", "--forget", "decay", "--q", "0.3"}, "memsim solve: --pairs 20 with --copies 4: about 1001 count states, more than 600 (estimated more than 30 s; --big solves it anyway, or use --float)"},
		{[]string{"--copies", "4", "--pairs", "60", "--forget", "decay", "--q", "0.3", "--float"}, "memsim solve: --pairs 60 with --copies 4: about 46376 count states, more than 15000 (estimated more than 30 s; --big solves it anyway)"},
	}
	for _, tt := range tests {
		wantUsageError(t, append([]string{"solve"}, tt.args...), tt.want)
	}
}
