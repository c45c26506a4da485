package strategies

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesOnly reports whether v differs from the standard game in its copies only: the variant
// the copies model solves (docs/models.md §4.16).
func copiesOnly(v rules.Variant) bool {
	return v.CopiesOf() != rules.DefaultCopies && v.Flips == rules.FlipsSequential && v.TurnLimit == 0
}

// variantNote returns why a table player with memory mem under the model's variant has no exact
// model, or "" when the copies model covers it.
func variantNote(model exact.Model, mem rules.Memory) string {
	if !copiesOnly(model.Variant) || !mem.Perfect() || model.Validate() != nil {
		return "the exact models cover the standard game and copies with perfect memory only"
	}
	return ""
}

// buildCopies makes a player of optimal or best-response (answering opp), written name, under a
// variant that differs from the standard game in its copies only: it plays the copies model's
// table.
func buildCopies(ctx context.Context, b Built, model exact.Model, mem rules.Memory, name string, p, opp rules.Policy, env Env) (Built, error) {
	k := model.Variant.CopiesOf()
	if !mem.Perfect() {
		return Built{}, fmt.Errorf("policy %s with copies %d plays the exact model of perfect memory, not %s memory (use safe or daring, or perfect memory)", name, k, mem)
	}
	model.Memory = rules.Memory{}
	if err := model.Validate(); err != nil {
		return Built{}, fmt.Errorf("policy %s: %w", p, err)
	}
	mu := exact.Lineup{Players: tablePlayers(p, model, env), Policy: p, Opponent: opp}
	t, err := env.Tables.get(ctx, model, mu, env.MaxPairs)
	if err != nil {
		return Built{}, fmt.Errorf("policy %s with copies %d: %w", p, k, err)
	}
	b.Player.Table = t
	b.Table = fmt.Sprintf("%s table, copies %d, perfect memory", tableName(mu), k)
	if !model.Choices.Full() {
		b.Table += ", choices " + model.Choices.String()
	}
	b.Exact = &Exact{Policy: p, Opponent: opp, Memory: model.Memory, Choices: model.Choices}
	return b, nil
}

// copiesTable solves the copies model's table of mu for deals of up to maxPairs pairs: in exact
// rationals where it has at most exact.CopiesRationalStates states, in float64 otherwise.
func copiesTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	k := m.Variant.CopiesOf()
	states := exact.CopiesStates(maxPairs, k)
	var ct *rules.CopiesTable
	var err error
	switch {
	case states < 0 || states > exact.CopiesStateLimit:
		return nil, fmt.Errorf("%d pairs with copies %d: about %d count states, more than the %d the solver takes", maxPairs, k, states, exact.CopiesStateLimit)
	case states <= exact.CopiesRationalStates:
		ct, err = exact.CopiesPolicyTable(ctx, field.Rat{}, m, mu, maxPairs)
	default:
		ct, err = exact.CopiesPolicyTable(ctx, field.Float{}, m, mu, maxPairs)
	}
	if err != nil {
		return nil, err
	}
	return rules.NewCopiesChoiceTable(maxPairs, ct)
}
