package strategies_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestOptimalAtThreeSeatsUnderForgettingAndPassPlaysItsStreakTable builds optimal at tables of
// three and four seats with a shared decay or lru memory under the pass rules two-known and always,
// and checks that it plays the table of every seat for itself at that many seats at every pass
// streak; under decay the table's choices differ between streaks in at least one state.
func TestOptimalAtThreeSeatsUnderForgettingAndPassPlaysItsStreakTable(t *testing.T) {
	ctx := context.Background()
	const maxPairs = 5
	decay, lru := rules.ForgetDecay, rules.ForgetLRU
	cases := []struct {
		players  int
		rule     rules.PassRule
		override strategies.MemoryOverride
		mem      rules.Memory
		streaks  bool // the table's choices differ between streaks somewhere
	}{
		{3, rules.PassTwoKnown, strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.2)}, rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2}, true},
		{4, rules.PassAlways, strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.2), Capacity: ptrTo(3)}, rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.2}, true},
		{3, rules.PassAlways, strategies.MemoryOverride{Forget: &lru, Capacity: ptrTo(3)}, rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}, false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d/%s/%v", tc.players, tc.rule, tc.mem), func(t *testing.T) {
			spec := strategies.Spec{Name: "leaky", Policy: "optimal", Memory: tc.override}
			env := strategies.Env{MaxPairs: maxPairs, Players: tc.players, Pass: tc.rule, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("%d-player optimal table", tc.players); !strings.Contains(b.Table, want) {
				t.Errorf("table %q, want the %s", b.Table, want)
			}
			m := exact.Model{Pass: tc.rule, Memory: tc.mem}
			mu := exact.Lineup{Players: tc.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			want, err := exact.PolicyTable(ctx, field.Rat{}, m, mu, maxPairs)
			if err != nil {
				t.Fatal(err)
			}
			differ := 0
			for n := 1; n <= maxPairs; n++ {
				for j := 0; j <= n; j++ {
					st := rules.State{N: n, J: j}
					if !tc.mem.Holds(st.Known()) {
						continue
					}
					first, _ := want.LookupPasses(st, 0)
					for k := range tc.players {
						got, ok := b.Player.Table.LookupPasses(st, k)
						w, _ := want.LookupPasses(st, k)
						if !ok || got != w {
							t.Errorf("%v after %d passes: the player plays %v (%v), the table %v", st, k, got, ok, w)
						}
						if w != first {
							differ++
						}
					}
				}
			}
			if tc.streaks && differ == 0 {
				t.Error("the table's choices agree at every streak: the test cannot tell the streaks apart")
			}
		})
	}
}
