package strategies_test

import (
	"context"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestHandoverSingletonsUnderTurnLimitPlaysTheSolversChoices builds optimal and best-response to
// safe with two singletons and a shared handover-uniform memory of capacity 3 under a turn limit
// of 5 and pass rule always, and checks that the table the engine reads holds, in every state the
// memory allows and every number of turns left, the first best choice of exact.ChoiceValues solved
// from that state alone with a limit of that many turns; then plays each player card by card with
// the engine against its opponent: seat 0's mean share (a stalemate's pairs shared) lies within 4
// standard errors of the solver's value from the full deal.
func TestHandoverSingletonsUnderTurnLimitPlaysTheSolversChoices(t *testing.T) {
	ctx := context.Background()
	const maxPairs, singles, capacity, limit = 3, 2, 3, 5
	games := 3000
	// The solver's choices in exact arithmetic; float64 in the short form (the same choices at
	// these sizes, twenty times faster).
	var fl field.Field[float64] = field.Float{}
	exactChoices := !testing.Short()
	if testing.Short() {
		games = 1000
	}
	if raceEnabled {
		games = 100 // the race detector slows the engine down several times
	}
	mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}
	v := rules.Variant{TurnLimit: limit}
	m := exact.Model{Pass: rules.PassAlways, Memory: mem, Singletons: singles, Variant: v}
	ms := handoverOverride(capacity)
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
		env := strategies.Env{MaxPairs: maxPairs, Singletons: singles, Players: 2, Pass: rules.PassAlways, Variant: v, Tables: strategies.NewTables()}
		b, err := strategies.Build(ctx, pol.spec, env)
		if err != nil {
			t.Fatalf("%s: %v", pol.spec.Policy, err)
		}
		compared, differ := 0, 0
		for n := 1; n <= maxPairs; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= singles; f++ {
					st := rules.State{N: n, J: j, S: singles, F: f}
					if st.Known() > capacity {
						continue
					}
					for left := 1; left <= limit; left++ {
						ml := m
						ml.Variant.TurnLimit = left
						best, err := handoverLimitBest(ctx, fl, exactChoices, ml, pol.mu, st)
						if err != nil {
							t.Fatalf("%s in %v, %d turns left: %v", pol.spec.Policy, st, left, err)
						}
						got, ok := b.Player.Table.LookupTurnsLeft(st, false, left)
						if !ok || got != best[0] {
							t.Errorf("%s in %v, %d turns left: the engine's table plays %v (%v), the solver's best is %v", pol.spec.Policy, st, left, got, ok, best)
						}
						if last, _ := b.Player.Table.LookupTurnsLeft(st, false, 1); last != best[0] {
							differ++
						}
						compared++
					}
				}
			}
		}
		if compared < 60 {
			t.Errorf("%s: %d positions compared, want at least 60", pol.spec.Policy, compared)
		}
		if differ == 0 {
			t.Errorf("%s: every layer of turns left plays as the last: the test cannot tell the layers apart", pol.spec.Policy)
		}
		other, err := strategies.Build(ctx, strategies.Spec{Name: pol.opponent, Policy: pol.opponent, Memory: ms}, env)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.Evaluate(ctx, field.Float{}, m, pol.mu, rules.State{N: maxPairs, J: maxPairs, S: singles, F: singles})
		if err != nil {
			t.Fatal(err)
		}
		setup := sim.Setup{Pairs: maxPairs, Singletons: singles, Players: []sim.Player{b.Player, other.Player}, Pass: rules.PassAlways, Variant: v}
		checkSeat0MeanPairs(t, pol.spec.Policy+" against "+pol.opponent, setup, games, 31, res.PairsBySeat[0])
	}
}

// handoverLimitBest returns the best choices of exact.ChoiceValues in st, in exact arithmetic
// when exactChoices is set and in fl otherwise.
func handoverLimitBest(ctx context.Context, fl field.Field[float64], exactChoices bool, m exact.Model, mu exact.Lineup, st rules.State) ([]rules.Choice, error) {
	if exactChoices {
		cv, err := exact.ChoiceValues(ctx, field.Rat{}, m, mu, st)
		return cv.Best, err
	}
	cv, err := exact.ChoiceValues(ctx, fl, m, mu, st)
	return cv.Best, err
}

// checkSeat0MeanPairs plays games of the engine at setup, two seats, and checks seat 0's mean
// share in pairs (a stalemate sharing the pairs left) against the solver's want within 4 standard
// errors.
func checkSeat0MeanPairs(t *testing.T, name string, setup sim.Setup, games int, seed uint64, want float64) {
	t.Helper()
	gm, err := sim.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	var sum, sumSq float64
	for i := range games {
		if err := gm.Play(sim.GameID{Seed: seed, Index: uint64(i)}, nil); err != nil {
			t.Fatal(err)
		}
		x := float64(gm.Outcome().Share[0]) / 2 // a stalemate shares the pairs left
		sum += x
		sumSq += x * x
	}
	mean := sum / float64(games)
	se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
	if math.Abs(mean-want) > 4*se {
		t.Errorf("%s: seat 0 takes %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)", name, mean, games, want, se)
	}
}
