package tournament_test

import (
	"strings"
	"testing"

	"memsim/tournament"
)

// With singletons under a shared handover-uniform memory and pass rule always, optimal and
// best-response play the tables of the model, with their choices just after a pass, and the
// engine's games agree with the solver: best-response to safe passes where the solver says so
// (worth 2.693 pairs of 4 against 2.565 under pass rule never, `memsim solve --pairs 4
// --singletons 1 --memory 2 --forget handover-uniform --pass always --policy best-response
// --opponent safe --value-only`), and the negative control, which gives seat 0 seat 1's exact
// values, has some check rejected.
func TestHandoverSingletonsUnderPassRuleMatchesTheSolver(t *testing.T) {
	const suite = `name: singletons-handover-pass
seed: 7
games: 3000
rules: {pairs: [4], singletons: 1, pass: always}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 2, forget: handover-uniform}}
  - {name: safe, policy: safe, memory: {capacity: 2, forget: handover-uniform}}
  - {name: reply, policy: best-response, opponent: safe, memory: {capacity: 2, forget: handover-uniform}}
`
	s := newSuite(t, "singletons-handover-pass.yaml", suite)
	if p := s.Tournaments[0].Players[2]; !strings.Contains(p.Table, "best response to safe table, handover-uniform(2) memory") {
		t.Errorf("best-response plays %q, want the table of the model", p.Table)
	}
	agreesWithSolver(t, s)
	if negativeControl(t, s, func(tournament.Check) bool { return true }) == 0 {
		t.Errorf("the negative control was not rejected")
	}
}
