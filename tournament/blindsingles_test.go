package tournament_test

import (
	"testing"

	"memsim/tournament"
)

// TestValidateBlindSinglesTwoSeats plays blind flips with two singletons and perfect memory card by
// card in the engine, the optimum's table against safe: its checks pass against the solver's
// values, and its negative control (each seat given the other's values) has some check rejected.
func TestValidateBlindSinglesTwoSeats(t *testing.T) {
	games := "20000"
	if testing.Short() {
		games = "5000" // enough for the negative control to be rejected
	}
	s := newSuite(t, "blind-singles.yaml", `name: blind-singles
seed: 12
games: `+games+`
rules: {pairs: [3], singletons: 2, flips: blind}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
`)
	agreesWithSolver(t, s)
	if negativeControl(t, s, func(tournament.Check) bool { return true }) == 0 {
		t.Error("the negative control was not rejected")
	}
}
