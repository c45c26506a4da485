package strategies_test

import (
	"context"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// checkEngineAgainstDaring plays player (seat 0, policy pol) against daring (with memory
// override) in games games of pairs pairs under env's variant with the engine, seeded by seed,
// and checks that seat 0's mean pairs lie within 4.5 standard errors of the exact value of pol
// against daring under model.
func checkEngineAgainstDaring(t *testing.T, ctx context.Context, name string, player sim.Player, pol rules.Policy,
	env strategies.Env, override strategies.MemoryOverride, model exact.Model, pairs, games int, seed uint64) {
	t.Helper()
	daring, err := strategies.Build(ctx, strategies.Spec{Name: "daring", Policy: "daring", Memory: override}, env)
	if err != nil {
		t.Fatal(err)
	}
	gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: env.Variant, Players: []sim.Player{player, daring.Player}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var sum, sumSq float64
	for i := range games {
		if err := gm.Play(sim.GameID{Seed: seed, Index: uint64(i)}, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		x := float64(gm.Outcome().Pairs[0])
		sum += x
		sumSq += x * x
	}
	mu := exact.Lineup{Players: 2, Policy: pol, Opponent: rules.PolicyDaring}
	res, err := exact.Evaluate(ctx, field.Rat{}, model, mu, rules.State{N: pairs, J: pairs})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	exp, _ := new(big.Rat).Set(res.PairsBySeat[0]).Float64()
	mean := sum / float64(games)
	se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
	if math.Abs(mean-exp) > 4.5*se {
		t.Errorf("%s against daring: seat 0 takes %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)",
			name, mean, games, exp, se)
	}
}
