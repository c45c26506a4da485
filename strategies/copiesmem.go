package strategies

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// buildCopiesMem makes a player of optimal or best-response (answering opp) under a variant with
// more than two copies of a face and a shared handover-uniform memory mem of a fixed capacity, two
// seats under any pass rule or three to eight under pass rule never (copiesMemModel), or a shared
// decay memory, likewise (copiesDecayModel): it plays the table of the copies model under that
// memory (docs/models.md §4.16, "A handover-uniform memory"), read by the state of faces the
// shared memory holds.
func buildCopiesMem(ctx context.Context, b Built, model exact.Model, mem rules.Memory, p, opp rules.Policy, env Env) (Built, error) {
	k := model.Variant.CopiesOf()
	if p != rules.PolicyOptimal && p != rules.PolicyBestResponse {
		return Built{}, fmt.Errorf("policy %s with %s and %s memory: no exact model (allowed: optimal, best-response, safe, daring)", p, model.Variant, mem)
	}
	model.Memory = mem
	// At three or more seats optimal is every seat's own optimum, best-response one seat's reply
	// to the others playing opp.
	mu := exact.Lineup{Players: env.Players, Policy: p, Opponent: opp}
	if err := mu.Validate(model); err != nil {
		return Built{}, fmt.Errorf("policy %s with %s: %w", p, model.Variant, err)
	}
	t, err := env.Tables.get(ctx, model, mu, env.MaxPairs)
	if err != nil {
		return Built{}, fmt.Errorf("policy %s with %s and %s memory: %w", p, model.Variant, mem, err)
	}
	b.Player.Table = t
	b.Table = fmt.Sprintf("%s table, copies %d, %s memory", tableName(mu), k, mem)
	if l := model.Variant.TurnLimit; l > 0 {
		b.Table += fmt.Sprintf(", turn limit %d (a layer per number of turns left)", l)
	}
	if !model.Choices.Full() {
		b.Table += ", choices " + model.Choices.String()
	}
	b.Exact = &Exact{Policy: p, Opponent: opp, Memory: mem, Choices: model.Choices}
	return b, nil
}

// copiesMemTable solves the table of mu in the copies model under a shared handover-uniform
// memory m for deals of up to maxPairs pairs, under a turn limit a layer per number of turns
// left: in exact rationals where the deal has at most
// exact.CopiesRationalStates count states (exact.CopiesCells, which bounds the states of faces
// the memory reaches), in float64 otherwise.
func copiesMemTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	k := m.Variant.CopiesOf()
	cells := exact.CopiesCells(maxPairs, k, 0)
	var ct *rules.CopiesTable
	var err error
	limit := m.Variant.TurnLimit
	switch {
	case cells < 0 || cells > exact.CopiesStateLimit:
		return nil, fmt.Errorf("%d pairs with copies %d: about %d count states, more than the %d the solver takes", maxPairs, k, cells, exact.CopiesStateLimit)
	case limit > 0 && cells <= exact.CopiesRationalStates:
		layers, err := exact.CopiesMemPolicyTurnTables(ctx, field.Rat{}, m, mu, maxPairs)
		return copiesLayers(maxPairs, limit, layers, err)
	case limit > 0:
		layers, err := exact.CopiesMemPolicyTurnTables(ctx, field.Float{}, m, mu, maxPairs)
		return copiesLayers(maxPairs, limit, layers, err)
	case cells <= exact.CopiesRationalStates:
		ct, err = exact.CopiesMemPolicyTable(ctx, field.Rat{}, m, mu, maxPairs)
	default:
		ct, err = exact.CopiesMemPolicyTable(ctx, field.Float{}, m, mu, maxPairs)
	}
	if err != nil {
		return nil, err
	}
	return rules.NewCopiesChoiceTable(maxPairs, ct)
}
