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

// TestEnginePlaysBlindLimitedTables builds optimal and best-response to daring under blind flips
// with a shared lru and handover-uniform memory of capacity 3, checks that the table the engine
// reads is the solver's (every state of up to 5 pairs), and plays 5 pairs with the engine against
// daring: seat 0's mean pairs must lie within 4.5 standard errors of the exact value.
func TestEnginePlaysBlindLimitedTables(t *testing.T) {
	ctx := context.Background()
	const pairs = 5
	games := 6000
	if testing.Short() {
		games = 1500
	}
	v := rules.Variant{Flips: rules.FlipsBlind}
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		mem := rules.Memory{Capacity: 3, Forget: fg}
		override := strategies.MemoryOverride{Capacity: ptrTo(3), Forget: &fg}
		model := exact.Model{Memory: mem, Variant: v}
		for _, pol := range []struct {
			spec strategies.Spec
			mu   exact.Lineup
		}{
			{strategies.Spec{Name: "opt", Policy: "optimal", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
			{strategies.Spec{Name: "br", Policy: "best-response", Opponent: "daring", Memory: override},
				exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}},
		} {
			name := fmt.Sprintf("%v, %s", mem, pol.spec.Policy)
			env := strategies.Env{MaxPairs: pairs, Players: 2, Variant: v, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, pol.spec, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := exact.PolicyTable(ctx, field.Rat{}, model, pol.mu, pairs)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for n := 1; n <= pairs; n++ {
				for j := max(0, n-3); j <= n; j++ {
					st := rules.State{N: n, J: j}
					got, ok := b.Player.Table.Lookup(st, false)
					if w, _ := want.Lookup(st, false); !ok || got != w {
						t.Errorf("%s, %v: the player plays %v (%v), the solver's table %v", name, st, got, ok, w)
					}
				}
			}
			daring, err := strategies.Build(ctx, strategies.Spec{Name: "daring", Policy: "daring", Memory: override}, env)
			if err != nil {
				t.Fatal(err)
			}
			gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Players: []sim.Player{b.Player, daring.Player}})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var sum, sumSq float64
			for i := range games {
				if err := gm.Play(sim.GameID{Seed: 7, Index: uint64(i)}, nil); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				x := float64(gm.Outcome().Pairs[0])
				sum += x
				sumSq += x * x
			}
			mu := exact.Lineup{Players: 2, Policy: pol.mu.Policy, Opponent: rules.PolicyDaring}
			if mu.Policy == rules.PolicyOptimal {
				mu.Opponent = rules.PolicyDaring
			}
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
	}
}
