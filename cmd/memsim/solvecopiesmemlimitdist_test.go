package main

import (
	"context"
	"encoding/json"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// With --copies, a shared handover-uniform or decay memory and --turn-limit, --distribution
// prints the library's score distribution by the limit and its win, draw and loss.
func TestSolveCopiesLimitedMemoryTurnLimitDistribution(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := exact.StartCopiesState(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}
	for _, c := range []struct {
		memory rules.Memory
		flags  []string
	}{
		{rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}, []string{"--forget", "handover-uniform"}},
		{rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3}, []string{"--forget", "decay", "--q", "0.3"}},
	} {
		m := exact.Model{Memory: c.memory, Variant: rules.Variant{Copies: 4, TurnLimit: 5}, Pass: rules.PassAlways}
		want, err := exact.CopiesDistribution(ctx, field.Rat{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"solve", "--copies", "4", "--pairs", "4", "--memory", "3", "--pass", "always", "--turn-limit", "5",
			"--policy", "best-response", "--opponent", "safe", "--distribution", "--json"}, c.flags...)
		out, stderr, code := runArgs(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.flags, code, stderr)
		}
		type exactValue struct{ Exact string }
		var got struct {
			ScoreDistribution []struct{ Probability exactValue } `json:"score_distribution"`
			Win, Draw, Loss   exactValue
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if len(got.ScoreDistribution) != len(want.Prob) {
			t.Fatalf("%v: %d shares, the library %d", c.flags, len(got.ScoreDistribution), len(want.Prob))
		}
		for i, p := range want.Prob {
			if g := got.ScoreDistribution[i].Probability.Exact; g != p.RatString() {
				t.Errorf("%v: share %d/2: prints %s, the library %s", c.flags, i, g, p.RatString())
			}
		}
		if got.Win.Exact != want.Win.RatString() || got.Draw.Exact != want.Draw.RatString() || got.Loss.Exact != want.Loss.RatString() {
			t.Errorf("%v: win/draw/loss %s/%s/%s, the library %s/%s/%s", c.flags, got.Win.Exact, got.Draw.Exact, got.Loss.Exact, want.Win.RatString(), want.Draw.RatString(), want.Loss.RatString())
		}
	}
}
