package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestBestResponseUnderFluctuationPlaysTheTableOfTheCapacityDrawn builds best-response to safe
// with a shared handover-uniform memory whose capacity fluctuates and checks that its table has a
// layer per capacity drawn, each the exact reply's choices, and that the player is valued in the
// fluctuating model.
func TestBestResponseUnderFluctuationPlaysTheTableOfTheCapacityDrawn(t *testing.T) {
	ctx := context.Background()
	const maxPairs = 7
	hu := rules.ForgetHandoverUniform
	spec := strategies.Spec{Name: "answer", Policy: "best-response", Opponent: "safe",
		Memory: strategies.MemoryOverride{Forget: &hu, Capacity: ptrTo(3), Fluctuation: ptrTo(1)}}
	env := strategies.Env{MaxPairs: maxPairs, Players: 2, Pass: rules.PassNever, Tables: strategies.NewTables()}
	b, err := strategies.Build(ctx, spec, env)
	if err != nil {
		t.Fatal(err)
	}
	mem := rules.Memory{Capacity: 3, Forget: hu, Fluctuation: 1}
	want, err := exact.FluctReplyTable(ctx, field.Rat{}, exact.Model{Memory: mem}, rules.PolicySafe, maxPairs)
	if err != nil {
		t.Fatal(err)
	}
	checkCapacityLayers(t, mem.String(), b.Player.Table, want, 2, 4, maxPairs, false)
	if b.Exact == nil || b.Exact.Memory != mem {
		t.Errorf("the player is valued in %+v, want the fluctuating model %v", b.Exact, mem)
	}
}
