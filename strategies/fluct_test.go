package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestOptimalUnderFluctuationPlaysTheTableOfTheCapacityDrawn builds optimal with a shared lru
// memory whose capacity fluctuates and checks that its table has a layer per capacity drawn, each
// the exact model's choices, that the choices depend on the capacity in some state, and that
// the player is valued in the fluctuating model.
func TestOptimalUnderFluctuationPlaysTheTableOfTheCapacityDrawn(t *testing.T) {
	ctx := context.Background()
	const maxPairs = 8
	lru := rules.ForgetLRU
	spec := strategies.Spec{Name: "wavering", Policy: "optimal",
		Memory: strategies.MemoryOverride{Forget: &lru, Capacity: ptrTo(3), Fluctuation: ptrTo(2)}}
	env := strategies.Env{MaxPairs: maxPairs, Players: 2, Pass: rules.PassNever, Tables: strategies.NewTables()}
	b, err := strategies.Build(ctx, spec, env)
	if err != nil {
		t.Fatal(err)
	}
	mem := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 2}
	want, err := exact.FluctTable(ctx, field.Rat{}, exact.Model{Memory: mem}, maxPairs)
	if err != nil {
		t.Fatal(err)
	}
	if differ := checkCapacityLayers(t, mem.String(), b.Player.Table, want, 2, 5, maxPairs, true); differ == 0 {
		t.Error("the choices agree at every capacity: the test cannot tell the layers apart")
	}
	if b.Exact == nil || b.Exact.Memory != mem {
		t.Errorf("the player is valued in %+v, want the fluctuating model %v", b.Exact, mem)
	}
}
