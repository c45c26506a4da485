package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestFluctSingletonsUnderTurnLimitPlaysTheSolversChoices builds optimal and best-response to safe
// with two singletons and a shared handover-uniform memory of capacity 3 ± 1 under a turn limit
// and pass rule two-known, and checks that the table the engine reads holds, in every state the
// memory allows, every capacity drawn, every number of turns left and just after a pass or not,
// the first best choice of exact.FluctChoiceValues (exact.FluctChoiceValuesAfterPass) solved from
// that state alone with a limit of that many turns; then plays each player card by card with the
// engine against its opponent: seat 0's mean share lies within 4 standard errors of the solver's
// value from the full deal.
func TestFluctSingletonsUnderTurnLimitPlaysTheSolversChoices(t *testing.T) {
	ctx := context.Background()
	const singles, capacity, sigma = 2, 3, 1
	maxPairs, limit, games, firstLeft := 3, 5, 3000, 1
	if testing.Short() {
		// One pair, the full limit's layer only, and few games.
		maxPairs, limit, games, firstLeft = 1, 2, 20, 2
	}
	if raceEnabled {
		games = 100 // the race detector slows the engine down several times
	}
	mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform, Fluctuation: sigma}
	v := rules.Variant{TurnLimit: limit}
	m := exact.Model{Pass: rules.PassTwoKnown, Memory: mem, Singletons: singles, Variant: v}
	forget := rules.ForgetHandoverUniform
	ms := strategies.MemoryOverride{Forget: &forget, Capacity: ptrTo(capacity), Fluctuation: ptrTo(sigma)}
	for _, pol := range []struct {
		spec     strategies.Spec
		opponent string
		mu       exact.Lineup
	}{
		{strategies.Spec{Name: "opt", Policy: "optimal", Memory: ms}, "optimal",
			exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
		{strategies.Spec{Name: "br", Policy: "best-response", Opponent: "safe", Memory: ms}, "safe",
			exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}},
	} {
		env := strategies.Env{MaxPairs: maxPairs, Singletons: singles, Players: 2, Pass: rules.PassTwoKnown, Variant: v, Tables: strategies.NewTables()}
		b, err := strategies.Build(ctx, pol.spec, env)
		if err != nil {
			t.Fatalf("%s: %v", pol.spec.Policy, err)
		}
		compared, differ := 0, 0
		for n := 1; n <= maxPairs; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= singles; f++ {
					st := rules.State{N: n, J: j, S: singles, F: f}
					if st.Known() > capacity+sigma {
						continue
					}
					for c := capacity - sigma; c <= capacity+sigma; c++ {
						for left := firstLeft; left <= limit; left++ {
							ml := m
							ml.Variant.TurnLimit = left
							for passes := 0; passes <= 1; passes++ {
								var cv exact.Choices[float64]
								if passes == 1 {
									cv, err = exact.FluctChoiceValuesAfterPass(ctx, field.Float{}, ml, pol.mu, st, c)
								} else {
									cv, err = exact.FluctChoiceValues(ctx, field.Float{}, ml, pol.mu, st, c)
								}
								if err != nil {
									t.Fatalf("%s in %v, capacity %d, %d turns left, after a pass %d: %v", pol.spec.Policy, st, c, left, passes, err)
								}
								got, ok := b.Player.Table.LookupCapacityTurnsLeftPasses(st, passes, c, left)
								if !ok || got != cv.Best[0] {
									t.Errorf("%s in %v, capacity %d, %d turns left, after a pass %d: the engine's table plays %v (%v), the solver's best is %v",
										pol.spec.Policy, st, c, left, passes, got, ok, cv.Best)
								}
								if last, _ := b.Player.Table.LookupCapacityTurnsLeftPasses(st, passes, c, 1); last != got {
									differ++
								}
								compared++
							}
						}
					}
				}
			}
		}
		if !testing.Short() && differ == 0 {
			t.Errorf("%s: every layer of turns left plays as the last: the test cannot tell the layers apart", pol.spec.Policy)
		}
		if compared == 0 {
			t.Errorf("%s: no position compared", pol.spec.Policy)
		}
		other, err := strategies.Build(ctx, strategies.Spec{Name: pol.opponent, Policy: pol.opponent, Memory: ms}, env)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.Evaluate(ctx, field.Float{}, m, pol.mu, rules.State{N: maxPairs, J: maxPairs, S: singles, F: singles})
		if err != nil {
			t.Fatal(err)
		}
		setup := sim.Setup{Pairs: maxPairs, Singletons: singles, Players: []sim.Player{b.Player, other.Player}, Pass: rules.PassTwoKnown, Variant: v}
		checkSeat0MeanPairs(t, pol.spec.Policy+" against "+pol.opponent, setup, games, 37, res.PairsBySeat[0])
	}
}
