package strategies_test

import (
	"context"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestOptimalAtThreeSeatsUnderDecayPlaysItsOwnTable builds optimal at a table of three seats with
// a shared decay memory and checks that it plays the table of every seat for itself at three
// seats in every state, which differs from the two-player optimum's in at least one.
func TestOptimalAtThreeSeatsUnderDecayPlaysItsOwnTable(t *testing.T) {
	ctx := context.Background()
	const maxPairs = 8
	decay := rules.ForgetDecay
	spec := strategies.Spec{Name: "leaky", Policy: "optimal", Memory: strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.1)}}
	b, err := strategies.Build(ctx, spec, strategies.Env{MaxPairs: maxPairs, Players: 3, Tables: strategies.NewTables()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Table, "3-player optimal table") {
		t.Errorf("table %q, want the 3-player optimal table", b.Table)
	}
	m := exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.1}}
	table := func(players int) *rules.ChoiceTable {
		mu := exact.Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		tab, err := exact.PolicyTable(ctx, field.Rat{}, m, mu, maxPairs)
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	three, two := table(3), table(2)
	differ := 0
	for n := 1; n <= maxPairs; n++ {
		for j := 0; j <= n; j++ {
			st := rules.State{N: n, J: j}
			got, ok := b.Player.Table.Lookup(st, false)
			want, _ := three.Lookup(st, false)
			if !ok || got != want {
				t.Errorf("%v: the player plays %v (%v), the 3-seat table %v", st, got, ok, want)
			}
			if c, _ := two.Lookup(st, false); c != want {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("the 3-seat and the two-player tables agree everywhere: the test cannot tell them apart")
	}
}

func ptrTo[T any](v T) *T { return &v }
