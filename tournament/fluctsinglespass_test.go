package tournament_test

import (
	"testing"

	"memsim/tournament"
)

// With singletons under a shared handover-uniform memory whose capacity fluctuates, under the
// pass rules two-known and always, optimal and best-response play the model's tables, read at the
// capacity drawn for each turn and just after a pass or not, and the engine's games agree with
// the solver's values; the negative control, which gives seat 0 seat 1's exact values, has some
// check rejected.
func TestFluctSingletonsPassEngineMatchesTheSolver(t *testing.T) {
	games, passes := "3000", []string{"two-known", "always"}
	if testing.Short() {
		games, passes = "400", passes[1:]
	}
	for _, pass := range passes {
		t.Run(pass, func(t *testing.T) {
			suite := `name: singletons-handover-fluctuation-` + pass + `
seed: 12
games: ` + games + `
rules: {pairs: [4], singletons: 1, pass: ` + pass + `}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 2, forget: handover-uniform, fluctuation: 1}}
  - {name: safe, policy: safe, memory: {capacity: 2, forget: handover-uniform, fluctuation: 1}}
  - {name: reply, policy: best-response, opponent: safe, memory: {capacity: 2, forget: handover-uniform, fluctuation: 1}}
`
			s := newSuite(t, "singletons-handover-fluctuation-"+pass+".yaml", suite)
			for i, want := range map[int]string{0: "two-player optimal table, handover-uniform(2, fluctuation 1) memory", 2: "best response to safe table, handover-uniform(2, fluctuation 1) memory"} {
				if p := s.Tournaments[0].Players[i]; p.Table != want {
					t.Errorf("player %d plays %q, want %q", i, p.Table, want)
				}
			}
			agreesWithSolver(t, s)
			if negativeControl(t, s, func(tournament.Check) bool { return true }) == 0 {
				t.Errorf("the negative control was not rejected")
			}
		})
	}
}
