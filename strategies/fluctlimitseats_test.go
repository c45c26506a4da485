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

// TestOptimalAtThreeSeatsUnderFluctuationAndALimitPlaysTheSolversChoice builds optimal at a table
// of three seats with a shared memory whose capacity fluctuates, under a turn limit and pass rule
// always, and checks every entry the engine reads (count state, capacity drawn, turns left, pass
// streak) against the equilibrium's choice that the solver gives for that state when it is solved
// afresh with the turns left as the limit.
func TestOptimalAtThreeSeatsUnderFluctuationAndALimitPlaysTheSolversChoice(t *testing.T) {
	ctx := context.Background()
	const maxPairs, players = 3, 3
	limit, forgets := 4, []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform}
	if testing.Short() {
		limit, forgets = 3, forgets[1:]
	}
	for _, forget := range forgets {
		spec := strategies.Spec{Name: "wavering", Policy: "optimal",
			Memory: strategies.MemoryOverride{Forget: &forget, Capacity: ptrTo(3), Fluctuation: ptrTo(1)}}
		env := strategies.Env{MaxPairs: maxPairs, Players: players, Pass: rules.PassAlways,
			Variant: rules.Variant{TurnLimit: limit}, Tables: strategies.NewTables()}
		b, err := strategies.Build(ctx, spec, env)
		if err != nil {
			t.Fatal(err)
		}
		mem := rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 1}
		mu := exact.Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		lo, hi, ok := b.Player.Table.Capacities()
		if !ok || lo != 2 || hi != 4 {
			t.Fatalf("%v: the player's table has capacities %d .. %d (%v), want 2 .. 4", mem, lo, hi, ok)
		}
		checked, differ := 0, 0
		for left := 1; left <= limit; left++ {
			m := exact.Model{Memory: mem, Pass: rules.PassAlways, Variant: rules.Variant{TurnLimit: left}}
			for n := 1; n <= maxPairs; n++ {
				for k := 0; k <= n; k++ {
					st := rules.State{N: n, J: n - k}
					for c := lo; c <= hi; c++ {
						if forget == rules.ForgetLRU && k > c {
							continue // lru forgets down to the capacity drawn
						}
						for passes := 0; passes < players; passes++ {
							name := fmt.Sprintf("%v, %v, capacity %d, %d turns left, streak %d", mem, st, c, left, passes)
							cv, err := exact.FluctSeatsChoiceValues(ctx, field.Rat{}, m, mu, st, c, passes)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							got, ok := b.Player.Table.LookupCapacityTurnsLeftPasses(st, passes, c, left)
							if !ok || got != cv.PolicyChoice {
								t.Errorf("%s: the player plays %v (%v), the solver %v", name, got, ok, cv.PolicyChoice)
							}
							if got != rules.Pass && cv.PolicyChoice != rules.Pass {
								checked++
							}
							if first, _ := b.Player.Table.LookupCapacityTurnsLeftPasses(st, passes, c, limit); first != got {
								differ++
							}
						}
					}
				}
			}
		}
		if checked == 0 || differ == 0 {
			t.Errorf("%v: %d non-pass entries, %d that depend on the turns left: the test cannot tell the layers apart", mem, checked, differ)
		}
	}
}
