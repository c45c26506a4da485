package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestOptimalUnderDecayAndPassPlaysItsPassLayer builds optimal with a shared decay memory under
// pass rule two-known and checks that it plays the decay model's table in every state, just
// after a pass as well, and that the choice after a pass differs from the one without in some
// state (q = 0.1, capacity 4: at (4, 2) safe is best, and just after a pass a pass).
func TestOptimalUnderDecayAndPassPlaysItsPassLayer(t *testing.T) {
	ctx := context.Background()
	const maxPairs = 6
	decay := rules.ForgetDecay
	spec := strategies.Spec{Name: "leaky", Policy: "optimal",
		Memory: strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.1), Capacity: ptrTo(4)}}
	env := strategies.Env{MaxPairs: maxPairs, Players: 2, Pass: rules.PassTwoKnown, Tables: strategies.NewTables()}
	b, err := strategies.Build(ctx, spec, env)
	if err != nil {
		t.Fatal(err)
	}
	m := exact.Model{Pass: rules.PassTwoKnown, Memory: rules.Memory{Capacity: 4, Forget: rules.ForgetDecay, Decay: 0.1}}
	self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	want, err := exact.PolicyTable(ctx, field.Rat{}, m, self, maxPairs)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for n := 1; n <= maxPairs; n++ {
		for j := max(0, n-4); j <= n; j++ {
			st := rules.State{N: n, J: j}
			for _, after := range []bool{false, true} {
				got, ok := b.Player.Table.Lookup(st, after)
				w, _ := want.Lookup(st, after)
				if !ok || got != w {
					t.Errorf("%v, after a pass %v: the player plays %v (%v), the decay table %v", st, after, got, ok, w)
				}
			}
			plain, _ := want.Lookup(st, false)
			after, _ := want.Lookup(st, true)
			if plain != after {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("the table's choices after a pass and without one agree everywhere: the test cannot tell the layers apart")
	}
}
