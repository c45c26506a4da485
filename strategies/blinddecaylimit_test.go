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

// TestEnginePlaysBlindDecayUnderTurnLimit builds optimal and best-response to daring under blind
// flips with a shared decay memory of capacity 3 (q = 0.2) under a turn limit of 6 and pass rule
// always, checks that the table the engine reads holds (up to 4 pairs, 3 under the race
// detector), in every layer of turns left, the first best choice of the solver's choices' values
// with that many turns left (ChoiceValuesAt), and just after a pass the solver's table, and that
// the layers differ somewhere, so that reading the wrong layer would show; then plays 3 pairs
// with the engine against daring (fewer games under the race detector): seat 0's mean pairs must
// lie within 4.5 standard errors of the exact value.
func TestEnginePlaysBlindDecayUnderTurnLimit(t *testing.T) {
	ctx := context.Background()
	const limit, played = 6, 3
	maxPairs := 4
	games := 6000
	if testing.Short() {
		games = 1500
	}
	if raceEnabled {
		maxPairs, games = played, 300
	}
	mem := rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.2}
	decay := rules.ForgetDecay
	override := strategies.MemoryOverride{Capacity: ptrTo(mem.Capacity), Forget: &decay, Decay: ptrTo(mem.Decay)}
	v := rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}
	m := exact.Model{Pass: rules.PassAlways, Memory: mem, Variant: v}
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
		env := strategies.Env{MaxPairs: maxPairs, Players: 2, Pass: rules.PassAlways, Variant: v, Tables: strategies.NewTables()}
		b, err := strategies.Build(ctx, pol.spec, env)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		table, err := exact.PolicyTable(ctx, field.Rat{}, m, pol.mu, maxPairs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var at []exact.TurnState
		for n := 1; n <= maxPairs; n++ {
			for j := max(0, n-mem.Capacity); j <= n; j++ {
				for left := 1; left <= limit; left++ {
					at = append(at, exact.TurnState{State: rules.State{N: n, J: j}, TurnsLeft: left})
				}
			}
		}
		values, err := exact.ChoiceValuesAt(ctx, field.Rat{}, m, pol.mu, at)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		differ := 0
		for i, p := range at {
			got, ok := b.Player.Table.LookupTurnsLeft(p.State, false, p.TurnsLeft)
			if want := values[i].Best[0]; !ok || got != want {
				t.Errorf("%s, %v, %d turns left: the player plays %v (%v), the solver's best choice is %v", name, p.State, p.TurnsLeft, got, ok, want)
			}
			got, ok = b.Player.Table.LookupTurnsLeft(p.State, true, p.TurnsLeft)
			if want, _ := table.LookupTurnsLeft(p.State, true, p.TurnsLeft); !ok || got != want {
				t.Errorf("%s, %v, %d turns left, after a pass: the player plays %v (%v), the solver's table %v", name, p.State, p.TurnsLeft, got, ok, want)
			}
			if first, _ := b.Player.Table.LookupTurnsLeft(p.State, false, 1); first != values[i].Best[0] {
				differ++
			}
		}
		if differ == 0 {
			t.Errorf("%s: every layer of turns left plays as the last: the test cannot tell the layers apart", name)
		}
		o, err := strategies.Build(ctx, strategies.Spec{Name: "daring", Policy: "daring", Memory: override}, env)
		if err != nil {
			t.Fatal(err)
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: played, Pass: rules.PassAlways, Variant: v, Players: []sim.Player{b.Player, o.Player}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var sum, sumSq float64
		for i := range games {
			if err := gm.Play(sim.GameID{Seed: 13, Index: uint64(i)}, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			x := float64(gm.Outcome().Pairs[0])
			sum += x
			sumSq += x * x
		}
		mu := pol.mu
		mu.Opponent = rules.PolicyDaring
		res, err := exact.Evaluate(ctx, field.Rat{}, m, mu, rules.State{N: played, J: played})
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
