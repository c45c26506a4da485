package main

import (
	"context"
	"encoding/json"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// With --copies and a shared handover-uniform or decay memory, --distribution prints the
// library's score distribution at two seats and solitaire's distribution of the number of turns
// with --players 1.
func TestSolveCopiesLimitedMemoryDistribution(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		memory rules.Memory
		flags  []string
	}{
		{"handover-uniform", rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}, []string{"--forget", "handover-uniform"}},
		{"decay", rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3}, []string{"--forget", "decay", "--q", "0.3"}},
	} {
		t.Run(c.name, func(t *testing.T) { checkCopiesDistributionPrinted(t, c.memory, c.flags) })
	}
}

// checkCopiesDistributionPrinted checks the printed distributions of four copies of a face, 4
// pairs, under memory (flags naming it after --memory 3) against the library's.
func checkCopiesDistributionPrinted(t *testing.T, memory rules.Memory, flags []string) {
	ctx := context.Background()
	st, err := exact.StartCopiesState(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	m := exact.Model{Memory: memory, Variant: rules.Variant{Copies: 4}, Pass: rules.PassAlways}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}
	want, err := exact.CopiesDistribution(ctx, field.Rat{}, m, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"solve", "--copies", "4", "--pairs", "4", "--memory", "3"}, flags...)
	out, stderr, code := runArgs(t, append(args[:len(args):len(args)], "--pass", "always",
		"--policy", "best-response", "--opponent", "safe", "--distribution", "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		ScoreDistribution []struct {
			Probability struct{ Exact string }
		} `json:"score_distribution"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.ScoreDistribution) != len(want.Prob) {
		t.Fatalf("%d shares, the library %d", len(got.ScoreDistribution), len(want.Prob))
	}
	for i, p := range want.Prob {
		if g := got.ScoreDistribution[i].Probability.Exact; g != p.RatString() {
			t.Errorf("share %d/2: prints %s, the library %s", i, g, p.RatString())
		}
	}

	m.Pass = rules.PassNever
	turns, err := exact.SolitaireTurns(ctx, field.Rat{}, m, rules.PolicyOptimal, st.RulesState(), 8)
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code = runArgs(t, append(args[:len(args):len(args)], "--players", "1",
		"--distribution", "--turns-max", "8", "--json")...)
	if code != exitOK {
		t.Fatalf("solitaire: exit %d: %s", code, stderr)
	}
	var solo struct {
		TurnsDistribution struct {
			Turns []struct {
				Turns       int
				Probability struct{ Exact string }
			}
		} `json:"turns_distribution"`
	}
	if err := json.Unmarshal([]byte(out), &solo); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(solo.TurnsDistribution.Turns) != len(turns.Prob) {
		t.Fatalf("solitaire: %d points, the library %d", len(solo.TurnsDistribution.Turns), len(turns.Prob))
	}
	for i, p := range turns.Prob {
		if g := solo.TurnsDistribution.Turns[i].Probability.Exact; g != p.RatString() {
			t.Errorf("solitaire: %d turns: prints %s, the library %s", i, g, p.RatString())
		}
	}
}
