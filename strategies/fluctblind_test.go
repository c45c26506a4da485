package strategies_test

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestEnginePlaysFluctBlindTables builds optimal and best-response to daring under blind flips
// with a shared lru and handover-uniform memory of capacity 3 fluctuating by 1, checks that the
// table the engine reads holds, at every capacity drawn, the solver's choice in every state of up
// to 5 pairs, and plays 5 pairs with the engine against daring: seat 0's mean pairs must lie
// within 4.5 standard errors of the exact value.
func TestEnginePlaysFluctBlindTables(t *testing.T) {
	ctx := context.Background()
	const pairs = 5
	games := 6000
	if testing.Short() {
		games = 1500
	}
	v := rules.Variant{Flips: rules.FlipsBlind}
	differ := 0
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		mem := rules.Memory{Capacity: 3, Forget: fg, Fluctuation: 1}
		override := strategies.MemoryOverride{Capacity: ptrTo(3), Forget: &fg, Fluctuation: ptrTo(1)}
		model := exact.Model{Memory: mem, Variant: v}
		for _, pol := range []struct {
			spec strategies.Spec
			mu   exact.Lineup
		}{
			{strategies.Spec{Name: "opt", Policy: "optimal", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
			{strategies.Spec{Name: "br", Policy: "best-response", Opponent: "daring", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}},
		} {
			name := fmt.Sprintf("%v blind, %s", mem, pol.spec.Policy)
			env := strategies.Env{MaxPairs: pairs, Players: 2, Variant: v, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, pol.spec, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var want *rules.ChoiceTable
			if pol.mu.Policy == rules.PolicyOptimal {
				want, err = exact.FluctTable(ctx, field.Rat{}, model, pairs)
			} else {
				want, err = exact.FluctReplyTable(ctx, field.Rat{}, model, rules.PolicyDaring, pairs)
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			differ += checkCapacityLayers(t, name, b.Player.Table, want, 2, 4, pairs, fg == rules.ForgetLRU)
			if b.Exact == nil || b.Exact.Memory != mem {
				t.Errorf("%s: the player is valued in %+v, want the fluctuating model %v", name, b.Exact, mem)
			}
			checkEngineAgainstDaring(t, ctx, name, b.Player, pol.mu.Policy, env, override, model, pairs, games, 11)
		}
	}
	if differ == 0 {
		t.Error("the choices agree at every capacity: the test cannot tell the layers apart")
	}
}
