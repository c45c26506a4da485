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

// TestEnginePlaysBlindLimitedPassTables builds optimal under blind flips with a shared lru and
// handover-uniform memory of capacity 3 and pass rules two-known and always, checks that the table
// the engine reads is the solver's at every state of up to 5 pairs, without and just after a
// pass, and plays 5 pairs with the engine, optimal against optimal: seat 0's mean score (its
// pairs plus its part of a stalemate) must lie within 4.5 standard errors of the exact value.
func TestEnginePlaysBlindLimitedPassTables(t *testing.T) {
	ctx := context.Background()
	const pairs = 5
	games := 4000
	if testing.Short() {
		games = 800
	}
	v := rules.Variant{Flips: rules.FlipsBlind}
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			mem := rules.Memory{Capacity: 3, Forget: fg}
			override := strategies.MemoryOverride{Capacity: ptrTo(3), Forget: &fg}
			model := exact.Model{Pass: rule, Memory: mem, Variant: v}
			mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			name := fmt.Sprintf("%v, %v", mem, rule)
			env := strategies.Env{MaxPairs: pairs, Players: 2, Pass: rule, Variant: v, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, strategies.Spec{Name: "opt", Policy: "optimal", Memory: override}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := exact.PolicyTable(ctx, field.Rat{}, model, mu, pairs)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for n := 1; n <= pairs; n++ {
				for j := max(0, n-3); j <= n; j++ {
					st := rules.State{N: n, J: j}
					for _, after := range []bool{false, true} {
						got, ok := b.Player.Table.Lookup(st, after)
						if w, _ := want.Lookup(st, after); !ok || got != w {
							t.Errorf("%s, %v, after a pass %v: the player plays %v (%v), the solver's table %v", name, st, after, got, ok, w)
						}
					}
				}
			}
			gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Pass: rule, Variant: v, Players: []sim.Player{b.Player, b.Player}})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var sum, sumSq float64
			for i := range games {
				if err := gm.Play(sim.GameID{Seed: 11, Index: uint64(i)}, nil); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				x := float64(gm.Outcome().Share[0]) / 2
				sum += x
				sumSq += x * x
			}
			res, err := exact.Evaluate(ctx, field.Rat{}, model, mu, rules.State{N: pairs, J: pairs})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			exp, _ := new(big.Rat).Set(res.PairsBySeat[0]).Float64()
			mean := sum / float64(games)
			se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
			if math.Abs(mean-exp) > 4.5*se {
				t.Errorf("%s, optimal against optimal: seat 0 scores %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)",
					name, mean, games, exp, se)
			}
		}
	}
}
