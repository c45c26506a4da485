package tournament_test

import (
	"testing"

	"memsim/tournament"
)

// The policies that play to win under decay forgetting with singletons and under blind flips with
// decay forgetting play the solver's tables by lead card by card, and the engine's games agree
// with the solver's values; the negative control, which gives each seat another seat's exact
// values, has some check rejected.
func TestDecayWinSingletonsAndBlindEngineMatchesTheSolver(t *testing.T) {
	games := "2000"
	if testing.Short() {
		games = "300"
	}
	suite := `name: singletons-decay-win
seed: 12
games: ` + games + `
rules: {pairs: [4], singletons: 1}
players:
  - {name: win, policy: win-optimal, memory: {capacity: 3, forget: decay, q: 0.3}}
  - {name: safe, policy: safe, memory: {capacity: 3, forget: decay, q: 0.3}}
  - {name: win-br-safe, policy: win-best-response, opponent: safe, memory: {capacity: 3, forget: decay, q: 0.3}}
---
name: blind-decay-win
seed: 13
games: ` + games + `
rules: {pairs: [4], flips: blind, pass: always}
players:
  - {name: win, policy: win-optimal, memory: {forget: decay, q: 0.2}}
  - {name: daring, policy: daring, memory: {forget: decay, q: 0.2}}
`
	s := newSuite(t, "decay-win.yaml", suite)
	agreesWithSolver(t, s)
	if negativeControl(t, s, func(tournament.Check) bool { return true }) == 0 {
		t.Errorf("the negative control was not rejected")
	}
}
