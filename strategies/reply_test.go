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

// TestBestResponseAtFourSeatsPlaysItsOwnReply builds best-response to daring at a table of four
// seats under pass rule always and checks that it plays the solver's reply at four seats at every
// pass streak, which differs from the two-player reply in at least one state.
func TestBestResponseAtFourSeatsPlaysItsOwnReply(t *testing.T) {
	ctx := context.Background()
	const maxPairs = 6
	env := strategies.Env{MaxPairs: maxPairs, Players: 4, Pass: rules.PassAlways, Tables: strategies.NewTables()}
	b, err := strategies.Build(ctx, strategies.Spec{Name: "br", Policy: "best-response", Opponent: "daring"}, env)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Table, "4-player best response to daring table") {
		t.Errorf("table %q, want the 4-player best response to daring", b.Table)
	}
	m := exact.Model{Pass: rules.PassAlways}
	table := func(players int) *rules.ChoiceTable {
		mu := exact.Lineup{Players: players, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}
		tab, err := exact.PolicyTable(ctx, field.Rat{}, m, mu, maxPairs)
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	four, two := table(4), table(2)
	differ := 0
	for n := 1; n <= maxPairs; n++ {
		for j := 0; j <= n; j++ {
			st := rules.State{N: n, J: j}
			for k := range 4 {
				got, ok := b.Player.Table.LookupPasses(st, k)
				want, _ := four.LookupPasses(st, k)
				if !ok || got != want {
					t.Errorf("%v, %d passes: the player plays %v (%v), the 4-seat reply %v", st, k, got, ok, want)
				}
			}
			want, _ := four.LookupPasses(st, 0)
			if c, _ := two.Lookup(st, false); c != want {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("the 4-seat and the two-player replies agree everywhere: the test cannot tell them apart")
	}
}

// TestReplyAtThreeSeats checks the table a reply plays at three seats, to the optimum of every
// seat for itself and to a fixed policy, to win, and under decay forgetting with and without a
// pass rule.
func TestReplyAtThreeSeats(t *testing.T) {
	ctx := context.Background()
	decay := rules.ForgetDecay
	cases := []struct {
		spec  strategies.Spec
		pass  rules.PassRule
		table string
	}{
		{strategies.Spec{Name: "br", Policy: "best-response", Opponent: "optimal"}, rules.PassNever, "3-player best response to optimal table, perfect memory"},
		{strategies.Spec{Name: "wbr", Policy: "win-best-response", Opponent: "safe"}, rules.PassNever, "3-player win best response to safe table, perfect memory"},
		{strategies.Spec{Name: "leaky", Policy: "best-response", Opponent: "safe", Memory: strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.5)}}, rules.PassNever, "3-player best response to safe table, decay(q=0.5) memory"},
		{strategies.Spec{Name: "leaky, passing", Policy: "best-response", Opponent: "safe", Memory: strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.5)}}, rules.PassAlways, "3-player best response to safe table, decay(q=0.5) memory"},
	}
	for _, c := range cases {
		t.Run(c.spec.Name, func(t *testing.T) {
			env := strategies.Env{MaxPairs: 4, Players: 3, Pass: c.pass, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, c.spec, env)
			switch {
			case err != nil:
				t.Fatal(err)
			case b.Table != c.table:
				t.Errorf("table %q, want %q", b.Table, c.table)
			}
		})
	}
}
