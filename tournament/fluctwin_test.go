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
	checkWinRates(t, "fluct-win.yaml", suite, "win-optimal table, lru(3, fluctuation 1) memory", func(name string) bool {
		return strings.HasSuffix(name, "/win rate seat 0") && strings.Contains(name, "win vs safe")
	})
}

// checkWinRates runs the two-seat suite of file name, whose first player plays win-optimal by the
// table wantTable names, and whose four matches pit a policy that plays to win against another:
// every check passes against the exact values, seat 0's rate of wins is checked four times (each
// policy that plays to win in both seat orders), and the negative control, which gives seat 0 seat
// 1's exact values, has at least one check that caught accepts rejected.
func checkWinRates(t *testing.T, name, suite, wantTable string, caught func(check string) bool) {
	t.Helper()
	ctx := context.Background()
	cfgs, err := configs.ParseSuite(name, []byte(suite), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSuite(ctx, cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Tournaments[0].Players[0]; !strings.Contains(p.Table, wantTable) {
		t.Errorf("win-optimal plays %q, want the %s", p.Table, wantTable)
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
	if rates != 4 {
		t.Errorf("%d checks of the rate of wins, want 4", rates)
	}
	wrong, err := s.ValidateWrongExpectation(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range wrong.Checks {
		if caught(c.Name) && c.Rejected {
			return
		}
	}
	t.Errorf("the negative control's rates were not rejected")
}
