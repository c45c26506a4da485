package tournament_test

import (
	"strings"
	"testing"
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
	s := newSuite(t, "fluct-limit-three.yaml", suite)
	if p := s.Tournaments[0].Players[0]; !strings.Contains(p.Table, "lru(3, fluctuation 1)") {
		t.Errorf("optimal plays %q, want the table of the fluctuating capacity", p.Table)
	}
	agreesWithSolver(t, s)
}
