package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Under a fluctuating capacity and pass rule always, win-optimal and a win best response to
// optimal play the tables of the fluctuating model, read by the capacity drawn, the lead and
// whether the other seat just passed, and the engine's games agree with the solver: seat 0's mean
// pairs and rates of wins and draws pass every check against the exact values, and the negative
// control, which gives seat 0 seat 1's exact values, has a rate of wins or draws rejected. The
// tables pass in these deals, both without and just after a pass.
func TestWinPoliciesUnderFluctuationAndPassesMatchTheSolver(t *testing.T) {
	suite := `name: fluct-win-always
seed: 5
games: ` + shortGames(3000, 1500) + `
rules: {pairs: [4], pass: always}
players:
  - {name: win, policy: win-optimal, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
  - {name: wbr, policy: win-best-response, opponent: optimal, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
`
	ctx := context.Background()
	mem := rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}
	m := exact.Model{Memory: mem, Pass: rules.PassAlways}
	for _, mu := range []exact.Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyOptimal},
	} {
		tab, err := exact.FluctWinTable(ctx, field.Float{}, m, mu, 4)
		if err != nil {
			t.Fatal(err)
		}
		var passes [2]bool
		for c := 2; c <= 4; c++ {
			for j := 0; j <= 4; j++ {
				for d := -4; d <= 4; d++ {
					for g, after := range []bool{false, true} {
						ch, ok := tab.LookupCapacity(rules.State{N: 4, J: j, Lead: d}, after, c)
						passes[g] = passes[g] || ok && ch == rules.Pass
					}
				}
			}
		}
		if !passes[0] || !passes[1] {
			t.Errorf("%s: the table of 4 pairs passes without a pass just made %t, just after one %t; want both", mu.Policy, passes[0], passes[1])
		}
	}
	checkWinRates(t, "fluct-win-always.yaml", suite, "win-optimal table, handover-uniform(3, fluctuation 1) memory", func(name string) bool {
		return strings.HasSuffix(name, "/win rate seat 0") || strings.HasSuffix(name, "/draw rate seat 0")
	})
}
