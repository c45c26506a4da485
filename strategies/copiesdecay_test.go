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

// decayOverride returns the memory override of a decay(q) memory of the given capacity (0: none).
func decayOverride(q float64, capacity int) strategies.MemoryOverride {
	forget := rules.ForgetDecay
	return strategies.MemoryOverride{Capacity: &capacity, Forget: &forget, Decay: &q}
}

// TestCopiesDecayTablesAreTheSolversBestChoices builds optimal and best-response to safe under
// four copies of a face and a shared decay memory with strategies.Build, and checks that the
// engine's table holds, in every state of faces of up to three faces that it covers (the start of
// each deal size among them), the first of the best choices of exact.CopiesChoiceValues, a solve
// from that state alone.
func TestCopiesDecayTablesAreTheSolversBestChoices(t *testing.T) {
	ctx := context.Background()
	const copies, faces, q = 4, 3, 0.3
	type cfg struct{ capacity int }
	cfgs := []cfg{{0}}
	if !testing.Short() {
		cfgs = append(cfgs, cfg{3})
	}
	v := rules.Variant{Copies: copies}
	for _, c := range cfgs {
		mem := rules.Memory{Capacity: c.capacity, Forget: rules.ForgetDecay, Decay: q}
		env := strategies.Env{MaxPairs: faces * copies / 2, Players: 2, Variant: v, Tables: strategies.NewTables()}
		model := exact.Model{Variant: v, Memory: mem}
		for _, lineup := range []struct{ policy, opponent string }{{"optimal", ""}, {"best-response", "safe"}} {
			b, err := strategies.Build(ctx, strategies.Spec{Name: lineup.policy, Policy: lineup.policy, Opponent: lineup.opponent,
				Memory: decayOverride(q, c.capacity)}, env)
			if err != nil {
				t.Fatalf("%s: %v", lineup.policy, err)
			}
			if b.Exact == nil || b.Exact.Memory != mem {
				t.Fatalf("%s: exact model %+v, want the %s memory", lineup.policy, b.Exact, mem)
			}
			ct := b.Player.Table.Copies()
			if ct == nil {
				t.Fatalf("%s: no table read by the state of faces", lineup.policy)
			}
			mu := exact.Lineup{Players: 2, Policy: b.Exact.Policy, Opponent: b.Exact.Opponent}
			compared, starts := 0, 0
			copiesStates(faces, copies, func(counts []int) {
				st := exact.CopiesState{Unknown: make([]int, copies/2), Half: make([]int, copies/2)}
				for i := range copies / 2 {
					st.Unknown[i], st.Half[i] = counts[2*i], counts[2*i+1]
				}
				if (c.capacity > 0 && st.Remembered() > c.capacity) || st.UnknownCards() == 0 {
					return
				}
				got, ok := ct.Lookup(counts)
				start := st.Remembered() == 0 && st.Pairs() == 2*st.Unknown[copies/2-1]
				if !ok {
					if start {
						t.Errorf("%s: no choice at the start of a deal, %v", lineup.policy, st)
					}
					return
				}
				if start {
					starts++
				}
				cv, err := exact.CopiesChoiceValues(ctx, field.Rat{}, model, mu, st)
				if err != nil {
					t.Fatalf("%s in %v: %v", lineup.policy, st, err)
				}
				if want := cv.Best[0]; got != want {
					t.Errorf("%s, capacity %d, in %v: the engine's table chooses %s, the solver's best is %v", lineup.policy, c.capacity, st, got, cv.Best)
				}
				compared++
			})
			if starts != faces || compared < 20 {
				t.Errorf("%s: %d states compared, %d deal starts; want every start and more than 20 states", lineup.policy, compared, starts)
			}
		}
	}
}

// TestCopiesDecayEngineGamesMatchExactValues plays optimal against optimal and best-response to
// safe against safe, built with strategies.Build, at six pairs of four copies of a face and a
// shared decay(0.3) memory, and checks seat 0's mean pairs against the exact value within four
// standard errors.
func TestCopiesDecayEngineGamesMatchExactValues(t *testing.T) {
	ctx := context.Background()
	const copies, pairs, q = 4, 6, 0.3
	games := 3000
	if testing.Short() {
		games = 1000
	}
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: q}
	v := rules.Variant{Copies: copies}
	env := strategies.Env{MaxPairs: pairs, Players: 2, Variant: v, Tables: strategies.NewTables()}
	ms := decayOverride(q, 0)
	for _, lineup := range [][2]strategies.Spec{
		{{Name: "a", Policy: "optimal", Memory: ms}, {Name: "b", Policy: "optimal", Memory: ms}},
		{{Name: "a", Policy: "best-response", Opponent: "safe", Memory: ms}, {Name: "b", Policy: "safe", Memory: ms}},
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
		want, err := exact.Evaluate(ctx, field.Float{}, exact.Model{Variant: v, Memory: mem}, mu, rules.State{N: pairs, J: pairs})
		if err != nil {
			t.Fatal(err)
		}
		g, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Players: seats})
		if err != nil {
			t.Fatal(err)
		}
		var sum, sumSq float64
		for i := range games {
			if err := g.Play(sim.GameID{Seed: 7, Index: uint64(i)}, nil); err != nil {
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
