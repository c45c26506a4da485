package exact_test

// A card-level check of the win objective at three seats under a fluctuating capacity and the
// pass rules two-known and always (docs/models.md §4.4, §4.7 "Under a fluctuating capacity"): the
// play of fluctselfwin_cardlevel_test.go (fwGraph) with passes and the pass streak, compared with
// the solver's values at every streak.

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSelfWinPassCardLevel plays every seat win-optimal card by card at three seats, three
// pairs, under lru(3) and handover-uniform(3) with σ = 1 and the pass rules two-known and always,
// each mover reading the solver's table at the capacity drawn, the standings and the pass
// streak: every position's scores, wins, draws and pairs by seat at every streak are compared
// with the solver's (float64), and no choice made once, a pass included, gives the mover more.
func TestFluctSelfWinPassCardLevel(t *testing.T) {
	ctx := context.Background()
	const players, sigma, n = 3, 1, 3
	starts := []fwStart{{[]int{0, 2}, []int{0, 1, 0}}, {nil, []int{0, 0, 0}}}
	passes := []rules.PassRule{rules.PassTwoKnown, rules.PassAlways}
	forgets := []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform}
	if testing.Short() {
		// Handover-uniform forgets at a pass's hand-over, down to the capacity drawn.
		starts, passes, forgets = starts[:1], passes[:1], forgets[1:]
	}
	total := 0
	for _, fg := range forgets {
		for _, pass := range passes {
			model := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: fg, Fluctuation: sigma}, Pass: pass}
			lo, layers, err := exact.FluctSelfWinTables(ctx, field.Float{}, model, players, n)
			if err != nil {
				t.Fatalf("%s, pass %s: %v", model.Memory, pass, err)
			}
			read, err := exact.FluctSelfWinStreakValues(ctx, model, players, n)
			if err != nil {
				t.Fatalf("%s, pass %s: %v", model.Memory, pass, err)
			}
			total += checkFluctSelfWinCardLevel(t, model, players, n, starts, lo, layers, read)
		}
	}
	if total == 0 {
		t.Fatal("no value compared")
	}
	t.Logf("compared %d seats' values with card-level play", total)
}
