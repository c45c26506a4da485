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

// TestEnginePlaysBlindDecayPassTables builds optimal and best-response to daring under blind
// flips with a shared decay memory (q = 0.2 without a capacity under pass rule two-known, q = 0.1
// with capacity 3 under always, where best-response passes in most states with a remembered card),
// checks that the table the engine reads is the solver's at every state of up to 5 pairs, without
// and just after a pass, and plays 5 pairs with the engine, optimal against optimal and
// best-response against daring: seat 0's mean score (its pairs plus its part of a stalemate) must
// lie within 4.5 standard errors of the exact value. The engine's pass is a hand-over, which
// forgets as the solver's does.
func TestEnginePlaysBlindDecayPassTables(t *testing.T) {
	ctx := context.Background()
	const pairs = 5
	// Enough games that a pass which forgot nothing (best-response's value 4.3065 in place of
	// 4.2493) lies over 5 standard errors away (under the race detector, which slows the engine
	// down several times, a fifth of them).
	games := 30000
	if testing.Short() {
		games = 10000
	}
	if raceEnabled {
		games /= 5
	}
	v := rules.Variant{Flips: rules.FlipsBlind}
	decay := rules.ForgetDecay
	for _, tc := range []struct {
		rule    rules.PassRule
		mem     rules.Memory
		mu      exact.Lineup
		against string // the other seat's policy in the engine's games
	}{
		{rules.PassTwoKnown, rules.Memory{Forget: rules.ForgetDecay, Decay: 0.2},
			exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, ""},
		{rules.PassAlways, rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.1},
			exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}, "daring"},
	} {
		override := strategies.MemoryOverride{Capacity: ptrTo(tc.mem.Capacity), Forget: &decay, Decay: ptrTo(tc.mem.Decay)}
		model := exact.Model{Pass: tc.rule, Memory: tc.mem, Variant: v}
		name := fmt.Sprintf("%v, %v, %v", tc.mem, tc.rule, tc.mu.Policy)
		env := strategies.Env{MaxPairs: pairs, Players: 2, Pass: tc.rule, Variant: v, Tables: strategies.NewTables()}
		b, err := strategies.Build(ctx, strategies.Spec{Name: "p", Policy: tc.mu.Policy.String(), Opponent: tc.against, Memory: override}, env)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := exact.PolicyTable(ctx, field.Rat{}, model, tc.mu, pairs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for n := 1; n <= pairs; n++ {
			lo := 0
			if tc.mem.Capacity > 0 {
				lo = max(0, n-tc.mem.Capacity)
			}
			for j := lo; j <= n; j++ {
				st := rules.State{N: n, J: j}
				for _, after := range []bool{false, true} {
					got, ok := b.Player.Table.Lookup(st, after)
					if w, _ := want.Lookup(st, after); !ok || got != w {
						t.Errorf("%s, %v, after a pass %v: the player plays %v (%v), the solver's table %v", name, st, after, got, ok, w)
					}
				}
			}
		}
		other := b.Player
		if tc.against != "" {
			o, err := strategies.Build(ctx, strategies.Spec{Name: tc.against, Policy: tc.against, Memory: override}, env)
			if err != nil {
				t.Fatal(err)
			}
			other = o.Player
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Pass: tc.rule, Variant: v, Players: []sim.Player{b.Player, other}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var sum, sumSq float64
		for i := range games {
			if err := gm.Play(sim.GameID{Seed: 13, Index: uint64(i)}, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			x := float64(gm.Outcome().Share[0]) / 2
			sum += x
			sumSq += x * x
		}
		res, err := exact.Evaluate(ctx, field.Rat{}, model, tc.mu, rules.State{N: pairs, J: pairs})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		exp, _ := new(big.Rat).Set(res.PairsBySeat[0]).Float64()
		mean := sum / float64(games)
		se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
		if math.Abs(mean-exp) > 4.5*se {
			t.Errorf("%s against %s: seat 0 scores %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)",
				name, tc.mu.Opponent, mean, games, exp, se)
		}
	}
}

// TestEnginePlaysBlindDecaySolitaire plays blind solitaire with a shared decay memory of
// capacity 3 and q = 0.3 with the engine, optimal and daring, 3 pairs: the mean number of turns
// must lie within 4.5 standard errors of the solver's expected turns.
func TestEnginePlaysBlindDecaySolitaire(t *testing.T) {
	ctx := context.Background()
	const pairs = 3
	games := 4000
	if testing.Short() {
		games = 800
	}
	v := rules.Variant{Flips: rules.FlipsBlind}
	decay := rules.ForgetDecay
	mem := rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3}
	override := strategies.MemoryOverride{Capacity: ptrTo(mem.Capacity), Forget: &decay, Decay: ptrTo(mem.Decay)}
	model := exact.Model{Memory: mem, Variant: v}
	for _, pol := range []rules.Policy{rules.PolicyOptimal, rules.PolicyDaring} {
		env := strategies.Env{MaxPairs: pairs, Players: 1, Variant: v, Tables: strategies.NewTables()}
		b, err := strategies.Build(ctx, strategies.Spec{Name: "solo", Policy: pol.String(), Memory: override}, env)
		if err != nil {
			t.Fatalf("%v: %v", pol, err)
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Players: []sim.Player{b.Player}})
		if err != nil {
			t.Fatalf("%v: %v", pol, err)
		}
		var sum, sumSq float64
		for i := range games {
			if err := gm.Play(sim.GameID{Seed: 17, Index: uint64(i)}, nil); err != nil {
				t.Fatalf("%v: %v", pol, err)
			}
			x := float64(gm.Outcome().Turns)
			sum += x
			sumSq += x * x
		}
		res, err := exact.Evaluate(ctx, field.Rat{}, model, exact.Lineup{Players: 1, Policy: pol}, rules.State{N: pairs, J: pairs})
		if err != nil {
			t.Fatalf("%v: %v", pol, err)
		}
		exp, _ := new(big.Rat).Set(res.ExpectedTurns).Float64()
		mean := sum / float64(games)
		se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
		if math.Abs(mean-exp) > 4.5*se {
			t.Errorf("%v: the engine takes %.4f turns on average over %d games, the solver expects %.4f (standard error %.4f)",
				pol, mean, games, exp, se)
		}
	}
}
