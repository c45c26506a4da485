package strategies_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestEnginePlaysBlindDecayTables builds optimal and best-response to daring under blind flips
// with a shared decay memory (q = 0.2 without a capacity, q = 0.3 with capacity 3), checks that
// the table the engine reads is the solver's (every state of up to 5 pairs), and plays 3 pairs
// (where a wrong forgetting shows most) with the engine against daring at two seats, and optimal at every seat of three: seat 0's mean
// pairs must lie within 4.5 standard errors of the exact value.
func TestEnginePlaysBlindDecayTables(t *testing.T) {
	ctx := context.Background()
	const pairs, played = 5, 3
	games := 6000
	if testing.Short() {
		games = 1200
	}
	v := rules.Variant{Flips: rules.FlipsBlind}
	decay := rules.ForgetDecay
	for _, mem := range []rules.Memory{
		{Forget: rules.ForgetDecay, Decay: 0.2},
		{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3},
	} {
		override := strategies.MemoryOverride{Capacity: ptrTo(mem.Capacity), Forget: &decay, Decay: ptrTo(mem.Decay)}
		model := exact.Model{Memory: mem, Variant: v}
		for _, pol := range []struct {
			spec    strategies.Spec
			mu      exact.Lineup
			against string // the policy of the other seats in the engine's games
		}{
			{strategies.Spec{Name: "opt", Policy: "optimal", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, "daring"},
			{strategies.Spec{Name: "br", Policy: "best-response", Opponent: "daring", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}, "daring"},
			{strategies.Spec{Name: "opt", Policy: "optimal", Memory: override},
				exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, "optimal"},
		} {
			players := pol.mu.Players
			name := fmt.Sprintf("%v, %s, %d seats", mem, pol.spec.Policy, players)
			env := strategies.Env{MaxPairs: pairs, Players: players, Variant: v, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, pol.spec, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := exact.PolicyTable(ctx, field.Rat{}, model, pol.mu, pairs)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for n := 1; n <= pairs; n++ {
				lo := 0
				if mem.Capacity > 0 {
					lo = max(0, n-mem.Capacity)
				}
				for j := lo; j <= n; j++ {
					st := rules.State{N: n, J: j}
					got, ok := b.Player.Table.Lookup(st, false)
					if w, _ := want.Lookup(st, false); !ok || got != w {
						t.Errorf("%s, %v: the player plays %v (%v), the solver's table %v", name, st, got, ok, w)
					}
				}
			}
			seats := []sim.Player{b.Player}
			for range players - 1 {
				o, err := strategies.Build(ctx, strategies.Spec{Name: pol.against, Policy: pol.against, Memory: override}, env)
				if err != nil {
					t.Fatal(err)
				}
				seats = append(seats, o.Player)
			}
			gm, err := sim.NewGame(sim.Setup{Pairs: played, Variant: v, Players: seats})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var sum, sumSq float64
			for i := range games {
				if err := gm.Play(sim.GameID{Seed: 11, Index: uint64(i)}, nil); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				x := float64(gm.Outcome().Pairs[0])
				sum += x
				sumSq += x * x
			}
			mu := pol.mu
			if players == 2 {
				mu.Opponent = rules.PolicyDaring
			}
			res, err := exact.Evaluate(ctx, field.Rat{}, model, mu, rules.State{N: played, J: played})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			exp, _ := new(big.Rat).Set(res.PairsBySeat[0]).Float64()
			mean := sum / float64(games)
			se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
			if math.Abs(mean-exp) > 4.5*se {
				t.Errorf("%s against %s: seat 0 takes %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)",
					name, pol.against, mean, games, exp, se)
			}
		}
	}
}
