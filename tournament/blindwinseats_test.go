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
	"memsim/tournament"
)

// TestValidateBlindWinThreeSeatsUnderPassRuleAndLimit plays three seats under blind flips and a
// shared memory of capacity 3, card by card in the engine: two seats of win-optimal beside daring
// under lru and pass rule always, whose checks pass against the solver and whose negative control
// (each seat given another seat's values) has some check rejected; and, in the long form, three
// seats of win-optimal under handover-uniform, pass rule two-known and a turn limit of 6, whose
// checks pass and expect the solver's rates of wins and draws for the seating
// (EvaluateStandings).
func TestValidateBlindWinThreeSeatsUnderPassRuleAndLimit(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		forget string
		rule   rules.PassRule
		limit  int
		third  string
	}{
		{"lru", rules.PassAlways, 0, "daring"},
		{"handover-uniform", rules.PassTwoKnown, 6, "win-optimal"},
	}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		limit := ""
		if c.limit > 0 {
			limit = fmt.Sprintf(", turn_limit: %d", c.limit)
		}
		suite := fmt.Sprintf(`name: blind-win-seats
seed: 11
games: 2000
rules: {pairs: [3], players_per_game: 3, flips: blind, pass: %[2]s%[3]s}
players:
  - {name: a, policy: win-optimal, memory: {capacity: 3, forget: %[1]s}}
  - {name: b, policy: win-optimal, memory: {capacity: 3, forget: %[1]s}}
  - {name: c, policy: %[4]s, memory: {capacity: 3, forget: %[1]s}}
`, c.forget, c.rule, limit, c.third)
		s := newSuite(t, "blind-win-seats.yaml", suite)
		fg, err := rules.ParseForgetting(c.forget)
		if err != nil {
			t.Fatal(err)
		}
		m := exact.Model{Pass: c.rule, Memory: rules.Memory{Capacity: 3, Forget: fg}, Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: c.limit}}
		if c.third != "win-optimal" {
			agreesWithSolver(t, s)
			if negativeControl(t, s, func(tournament.Check) bool { return true }) == 0 {
				t.Errorf("%s, %s: the negative control was not rejected", c.forget, c.rule)
			}
			continue
		}
		want, err := exact.EvaluateStandings(ctx, field.Float{}, m, exact.Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}, rules.State{N: 3, J: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rates := 0
		for _, ch := range agreesWithSolver(t, s) {
			for seat := range 3 {
				for what, w := range map[string]float64{"win rate": want.Win[seat], "draw rate": want.Draw[seat]} {
					if strings.HasSuffix(ch.Name, fmt.Sprintf("/%s seat %d", what, seat)) {
						rates++
						if ch.Expected == nil || math.Abs(*ch.Expected-w) > 1e-9 {
							t.Errorf("%s, %s: %s expects %v, the solver %v", c.forget, c.rule, ch.Name, ch.Expected, w)
						}
					}
				}
			}
		}
		if rates == 0 {
			t.Errorf("%s, %s: no check of the rates of wins and draws", c.forget, c.rule)
		}
	}
}
