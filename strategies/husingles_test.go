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

// TestHandoverSingletonsTablesAreTheSolversBestChoices builds optimal and best-response to parity
// with two singletons and a shared handover-uniform memory of capacity 3 with strategies.Build,
// and checks that the engine's table holds, in every state of up to four pairs the memory allows,
// the first of the best choices of exact.ChoiceValues, a solve from that state alone.
func TestHandoverSingletonsTablesAreTheSolversBestChoices(t *testing.T) {
	ctx := context.Background()
	const singles, capacity, pairs = 2, 3, 4
	mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}
	env := strategies.Env{MaxPairs: pairs, Singletons: singles, Players: 2, Tables: strategies.NewTables()}
	model := exact.Model{Singletons: singles, Memory: mem}
	for _, lineup := range []struct{ policy, opponent string }{{"optimal", ""}, {"best-response", "parity"}} {
		b, err := strategies.Build(ctx, strategies.Spec{Name: lineup.policy, Policy: lineup.policy, Opponent: lineup.opponent,
			Memory: handoverOverride(capacity)}, env)
		if err != nil {
			t.Fatalf("%s: %v", lineup.policy, err)
		}
		if b.Exact == nil || b.Exact.Memory != mem {
			t.Fatalf("%s: exact model %+v, want the %s memory", lineup.policy, b.Exact, mem)
		}
		mu := exact.Lineup{Players: 2, Policy: b.Exact.Policy, Opponent: b.Exact.Opponent}
		compared := 0
		for n := 1; n <= pairs; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= singles; f++ {
					st := rules.State{N: n, J: j, S: singles, F: f}
					if st.Known() > capacity {
						continue
					}
					got, ok := b.Player.Table.Lookup(st, false)
					if !ok {
						t.Errorf("%s: no choice in %v", lineup.policy, st)
						continue
					}
					cv, err := exact.ChoiceValues(ctx, field.Rat{}, model, mu, st)
					if err != nil {
						t.Fatalf("%s in %v: %v", lineup.policy, st, err)
					}
					if want := cv.Best[0]; got != want {
						t.Errorf("%s in %v: the engine's table chooses %s, the solver's best is %v", lineup.policy, st, got, cv.Best)
					}
					compared++
				}
			}
		}
		if compared < 30 {
			t.Errorf("%s: %d states compared, want more than 30", lineup.policy, compared)
		}
	}
}

// TestHandoverSingletonsEngineGamesMatchExactValues plays optimal against optimal, best-response
// to safe against safe and parity against daring, built with strategies.Build, at five pairs and
// two singletons under a shared handover-uniform memory of capacity 3, and checks seat 0's mean
// pairs against the exact value within four standard errors.
func TestHandoverSingletonsEngineGamesMatchExactValues(t *testing.T) {
	ctx := context.Background()
	const singles, capacity, pairs = 2, 3, 5
	games := 4000
	if testing.Short() {
		games = 1500
	}
	mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}
	env := strategies.Env{MaxPairs: pairs, Singletons: singles, Players: 2, Tables: strategies.NewTables()}
	ms := handoverOverride(capacity)
	for _, lineup := range [][2]strategies.Spec{
		{{Name: "a", Policy: "optimal", Memory: ms}, {Name: "b", Policy: "optimal", Memory: ms}},
		{{Name: "a", Policy: "best-response", Opponent: "safe", Memory: ms}, {Name: "b", Policy: "safe", Memory: ms}},
		{{Name: "a", Policy: "parity", Memory: ms}, {Name: "b", Policy: "daring", Memory: ms}},
	} {
		var seats []sim.Player
		var pol [2]rules.Policy
		for i, spec := range lineup {
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatal(err)
			}
			if b.Exact == nil {
				t.Fatalf("%s: no exact model", spec.Policy)
			}
			seats = append(seats, b.Player)
			pol[i] = b.Exact.Policy
		}
		mu := exact.Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
		want, err := exact.Evaluate(ctx, field.Float{}, exact.Model{Singletons: singles, Memory: mem}, mu,
			rules.State{N: pairs, J: pairs, S: singles, F: singles})
		if err != nil {
			t.Fatal(err)
		}
		g, err := sim.NewGame(sim.Setup{Pairs: pairs, Singletons: singles, Players: seats})
		if err != nil {
			t.Fatal(err)
		}
		var sum, sumSq float64
		for i := range games {
			if err := g.Play(sim.GameID{Seed: 11, Index: uint64(i)}, nil); err != nil {
				t.Fatal(err)
			}
			x := float64(g.Outcome().Pairs[0])
			sum += x
			sumSq += x * x
		}
		mean := sum / float64(games)
		se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
		if d := math.Abs(mean - want.ExpectedPairs); d > 4*se {
			t.Errorf("%s against %s: engine mean %.4f pairs over %d games, exact %.4f (%.1f standard errors)", pol[0], pol[1], mean, games, want.ExpectedPairs, d/se)
		}
	}
}
