package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// Under a fluctuating capacity and a turn limit optimal and best-response play the tables of the
// model, read by the capacity drawn and the turns left, and the engine's games agree with the
// solver: both seats' mean pairs within the limit pass every check against the exact values, and
// the negative control, which gives seat 0 seat 1's exact values, has some check rejected.
func TestFluctuationUnderTurnLimitMatchesTheSolver(t *testing.T) {
	const suite = `name: fluct-limit
seed: 5
games: 3000
rules: {pairs: [4], turn_limit: 5, pass: two-known}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: safe, policy: safe, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: reply, policy: best-response, opponent: safe, memory: {capacity: 3, forget: lru, fluctuation: 1}}
`
	ctx := context.Background()
	cfgs, err := configs.ParseSuite("fluct-limit.yaml", []byte(suite), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSuite(ctx, cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Tournaments[0].Players[0]; !strings.Contains(p.Table, "optimal table, lru(3, fluctuation 1) memory") {
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
	wrong, err := s.ValidateWrongExpectation(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range wrong.Checks {
		if c.Rejected {
			return
		}
	}
	t.Errorf("the negative control was not rejected")
}
