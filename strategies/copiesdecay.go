package strategies

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesDecayModel reports whether a player with memory mem at a table of the given number of
// seats plays the copies model under a shared decay memory (docs/models.md §4.16, "A decay
// memory"): a shared decay memory, with or without a fixed capacity, sequential flips, no
// singletons, and two seats under any pass rule, with or without a turn limit, or three to eight
// seats under pass rule never without one.
func copiesDecayModel(model exact.Model, mem rules.Memory, players int) bool {
	return copiesSharedModel(model, mem, players, rules.ForgetDecay)
}

// copiesDecayTable solves the table of mu in the copies model under a shared decay memory m for
// deals of up to maxPairs pairs, under a turn limit a layer per number of turns left: in exact
// rationals where the deal has at most
// exact.CopiesRationalStates count states (exact.CopiesCells, which bounds the states of faces
// the memory reaches), in float64 otherwise.
func copiesDecayTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	k := m.Variant.CopiesOf()
	cells := exact.CopiesCells(maxPairs, k, 0)
	var ct *rules.CopiesTable
	var err error
	limit := m.Variant.TurnLimit
	switch {
	case cells < 0 || cells > exact.CopiesStateLimit:
		return nil, fmt.Errorf("%d pairs with copies %d: about %d count states, more than the %d the solver takes", maxPairs, k, cells, exact.CopiesStateLimit)
	case limit > 0 && cells <= exact.CopiesRationalStates:
		layers, err := exact.CopiesDecayPolicyTurnTables(ctx, field.Rat{}, m, mu, maxPairs)
		return copiesLayers(maxPairs, limit, layers, err)
	case limit > 0:
		layers, err := exact.CopiesDecayPolicyTurnTables(ctx, field.Float{}, m, mu, maxPairs)
		return copiesLayers(maxPairs, limit, layers, err)
	case cells <= exact.CopiesRationalStates:
		ct, err = exact.CopiesDecayPolicyTable(ctx, field.Rat{}, m, mu, maxPairs)
	default:
		ct, err = exact.CopiesDecayPolicyTable(ctx, field.Float{}, m, mu, maxPairs)
	}
	if err != nil {
		return nil, err
	}
	return rules.NewCopiesChoiceTable(maxPairs, ct)
}
