package tournament_test

import (
	"strings"
	"testing"

	"memsim/tournament"
)

// Under a fluctuating capacity and a pass rule the engine's games of win-optimal and of a win best
// response to safe, reading the tables of the fluctuating model by the capacity drawn, the lead
// and the pass flag, have seat 0's final share distributed as the solver's score distribution: a
// G test per seat order that is not rejected, and rejected in the negative control, which gives
// seat 0 seat 1's distribution.
func TestWinPoliciesUnderFluctuationHaveTheExactDistribution(t *testing.T) {
	suite := `name: fluct-win-dist
seed: 5
games: ` + shortGames(3000, 1500) + `
rules: {pairs: [4], pass: always}
players:
  - {name: win, policy: win-optimal, memory: {capacity: 2, forget: lru, fluctuation: 1}}
  - {name: safe, policy: safe, memory: {capacity: 2, forget: lru, fluctuation: 1}}
  - {name: wbr, policy: win-best-response, opponent: safe, memory: {capacity: 2, forget: lru, fluctuation: 1}}
`
	s := newSuite(t, "fluct-win-dist.yaml", suite)
	dists := 0
	for _, c := range agreesWithSolver(t, s) {
		if strings.HasSuffix(c.Name, "/distribution") && c.Test == "G" {
			dists++
		}
	}
	// Win-optimal and the win best response, each against safe, in both seat orders.
	if dists != 4 {
		t.Errorf("%d G tests of the distribution, want 4", dists)
	}
	if negativeControl(t, s, func(c tournament.Check) bool { return strings.HasSuffix(c.Name, "/distribution") }) == 0 {
		t.Errorf("the negative control's distributions were not rejected")
	}
}
