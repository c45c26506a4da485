package tournament_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Three seats playing win-optimal (every seat maximising its own P(most pairs)) are checked
// against the solver: every seat's mean pairs and its rates of wins and draws pass, and at 8
// pairs seat 0's mean pairs is far from what the optimum of every seat in expected pairs would
// give, so the engine plays the standings table, not the pair optimum's.
func TestValidateWinOptimalThreeSeats(t *testing.T) {
	suite := `name: win-three
seed: 5
games: ` + shortGames(4000, 1500) + `
rules: {pairs: [4, 8], players_per_game: 3}
players:
  - {name: a, policy: win-optimal}
  - {name: b, policy: win-optimal}
  - {name: c, policy: win-optimal}
`
	ctx := context.Background()
	checks := agreesWithSolver(t, newSuite(t, "win-three.yaml", suite))
	pairOptimum, err := exact.Evaluate(ctx, field.Float{}, exact.Model{},
		exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, rules.State{N: 8, J: 8})
	if err != nil {
		t.Fatal(err)
	}
	rates, far := 0, 0
	for _, c := range checks {
		if c.Family != "win" {
			t.Errorf("%s: family %q, want win", c.Name, c.Family)
		}
		if c.Test == "binomial" {
			rates++
		}
		if strings.Contains(c.Name, "n=8/") && strings.HasSuffix(c.Name, "/mean pairs seat 0") {
			if d := math.Abs(*c.Observed - pairOptimum.PairsBySeat[0]); d > 0.15 {
				far++
			} else {
				t.Errorf("%s: observed %g, within %g of the pair optimum's %g", c.Name, *c.Observed, d, pairOptimum.PairsBySeat[0])
			}
		}
	}
	// Two sizes, six seat orders, three seats, wins and draws.
	if rates != 2*6*3*2 || far != 6 {
		t.Errorf("%d rate checks, want 72; %d seat orders at 8 pairs far from the pair optimum, want 6", rates, far)
	}
}
