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

// TestEnginePlaysFluctBlindPassTables builds optimal and best-response to daring under blind flips
// with a shared lru and handover-uniform memory of capacity 2 fluctuating by 1, under the pass
// rules two-known and always; checks that the table the engine reads holds, at every capacity
// drawn, without and with a pass just made, the solver's choice in every state of up to 4 pairs,
// and that the choice just after a pass differs from the other somewhere (so that the engine's
// reading of the flag is checked); and plays 4 pairs with the engine against daring under the pass
// rule: seat 0's mean pairs must lie within 4.5 standard errors of the exact value.
func TestEnginePlaysFluctBlindPassTables(t *testing.T) {
	ctx := context.Background()
	const pairs = 4
	games, passes := 4000, []rules.PassRule{rules.PassTwoKnown, rules.PassAlways}
	if testing.Short() {
		games, passes = 250, passes[1:]
	}
	v := rules.Variant{Flips: rules.FlipsBlind}
	differ := 0
	for _, pass := range passes {
		for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			mem := rules.Memory{Capacity: 2, Forget: fg, Fluctuation: 1}
			override := strategies.MemoryOverride{Capacity: ptrTo(2), Forget: &fg, Fluctuation: ptrTo(1)}
			model := exact.Model{Memory: mem, Variant: v, Pass: pass}
			env := strategies.Env{MaxPairs: pairs, Players: 2, Pass: pass, Variant: v, Tables: strategies.NewTables()}
			daring, err := strategies.Build(ctx, strategies.Spec{Name: "daring", Policy: "daring", Memory: override}, env)
			if err != nil {
				t.Fatal(err)
			}
			for _, pol := range []rules.Policy{rules.PolicyOptimal, rules.PolicyBestResponse} {
				name := fmt.Sprintf("%v blind, pass %s, %s", mem, pass, pol)
				spec := strategies.Spec{Name: "me", Policy: pol.String(), Memory: override}
				var want *rules.ChoiceTable
				if pol == rules.PolicyOptimal {
					want, err = exact.FluctTable(ctx, field.Rat{}, model, pairs)
				} else {
					spec.Opponent = "daring"
					want, err = exact.FluctReplyTable(ctx, field.Rat{}, model, rules.PolicyDaring, pairs)
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				b, err := strategies.Build(ctx, spec, env)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if b.Exact == nil || b.Exact.Memory != mem {
					t.Errorf("%s: the player is valued in %+v, want the fluctuating model %v", name, b.Exact, mem)
				}
				for n := 1; n <= pairs; n++ {
					for k := 0; k <= min(n, 3); k++ {
						st := rules.State{N: n, J: n - k}
						for c := 2; c <= 3; c++ {
							if fg == rules.ForgetLRU && k > c {
								continue // lru forgets down to the capacity drawn
							}
							var got [2]rules.Choice
							for f, after := range []bool{false, true} {
								g, ok := b.Player.Table.LookupCapacity(st, after, c)
								w, wok := want.LookupCapacity(st, after, c)
								if !ok || !wok || g != w {
									t.Errorf("%s: %v, capacity %d, after a pass %t: the player plays %v (%v), the model %v (%v)", name, st, c, after, g, ok, w, wok)
								}
								got[f] = g
							}
							if got[0] != got[1] {
								differ++
							}
						}
					}
				}
				gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Pass: pass, Variant: v, Players: []sim.Player{b.Player, daring.Player}})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				var sum, sumSq float64
				for i := range games {
					if err := gm.Play(sim.GameID{Seed: 17, Index: uint64(i)}, nil); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					x := float64(gm.Outcome().Pairs[0])
					sum, sumSq = sum+x, sumSq+x*x
				}
				res, err := exact.Evaluate(ctx, field.Rat{}, model, exact.Lineup{Players: 2, Policy: pol, Opponent: rules.PolicyDaring}, rules.State{N: pairs, J: pairs})
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
	if differ == 0 {
		t.Error("the choices just after a pass agree with the others everywhere: the test cannot tell the flag apart")
	}
}
