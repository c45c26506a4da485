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

// TestEnginePlaysBlindLimitedTurnLimitPassTables builds optimal under blind flips, a turn limit of
// 6 and a shared memory of capacity 3 (lru under pass rule two-known, handover-uniform under
// always), checks that the table the engine reads is the solver's at every state of up to 4 pairs,
// every number of turns left, without and just after a pass, and plays 4 pairs with the engine,
// optimal against optimal: seat 0's mean score (its pairs plus its part of a stalemate) must lie
// within 4.5 standard errors of the exact value. In solitaire under the same limit, optimal's
// table must be the solver's.
func TestEnginePlaysBlindLimitedTurnLimitPassTables(t *testing.T) {
	ctx := context.Background()
	const pairs, limit = 4, 6
	games := 4000
	if testing.Short() {
		games = 600
	}
	v := rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}
	cases := []struct {
		rule    rules.PassRule
		fg      rules.Forgetting
		players int
	}{
		{rules.PassTwoKnown, rules.ForgetLRU, 2},
		{rules.PassAlways, rules.ForgetHandoverUniform, 2},
		{rules.PassNever, rules.ForgetLRU, 1},
	}
	for _, tc := range cases {
		fg := tc.fg
		mem := rules.Memory{Capacity: 3, Forget: fg}
		override := strategies.MemoryOverride{Capacity: ptrTo(3), Forget: &fg}
		model := exact.Model{Pass: tc.rule, Memory: mem, Variant: v}
		mu := exact.Lineup{Players: tc.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		name := fmt.Sprintf("%v, %v, %d players", mem, tc.rule, tc.players)
		env := strategies.Env{MaxPairs: pairs, Players: tc.players, Pass: tc.rule, Variant: v, Tables: strategies.NewTables()}
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
				for left := 1; left <= limit; left++ {
					for _, after := range []bool{false, true} {
						if after && tc.players == 1 {
							continue
						}
						got, ok := b.Player.Table.LookupTurnsLeft(st, after, left)
						if w, _ := want.LookupTurnsLeft(st, after, left); !ok || got != w {
							t.Errorf("%s, %v, %d turns left, after a pass %v: the player plays %v (%v), the solver's table %v", name, st, left, after, got, ok, w)
						}
					}
				}
			}
		}
		if tc.players == 1 {
			continue
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Pass: tc.rule, Variant: v, Players: []sim.Player{b.Player, b.Player}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var sum, sumSq float64
		for i := range games {
			if err := gm.Play(sim.GameID{Seed: 12, Index: uint64(i)}, nil); err != nil {
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
