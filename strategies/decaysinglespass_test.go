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

// TestDecaySinglesPassTablePlayersPlayTheModel builds optimal and best-response to safe with a
// shared decay memory (q = 0.2) in a deal with two singletons under the pass rules two-known and
// always, checks that each plays the decay model's table in every state, without a pass and just
// after one, that the two layers differ somewhere, and plays them card by card with the engine:
// seat 0's mean score (its pairs and its half of a stalemate) lies within 4.5 standard errors of
// the solver's value from the full deal; and the table, evaluated exactly as a table against the
// opponent, makes the solver's value. (At q = 0.2 optimal plays daring, or safe, without a pass
// and passes just after one in some states.)
func TestDecaySinglesPassTablePlayersPlayTheModel(t *testing.T) {
	ctx := context.Background()
	const singles = 2
	pairs, games := 4, 3000
	if testing.Short() {
		pairs, games = 3, 300
	}
	decay := rules.ForgetDecay
	mem := rules.Memory{Forget: decay, Decay: 0.2}
	override := strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.2)}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		m := exact.Model{Singletons: singles, Memory: mem, Pass: pass}
		env := strategies.Env{MaxPairs: pairs, Singletons: singles, Players: 2, Pass: pass, Tables: strategies.NewTables()}
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
				t.Fatalf("%v, %s: %v", pass, tc.policy, err)
			}
			other, err := strategies.Build(ctx, strategies.Spec{Name: tc.opponent, Policy: tc.opponent, Memory: override}, env)
			if err != nil {
				t.Fatalf("%v, %s: %v", pass, tc.opponent, err)
			}
			want, err := exact.PolicyTable(ctx, field.Rat{}, m, tc.mu, pairs)
			if err != nil {
				t.Fatalf("%v, %s: %v", pass, tc.policy, err)
			}
			differ := 0
			for n := 1; n <= pairs; n++ {
				for j := 0; j <= n; j++ {
					for f := 0; f <= singles; f++ {
						st := rules.State{N: n, J: j, S: singles, F: f}
						for _, after := range []bool{false, true} {
							got, ok := me.Player.Table.Lookup(st, after)
							w, _ := want.Lookup(st, after)
							if !ok || got != w {
								t.Errorf("%v, %s, %v, after a pass %v: the player plays %v (%v), the decay table %v",
									pass, tc.policy, st, after, got, ok, w)
							}
						}
						plain, _ := want.Lookup(st, false)
						after, _ := want.Lookup(st, true)
						if plain != after {
							differ++
						}
					}
				}
			}
			if differ == 0 {
				t.Errorf("%v, %s: the table's choices after a pass and without one agree everywhere: the test cannot tell the layers apart", pass, tc.policy)
			}
			// A second method: the player's table, evaluated as a table against the opponent,
			// makes what the solver's matchup makes (a wrong choice in a state the game reaches,
			// without a pass or just after one, makes it less).
			opp := tc.mu.Opponent
			if tc.policy == "best-response" {
				opp = rules.PolicySafe
			}
			full := rules.State{N: pairs, J: pairs, S: singles, F: singles}
			asTable, err := exact.Evaluate(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Table: me.Player.Table, Opponent: opp}, full)
			if err != nil {
				t.Fatalf("%v, %s as a table: %v", pass, tc.policy, err)
			}
			res, err := exact.Evaluate(ctx, field.Rat{}, m, tc.mu, full)
			if err != nil {
				t.Fatal(err)
			}
			if asTable.PairsBySeat[0].Cmp(res.PairsBySeat[0]) != 0 {
				t.Errorf("%v, %s: its table makes %v pairs against %s from %v, the solver's matchup %v",
					pass, tc.policy, asTable.PairsBySeat[0].FloatString(6), tc.opponent, full, res.PairsBySeat[0].FloatString(6))
			}
			gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Singletons: singles, Pass: pass, Players: []sim.Player{me.Player, other.Player}})
			if err != nil {
				t.Fatal(err)
			}
			var sum, sumSq float64
			for i := range games {
				if err := gm.Play(sim.GameID{Seed: 23, Index: uint64(i)}, nil); err != nil {
					t.Fatal(err)
				}
				x := float64(gm.Outcome().Share[0]) / 2 // its pairs and its half of a stalemate
				sum += x
				sumSq += x * x
			}
			exp, _ := new(big.Rat).Set(res.PairsBySeat[0]).Float64()
			mean := sum / float64(games)
			se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
			if math.Abs(mean-exp) > 4.5*se {
				t.Errorf("%v, %s against %s: seat 0 takes %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)",
					pass, tc.policy, tc.opponent, mean, games, exp, se)
			}
		}
	}
}
