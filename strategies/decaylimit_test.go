package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestDecayUnderTurnLimitPlaysTheSolversChoices builds optimal and best-response to safe with a
// shared decay memory (q = 0.1, with and without a capacity of 3) under a turn limit and pass rule
// always, and checks that the table the engine reads holds, in every layer of turns left, the
// first best choice of the solver's choices' values with that many turns left (ChoiceValuesAt),
// and just after a pass the solver's table; and that the layers differ somewhere, so that reading
// the wrong layer would show.
func TestDecayUnderTurnLimitPlaysTheSolversChoices(t *testing.T) {
	ctx := context.Background()
	const maxPairs, limit = 4, 6
	decay := rules.ForgetDecay
	for _, capacity := range []int{0, 3} {
		mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 0.1}
		override := strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.1)}
		if capacity > 0 {
			override.Capacity = ptrTo(capacity)
		}
		v := rules.Variant{TurnLimit: limit}
		m := exact.Model{Pass: rules.PassAlways, Memory: mem, Variant: v}
		for _, pol := range []struct {
			spec strategies.Spec
			mu   exact.Lineup
		}{
			{strategies.Spec{Name: "opt", Policy: "optimal", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
			{strategies.Spec{Name: "br", Policy: "best-response", Opponent: "safe", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}},
		} {
			env := strategies.Env{MaxPairs: maxPairs, Players: 2, Pass: rules.PassAlways, Variant: v, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, pol.spec, env)
			if err != nil {
				t.Fatal(err)
			}
			table, err := exact.PolicyTable(ctx, field.Rat{}, m, pol.mu, maxPairs)
			if err != nil {
				t.Fatal(err)
			}
			var at []exact.TurnState
			for n := 1; n <= maxPairs; n++ {
				for j := 0; j <= n; j++ {
					if mem.Holds(n - j) {
						for left := 1; left <= limit; left++ {
							at = append(at, exact.TurnState{State: rules.State{N: n, J: j}, TurnsLeft: left})
						}
					}
				}
			}
			values, err := exact.ChoiceValuesAt(ctx, field.Rat{}, m, pol.mu, at)
			if err != nil {
				t.Fatal(err)
			}
			differ := 0
			for i, p := range at {
				got, ok := b.Player.Table.LookupTurnsLeft(p.State, false, p.TurnsLeft)
				if want := values[i].Best[0]; !ok || got != want {
					t.Errorf("%s, %v, %v, %d turns left: the player plays %v (%v), the solver's best choice is %v", pol.spec.Policy, mem, p.State, p.TurnsLeft, got, ok, want)
				}
				got, ok = b.Player.Table.LookupTurnsLeft(p.State, true, p.TurnsLeft)
				if want, _ := table.LookupTurnsLeft(p.State, true, p.TurnsLeft); !ok || got != want {
					t.Errorf("%s, %v, %v, %d turns left, after a pass: the player plays %v (%v), the solver's table %v", pol.spec.Policy, mem, p.State, p.TurnsLeft, got, ok, want)
				}
				if first, _ := b.Player.Table.LookupTurnsLeft(p.State, false, 1); first != values[i].Best[0] {
					differ++
				}
			}
			if differ == 0 {
				t.Errorf("%s, %v: every layer of turns left plays as the last: the test cannot tell the layers apart", pol.spec.Policy, mem)
			}
		}
	}
}
