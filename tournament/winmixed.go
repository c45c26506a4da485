package tournament

import (
	"context"

	"memsim/analysis/exact"
	"memsim/sim"
	"memsim/sim/rules"
)

// mixedWinTables gives every win-optimal seat of a seating of three or more seats that mixes
// win-optimal with other policies the table of that seating (docs/models.md §4.7, "Win
// objective"): its choices depend on the other seats' policies and on its place among them, so
// seat k plays seat 0's table of the lineup seen from seat k. players (the seating's, in seat
// order) is changed in place; a seating that does not mix policies, or that the solver has no
// model for, keeps the players' own tables (win-optimal's is then that of every seat playing it).
// The random streams do not depend on the tables.
func (t *Tournament) mixedWinTables(ctx context.Context, n int, ids []int, players []sim.Player) error {
	model, mu, ok := t.mixedWinLineup(ids)
	if !ok {
		return nil
	}
	for k, id := range ids {
		if t.Players[id].Exact.Policy != rules.PolicyWinOptimal {
			continue
		}
		tab, err := t.tables.SeatWinTable(ctx, model, exact.RotateSeats(mu, k), n)
		if err != nil {
			return err
		}
		players[k].Table = tab
	}
	return nil
}

// mixedWinLineup returns the model and lineup of a seating (tournament player indices in seat
// order) of three or more table players of one shared memory and choice set, some playing
// win-optimal and the others optimal, safe, daring or parity, and false for any other seating or
// one the solver does not cover.
func (t *Tournament) mixedWinLineup(ids []int) (exact.Model, exact.Lineup, bool) {
	if len(ids) < 3 {
		return exact.Model{}, exact.Lineup{}, false
	}
	pols := make([]rules.Policy, len(ids))
	e0 := t.Players[ids[0]].Exact
	for i, id := range ids {
		e := t.Players[id].Exact
		if e == nil || e.Memory != e0.Memory || e.Choices != e0.Choices {
			return exact.Model{}, exact.Lineup{}, false
		}
		pols[i] = e.Policy
	}
	mu := exact.SeatLineup(pols...)
	model := t.modelOf(e0)
	if !mu.SelfWinMixed() || model.Validate() != nil || mu.Validate(model) != nil {
		return exact.Model{}, exact.Lineup{}, false
	}
	return model, mu, true
}

// MixedWinSeconds bounds the estimated time of the exact values of a seating that mixes
// win-optimal with other policies (exact.Estimate, in exact rationals): a seating whose solve
// would take longer has none.
const MixedWinSeconds = 10
