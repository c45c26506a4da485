package strategies

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesModel reports whether v has more than two copies of a face, under either flip rule, with
// or without a turn limit: the variants the copies model solves (docs/models.md §4.16).
func copiesModel(v rules.Variant) bool {
	return v.CopiesOf() != rules.DefaultCopies
}

// variantNote returns why a table player with memory mem under the model's variant has no exact
// model, or "" when the copies model covers it.
func variantNote(model exact.Model, mem rules.Memory, players int) string {
	if copiesMemModel(model, mem, players) || copiesDecayModel(model, mem, players) {
		return ""
	}
	if !copiesModel(model.Variant) || !mem.Perfect() || model.Validate() != nil {
		return "the copies model covers perfect memory without singletons, under every pass rule, with or without a turn limit, a shared handover-uniform memory of a fixed capacity at two seats under every pass rule and at three to eight seats under pass rule never, and a shared decay memory at two seats under every pass rule and at three to eight seats under pass rule never"
	}
	return ""
}

// copiesMemModel reports whether a player with memory mem at a table of the given number of
// seats plays the copies model under a shared handover-uniform memory (docs/models.md §4.16):
// a shared handover-uniform memory of a fixed capacity, sequential flips, no singletons, and two
// seats under any pass rule, with or without a turn limit, or three to eight seats under pass
// rule never without one.
func copiesMemModel(model exact.Model, mem rules.Memory, players int) bool {
	return copiesSharedModel(model, mem, players, rules.ForgetHandoverUniform)
}

// copiesSharedModel reports whether a player with memory mem, which forgets by forget, plays the
// copies model under that shared memory at a table of the given number of seats: a shared memory
// of no fluctuation, and two seats under any pass rule, with or without a turn limit, or three to
// eight seats under pass rule never without one, in a model the solver accepts.
func copiesSharedModel(model exact.Model, mem rules.Memory, players int, forget rules.Forgetting) bool {
	if !copiesModel(model.Variant) || mem.Forget != forget || mem.Scope != rules.ScopeShared || mem.Fluctuation > 0 {
		return false
	}
	seats := players == 2 || players >= 3 && players <= rules.MaxPlayers && model.Pass == rules.PassNever && model.Variant.TurnLimit == 0
	if !seats {
		return false
	}
	model.Memory = mem
	return model.Validate() == nil
}

// buildCopies makes a player of optimal or best-response (answering opp), written name, under a
// variant the copies model solves: it plays the copies model's table, under a turn limit a layer
// per number of turns left.
func buildCopies(ctx context.Context, b Built, model exact.Model, mem rules.Memory, name string, p, opp rules.Policy, env Env) (Built, error) {
	k := model.Variant.CopiesOf()
	if copiesMemModel(model, mem, env.Players) || copiesDecayModel(model, mem, env.Players) {
		return buildCopiesMem(ctx, b, model, mem, p, opp, env) // copiesmem.go; its table is copiesTable's
	}
	if !mem.Perfect() {
		return Built{}, fmt.Errorf("policy %s with %s plays the exact model of perfect memory, of a shared handover-uniform memory of a fixed capacity at two seats under any pass rule or at three to eight under pass rule never, or of a shared decay memory at two seats under any pass rule or at three to eight under pass rule never, not %s memory at %d seats (use safe or daring, or one of those memories)", name, model.Variant, mem, env.Players)
	}
	model.Memory = rules.Memory{}
	if err := model.Validate(); err != nil {
		return Built{}, fmt.Errorf("policy %s: %w", p, err)
	}
	mu := exact.Lineup{Players: tablePlayers(p, model, env), Policy: p, Opponent: opp}
	t, err := env.Tables.get(ctx, model, mu, env.MaxPairs)
	if err != nil {
		return Built{}, fmt.Errorf("policy %s with %s: %w", p, model.Variant, err)
	}
	b.Player.Table = t
	b.Table = fmt.Sprintf("%s table, copies %d, perfect memory", tableName(mu), k)
	if l := model.Variant.TurnLimit; l > 0 {
		b.Table += fmt.Sprintf(", turn limit %d (a layer per number of turns left)", l)
	}
	if !model.Choices.Full() {
		b.Table += ", choices " + model.Choices.String()
	}
	b.Exact = &Exact{Policy: p, Opponent: opp, Memory: model.Memory, Choices: model.Choices}
	return b, nil
}

// copiesTable solves the copies model's table of mu for deals of up to maxPairs pairs: in exact
// rationals where it has at most exact.CopiesRationalStates cells (count states, times the turns
// under a turn limit: exact.CopiesCells), in float64 otherwise. Under a turn limit the table has
// a layer per number of turns left.
func copiesTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	if m.Memory.Forget == rules.ForgetDecay {
		return copiesDecayTable(ctx, m, mu, maxPairs) // copiesdecay.go
	}
	if !m.Memory.Perfect() {
		return copiesMemTable(ctx, m, mu, maxPairs) // copiesmem.go
	}
	k, limit := m.Variant.CopiesOf(), m.Variant.TurnLimit
	cells := exact.CopiesCells(maxPairs, k, limit)
	var layers []*rules.CopiesTable
	var err error
	switch {
	case cells < 0 || cells > exact.CopiesStateLimit:
		return nil, fmt.Errorf("%d pairs with copies %d, turn limit %d: about %d count states and turns left, more than the %d the solver takes", maxPairs, k, limit, cells, exact.CopiesStateLimit)
	case mu.Policy.PlaysToWin() && mu.Players > 2:
		return copiesSelfWinTable(ctx, m, mu, maxPairs) // copiesselfwin.go
	case mu.Policy.PlaysToWin():
		return copiesWinTable(ctx, m, mu, maxPairs)
	case limit == 0 && cells <= exact.CopiesRationalStates:
		layers, err = oneLayer(exact.CopiesPolicyTable(ctx, field.Rat{}, m, mu, maxPairs))
	case limit == 0:
		layers, err = oneLayer(exact.CopiesPolicyTable(ctx, field.Float{}, m, mu, maxPairs))
	case cells <= exact.CopiesRationalStates:
		layers, err = exact.CopiesPolicyTurnTables(ctx, field.Rat{}, m, mu, maxPairs)
	default:
		layers, err = exact.CopiesPolicyTurnTables(ctx, field.Float{}, m, mu, maxPairs)
	}
	return copiesLayers(maxPairs, limit, layers, err)
}

// copiesWinTable solves the copies model's table of mu, whose seat 0 plays to win, for deals of up
// to maxPairs pairs: a choice in every state of faces at every lead (under a turn limit, a layer
// per number of turns left), in exact rationals where the states times the leads (and the turns:
// exact.CopiesWinCells) are at most exact.CopiesRationalStates, in float64 otherwise.
func copiesWinTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	var layers []*rules.CopiesTable
	var err error
	limit := m.Variant.TurnLimit
	cells := exact.CopiesWinCells(maxPairs, m.Variant.CopiesOf(), limit)
	switch exactly := cells >= 0 && cells <= exact.CopiesRationalStates; {
	case limit > 0 && exactly:
		layers, err = exact.CopiesWinPolicyTurnTables(ctx, field.Rat{}, m, mu, maxPairs)
	case limit > 0:
		layers, err = exact.CopiesWinPolicyTurnTables(ctx, field.Float{}, m, mu, maxPairs)
	case exactly:
		layers, err = oneLayer(exact.CopiesWinPolicyTable(ctx, field.Rat{}, m, mu, maxPairs))
	default:
		layers, err = oneLayer(exact.CopiesWinPolicyTable(ctx, field.Float{}, m, mu, maxPairs))
	}
	return copiesLayers(maxPairs, limit, layers, err)
}

// oneLayer returns the one table of a copies model solved without a turn limit as its only layer.
func oneLayer(ct *rules.CopiesTable, err error) ([]*rules.CopiesTable, error) {
	return []*rules.CopiesTable{ct}, err
}

// copiesLayers returns the engine's table of the copies model's tables solved with error err:
// the one layer without a turn limit (limit 0), or a layer per number of turns left under one.
func copiesLayers(maxPairs, limit int, layers []*rules.CopiesTable, err error) (*rules.ChoiceTable, error) {
	if err != nil {
		return nil, err
	}
	tables := make([]*rules.ChoiceTable, len(layers))
	for i, ct := range layers {
		if tables[i], err = rules.NewCopiesChoiceTable(maxPairs, ct); err != nil {
			return nil, err
		}
	}
	if limit == 0 {
		return tables[0], nil
	}
	return rules.NewTurnChoiceTable(tables)
}
