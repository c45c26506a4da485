package tournament_test

import (
	"strings"
	"testing"

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
	s := newSuite(t, "fluct-limit.yaml", suite)
	if p := s.Tournaments[0].Players[0]; !strings.Contains(p.Table, "optimal table, lru(3, fluctuation 1) memory") {
		t.Errorf("optimal plays %q, want the table of the fluctuating capacity", p.Table)
	}
	agreesWithSolver(t, s)
	if negativeControl(t, s, func(tournament.Check) bool { return true }) == 0 {
		t.Errorf("the negative control was not rejected")
	}
}
