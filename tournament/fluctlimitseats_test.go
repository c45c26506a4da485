package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// Under a fluctuating capacity and a turn limit at three seats, optimal (every seat for itself)
// and best-response to optimal at the other seats play the tables of the model, read by the
// capacity drawn, the turns left and the pass streak, and the engine's games agree with the
// solver: every seat's mean pairs within the limit pass every check against the exact values.
func TestFluctuationUnderTurnLimitAtThreeSeatsMatchesTheSolver(t *testing.T) {
	const suite = `name: fluct-limit-three
seed: 7
games: 1000
rules: {pairs: [4], turn_limit: 6, pass: two-known, players_per_game: 3}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: optimal-b, policy: optimal, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: safe, policy: safe, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: reply, policy: best-response, opponent: optimal, memory: {capacity: 3, forget: lru, fluctuation: 1}}
`
	ctx := context.Background()
	cfgs, err := configs.ParseSuite("fluct-limit-three.yaml", []byte(suite), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSuite(ctx, cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Tournaments[0].Players[0]; !strings.Contains(p.Table, "lru(3, fluctuation 1)") {
		t.Errorf("optimal plays %q, want the table of the fluctuating capacity", p.Table)
	}
	o := tournament.ValidateOptions{Level: 0.01}
	right, err := s.Validate(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(right.Checks) == 0 {
		t.Fatal("no check against the exact values")
	}
	for _, c := range right.Checks {
		if c.Rejected {
			t.Errorf("%s rejected against the exact values: %s %.3g, p %.3g", c.Name, c.Test, c.Statistic, c.PValue)
		}
	}
}
