package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestWinPoliciesUnderDecayAndPassPlayTheirTable builds win-optimal and a win best response to
// safe with a shared decay memory under the pass rules two-known and always and checks that each
// plays the decay model's table to win in every state and at every lead, just after a pass as
// well, and that the choice just after a pass differs from the one without somewhere.
func TestWinPoliciesUnderDecayAndPassPlayTheirTable(t *testing.T) {
	ctx := context.Background()
	const maxPairs, capacity = 5, 3
	decay := rules.ForgetDecay
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, mu := range []exact.Lineup{
			{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal},
			{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicySafe},
		} {
			spec := strategies.Spec{Name: "leaky", Policy: mu.Policy.String(),
				Memory: strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.2), Capacity: ptrTo(capacity)}}
			if mu.Policy == rules.PolicyWinBestResponse {
				spec.Opponent = mu.Opponent.String()
			}
			env := strategies.Env{MaxPairs: maxPairs, Players: 2, Pass: rule, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatalf("%v, %v: %v", rule, mu.Policy, err)
			}
			m := exact.Model{Pass: rule, Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 0.2}}
			want, err := exact.PolicyTable(ctx, field.Rat{}, m, mu, maxPairs)
			if err != nil {
				t.Fatal(err)
			}
			differ := 0
			for n := 1; n <= maxPairs; n++ {
				for j := max(0, n-capacity); j <= n; j++ {
					for d := -(maxPairs - n); d <= maxPairs-n; d++ {
						st := rules.State{N: n, J: j, Lead: d}
						for _, after := range []bool{false, true} {
							got, ok := b.Player.Table.Lookup(st, after)
							w, _ := want.Lookup(st, after)
							if !ok || got != w {
								t.Errorf("%v, %v, %v, after a pass %v: the player plays %v (%v), the decay table %v", rule, mu.Policy, st, after, got, ok, w)
							}
						}
						plain, _ := want.Lookup(st, false)
						after, _ := want.Lookup(st, true)
						if plain != after {
							differ++
						}
					}
				}
			}
			if differ == 0 && rule == rules.PassAlways {
				t.Errorf("%v, %v: the table's choices after a pass and without one agree everywhere", rule, mu.Policy)
			}
		}
	}
}
