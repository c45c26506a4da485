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

// TestDecaySinglesTablePlayersPlayTheModel builds optimal and best-response to safe with a
// shared decay memory (q = 0.3, with and without a capacity of 3) in a deal with singletons,
// checks that each plays the decay model's table with singletons in every state, and plays them
// card by card with the engine: seat 0's mean pairs lie within 4.5 standard errors of the
// solver's value from the full deal.
func TestDecaySinglesTablePlayersPlayTheModel(t *testing.T) {
	ctx := context.Background()
	const pairs, singles = 4, 2
	games := 4000
	if testing.Short() {
		games = 600
	}
	decay := rules.ForgetDecay
	for _, capacity := range []int{0, 3} {
		mem := rules.Memory{Capacity: capacity, Forget: decay, Decay: 0.3}
		m := exact.Model{Singletons: singles, Memory: mem}
		override := strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.3), Capacity: ptrTo(capacity)}
		env := strategies.Env{MaxPairs: pairs, Singletons: singles, Players: 2, Tables: strategies.NewTables()}
		for _, tc := range []struct {
			policy, opponent string
			mu               exact.Lineup
		}{
			{"optimal", "optimal", exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
			{"best-response", "safe", exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}},
		} {
			spec := strategies.Spec{Name: tc.policy, Policy: tc.policy, Memory: override}
			if tc.policy == "best-response" {
				spec.Opponent = tc.opponent
			}
			me, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatalf("capacity %d, %s: %v", capacity, tc.policy, err)
			}
			other, err := strategies.Build(ctx, strategies.Spec{Name: tc.opponent, Policy: tc.opponent, Memory: override}, env)
			if err != nil {
				t.Fatal(err)
			}
			want, err := exact.PolicyTable(ctx, field.Rat{}, m, tc.mu, pairs)
			if err != nil {
				t.Fatal(err)
			}
			for n := 1; n <= pairs; n++ {
				for j := 0; j <= n; j++ {
					for f := 0; f <= singles; f++ {
						st := rules.State{N: n, J: j, S: singles, F: f}
						if !mem.Holds(st.Known()) {
							continue
						}
						got, ok := me.Player.Table.Lookup(st, false)
						w, _ := want.Lookup(st, false)
						if !ok || got != w {
							t.Errorf("capacity %d, %s, %v: the player plays %v (%v), the decay table %v", capacity, tc.policy, st, got, ok, w)
						}
					}
				}
			}
			gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Singletons: singles, Players: []sim.Player{me.Player, other.Player}})
			if err != nil {
				t.Fatal(err)
			}
			var sum, sumSq float64
			for i := range games {
				if err := gm.Play(sim.GameID{Seed: 17, Index: uint64(i)}, nil); err != nil {
					t.Fatal(err)
				}
				x := float64(gm.Outcome().Pairs[0])
				sum += x
				sumSq += x * x
			}
			res, err := exact.Evaluate(ctx, field.Rat{}, m, tc.mu, rules.State{N: pairs, J: pairs, S: singles, F: singles})
			if err != nil {
				t.Fatal(err)
			}
			exp, _ := new(big.Rat).Set(res.PairsBySeat[0]).Float64()
			mean := sum / float64(games)
			se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
			if math.Abs(mean-exp) > 4.5*se {
				t.Errorf("capacity %d, %s against %s: seat 0 takes %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)",
					capacity, tc.policy, tc.opponent, mean, games, exp, se)
			}
		}
	}
}
