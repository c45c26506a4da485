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

// TestEnginePlaysBlindLimitedTables builds optimal and best-response to daring under blind flips
// with a shared lru and handover-uniform memory of capacity 3, checks that the table the engine
// reads is the solver's (every state of up to 5 pairs), and plays 5 pairs with the engine against
// daring: seat 0's mean pairs must lie within 4.5 standard errors of the exact value.
func TestEnginePlaysBlindLimitedTables(t *testing.T) {
	ctx := context.Background()
	const pairs = 5
	games := 6000
	if testing.Short() {
		games = 1500
	}
	v := rules.Variant{Flips: rules.FlipsBlind}
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		mem := rules.Memory{Capacity: 3, Forget: fg}
		override := strategies.MemoryOverride{Capacity: ptrTo(3), Forget: &fg}
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
			name := fmt.Sprintf("%v, %s", mem, pol.spec.Policy)
			env := strategies.Env{MaxPairs: pairs, Players: 2, Variant: v, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, pol.spec, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := exact.PolicyTable(ctx, field.Rat{}, model, pol.mu, pairs)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for n := 1; n <= pairs; n++ {
				for j := max(0, n-3); j <= n; j++ {
					st := rules.State{N: n, J: j}
					got, ok := b.Player.Table.Lookup(st, false)
					if w, _ := want.Lookup(st, false); !ok || got != w {
						t.Errorf("%s, %v: the player plays %v (%v), the solver's table %v", name, st, got, ok, w)
					}
				}
			}
			checkEngineAgainstDaring(t, ctx, name, b.Player, pol.mu.Policy, env, override, model, pairs, games, 7)
		}
	}
}
