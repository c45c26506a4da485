package tournament_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestValidateWinOptimalThreeSeatsUnderLimitedMemory checks three seats of win-optimal under a
// shared lru and handover-uniform memory against the solver: the checks pass, fall in the family
// win, and expect the rates of wins and draws that the solver gives the seating (the tournament
// has exact values for it).
func TestValidateWinOptimalThreeSeatsUnderLimitedMemory(t *testing.T) {
	ctx := context.Background()
	for _, forget := range []string{"lru", "handover-uniform"} {
		suite := fmt.Sprintf(`name: win-limited
seed: 9
games: `+shortGames(3000, 1200)+`
rules: {pairs: [5], players_per_game: 3}
players:
  - {name: a, policy: win-optimal, memory: {capacity: 3, forget: %[1]s}}
  - {name: b, policy: win-optimal, memory: {capacity: 3, forget: %[1]s}}
  - {name: c, policy: win-optimal, memory: {capacity: 3, forget: %[1]s}}
`, forget)
		checks := agreesWithSolver(t, newSuite(t, "win-limited.yaml", suite))
		fg, err := rules.ParseForgetting(forget)
		if err != nil {
			t.Fatal(err)
		}
		want, err := exact.EvaluateStandings(ctx, field.Float{}, exact.Model{Memory: rules.Memory{Capacity: 3, Forget: fg}},
			exact.Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, rules.State{N: 5, J: 5}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rates := 0
		for _, c := range checks {
			if c.Family != "win" {
				t.Errorf("%s: %s: family %q, want win", forget, c.Name, c.Family)
			}
			for s := range 3 {
				for what, w := range map[string]float64{"win rate": want.Win[s], "draw rate": want.Draw[s]} {
					if strings.HasSuffix(c.Name, fmt.Sprintf("/%s seat %d", what, s)) {
						rates++
						if c.Expected == nil || math.Abs(*c.Expected-w) > 1e-9 {
							t.Errorf("%s: %s expects %v, the solver %v", forget, c.Name, c.Expected, w)
						}
					}
				}
			}
		}
		// Six seat orders, three seats, wins and draws.
		if rates != 6*3*2 {
			t.Errorf("%s: %d rate checks, want 36", forget, rates)
		}
	}
}
