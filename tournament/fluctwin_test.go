package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// Under a fluctuating capacity win-optimal and a win best response to safe play the tables of the
// fluctuating model, read by the capacity drawn and the lead, and the engine's games agree with the
// solver: seat 0's mean pairs and rates of wins and draws pass every check against the exact
// values, and the negative control, which gives seat 0 seat 1's exact values, has the rates of wins
// of win-optimal against safe rejected.
func TestWinPoliciesUnderFluctuationMatchTheSolver(t *testing.T) {
	const suite = `name: fluct-win
seed: 3
games: 3000
rules: {pairs: [4]}
players:
  - {name: win, policy: win-optimal, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: safe, policy: safe, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: wbr, policy: win-best-response, opponent: safe, memory: {capacity: 3, forget: lru, fluctuation: 1}}
`
	ctx := context.Background()
	cfgs, err := configs.ParseSuite("fluct-win.yaml", []byte(suite), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSuite(ctx, cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Tournaments[0].Players[:1] {
		if want := "win-optimal table, lru(3, fluctuation 1) memory"; !strings.Contains(p.Table, want) {
			t.Errorf("win-optimal plays %q, want the %s", p.Table, want)
		}
	}
	o := tournament.ValidateOptions{Level: 0.01}
	right, err := s.Validate(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	rates := 0
	for _, c := range right.Checks {
		if c.Rejected {
			t.Errorf("%s rejected against the exact values: %s %.3g, p %.3g", c.Name, c.Test, c.Statistic, c.PValue)
		}
		if strings.HasSuffix(c.Name, "/win rate seat 0") {
			rates++
		}
	}
	// Win-optimal and the win best response, each against safe, in both seat orders.
	if rates != 4 {
		t.Errorf("%d checks of the rate of wins, want 4", rates)
	}
	wrong, err := s.ValidateWrongExpectation(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	caught := 0
	for _, c := range wrong.Checks {
		if strings.HasSuffix(c.Name, "/win rate seat 0") && strings.Contains(c.Name, "win vs safe") && c.Rejected {
			caught++
		}
	}
	if caught == 0 {
		t.Errorf("the negative control's rates of wins of win-optimal against safe were not rejected")
	}
}
