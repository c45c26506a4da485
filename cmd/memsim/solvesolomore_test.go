package main

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestSolveSolitaireTurnsDecayAndCopies checks that --distribution --players 1 under decay
// forgetting (with a capacity, and with blind flips too) and with --copies K prints, in JSON and
// as text, the distribution exact.SolitaireTurns gives, up to --turns-max.
func TestSolveSolitaireTurnsDecayAndCopies(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		args  []string
		m     exact.Model
		st    rules.State
		turns int
	}{
		{[]string{"--pairs", "3", "--forget", "decay", "--q", "0.3", "--policy", "safe", "--turns-max", "9"},
			exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.3}}, rules.State{N: 3, J: 3}, 9},
		{[]string{"--pairs", "3", "--memory", "2", "--forget", "decay", "--q", "0.5", "--turns-max", "8"},
			exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.5}}, rules.State{N: 3, J: 3}, 8},
		{[]string{"--pairs", "3", "--forget", "decay", "--q", "0.2", "--flips", "blind", "--turns-max", "7"},
			exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}, Variant: rules.Variant{Flips: rules.FlipsBlind}}, rules.State{N: 3, J: 3}, 7},
		{[]string{"--copies", "4", "--pairs", "4"},
			exact.Model{Variant: rules.Variant{Copies: 4}}, rules.State{N: 4, J: 4}, exact.DefaultMaxTurns(4, 0)},
		{[]string{"--copies", "4", "--pairs", "4", "--policy", "safe", "--turns-max", "6"},
			exact.Model{Variant: rules.Variant{Copies: 4}}, rules.State{N: 4, J: 4}, 6},
		{[]string{"--copies", "6", "--pairs", "6", "--policy", "safe"},
			exact.Model{Variant: rules.Variant{Copies: 6}}, rules.State{N: 6, J: 6}, exact.DefaultMaxTurns(6, 0)},
	}
	for _, tc := range cases {
		text := append([]string{"solve", "--players", "1", "--distribution", "--value-only"}, tc.args...)
		args := append(append([]string(nil), text...), "--json")
		stdout, stderr, code := runArgs(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s", args, code, stderr)
		}
		var res struct {
			TurnsDistribution *answer.TurnsDistribution `json:"turns_distribution"`
		}
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		p := rules.PolicyOptimal
		if strings.Contains(strings.Join(tc.args, " "), "--policy safe") {
			p = rules.PolicySafe
		}
		tc.m.Pass = rules.PassNever
		d, err := exact.SolitaireTurns[*big.Rat](ctx, field.Rat{}, tc.m, p, tc.st, tc.turns)
		if err != nil {
			t.Fatal(err)
		}
		td := res.TurnsDistribution
		if td == nil || td.MaxTurns != tc.turns || len(td.Turns) != tc.turns+1 {
			t.Fatalf("%q: turns distribution %+v, want %d points", args, td, tc.turns+1)
		}
		for k, pt := range td.Turns {
			if pt.Turns != k || pt.Probability.Exact != d.Prob[k].RatString() {
				t.Errorf("%q: point %d: %+v, want %s", args, k, pt, d.Prob[k].RatString())
			}
		}
		if td.More.Exact != d.Tail.RatString() {
			t.Errorf("%q: more than %d turns: %s, want %s", args, tc.turns, td.More.Exact, d.Tail.RatString())
		}
		out, stderr, code := runArgs(t, text...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s", text, code, stderr)
		}
		for k, x := range d.Prob {
			if has := strings.Contains(out, "  turns "+padInt(k)+": "); has != (x.Sign() != 0) {
				t.Errorf("%q: a line for %d turns: %v, probability %s:\n%s", text, k, has, x.RatString(), out)
			}
		}
	}
}

// padInt writes k as writeTurnsText does, in three columns.
func padInt(k int) string {
	s := big.NewInt(int64(k)).String()
	return strings.Repeat(" ", max(0, 3-len(s))) + s
}
