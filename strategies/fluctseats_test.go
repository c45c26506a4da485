package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestOptimalAtThreeSeatsUnderFluctuationPlaysTheLayerOfTheCapacityDrawn builds optimal at a
// table of three seats with a shared memory whose capacity fluctuates and checks that its table
// has a layer per capacity drawn, each the choices of the exact model of every seat for itself,
// that the choices depend on the capacity in some state, and that the player is valued in the
// fluctuating model.
func TestOptimalAtThreeSeatsUnderFluctuationPlaysTheLayerOfTheCapacityDrawn(t *testing.T) {
	ctx := context.Background()
	const maxPairs = 8
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		spec := strategies.Spec{Name: "wavering", Policy: "optimal",
			Memory: strategies.MemoryOverride{Forget: &forget, Capacity: ptrTo(3), Fluctuation: ptrTo(2)}}
		env := strategies.Env{MaxPairs: maxPairs, Players: 3, Pass: rules.PassNever, Tables: strategies.NewTables()}
		b, err := strategies.Build(ctx, spec, env)
		if err != nil {
			t.Fatal(err)
		}
		mem := rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 2}
		want, err := exact.FluctSelfishTable(ctx, field.Rat{}, exact.Model{Memory: mem}, 3, maxPairs)
		if err != nil {
			t.Fatal(err)
		}
		if differ := checkCapacityLayers(t, mem.String(), b.Player.Table, want, 2, 5, maxPairs, forget == rules.ForgetLRU); differ == 0 {
			t.Errorf("%s: the choices agree at every capacity: the test cannot tell the layers apart", mem)
		}
		if b.Exact == nil || b.Exact.Memory != mem {
			t.Errorf("%s: the player is valued in %+v, want the fluctuating model %v", mem, b.Exact, mem)
		}
	}
}

// TestWinAtThreeSeatsUnderFluctuation builds, at a table of three seats with a shared memory whose
// capacity fluctuates, win-optimal and win-best-response to safe, each of which reads a layer of
// standings per capacity drawn and is valued in the fluctuating model.
func TestWinAtThreeSeatsUnderFluctuation(t *testing.T) {
	ctx := context.Background()
	forget := rules.ForgetLRU
	mem := strategies.MemoryOverride{Forget: &forget, Capacity: ptrTo(3), Fluctuation: ptrTo(1)}
	env := strategies.Env{MaxPairs: 2, Players: 3, Pass: rules.PassNever, Tables: strategies.NewTables()}
	want := rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 1}
	for _, spec := range []strategies.Spec{
		{Name: "win", Policy: "win-optimal", Memory: mem},
		{Name: "reply", Policy: "win-best-response", Opponent: "safe", Memory: mem},
	} {
		b, err := strategies.Build(ctx, spec, env)
		if err != nil {
			t.Fatalf("%s: %v", spec.Policy, err)
		}
		if _, _, ok := b.Player.Table.Capacities(); !ok || b.Player.Table.Standings() == nil || b.Exact == nil || b.Exact.Memory != want {
			t.Errorf("%s: capacity layers %v, standings %v, valued in %+v; want layers, standings and %v", spec.Policy, ok, b.Player.Table.Standings() != nil, b.Exact, want)
		}
	}
}
