package strategies_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestCopiesHandoverSeatTablesAreTheSolversBestChoices builds optimal (every seat's own optimum)
// and best-response to safe and to daring under four copies of a face and a shared
// handover-uniform memory of capacity 3 at three seats with strategies.Build, and checks that the
// engine's table holds, in every state of faces of up to two faces (three outside -short) with at
// most three remembered cards that it covers (the start of each deal size among them), the first of the best choices
// of exact.CopiesChoiceValues, a solve from that state alone.
func TestCopiesHandoverSeatTablesAreTheSolversBestChoices(t *testing.T) {
	ctx := context.Background()
	const copies, capacity, players = 4, 3, 3
	faces := 2
	if !testing.Short() {
		faces = 3
	}
	mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}
	v := rules.Variant{Copies: copies}
	env := strategies.Env{MaxPairs: faces * copies / 2, Players: players, Variant: v, Tables: strategies.NewTables()}
	model := exact.Model{Variant: v, Memory: mem}
	for _, lineup := range []struct{ policy, opponent string }{{"optimal", ""}, {"best-response", "safe"}, {"best-response", "daring"}} {
		b, err := strategies.Build(ctx, strategies.Spec{Name: lineup.policy, Policy: lineup.policy, Opponent: lineup.opponent,
			Memory: handoverOverride(capacity)}, env)
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
		mu := exact.Lineup{Players: players, Policy: b.Exact.Policy, Opponent: b.Exact.Opponent}
		compared, starts := 0, 0
		copiesStates(faces, copies, func(counts []int) {
			st := exact.CopiesState{Unknown: make([]int, copies/2), Half: make([]int, copies/2)}
			for i := range copies / 2 {
				st.Unknown[i], st.Half[i] = counts[2*i], counts[2*i+1]
			}
			if st.Remembered() > capacity || st.UnknownCards() == 0 {
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
				t.Errorf("%s in %v: the engine's table chooses %s, the solver's best is %v", lineup.policy, st, got, cv.Best)
			}
			compared++
		})
		if starts != faces || compared < 5*faces {
			t.Errorf("%s: %d states compared, %d deal starts; want every start and more than %d states", lineup.policy, compared, starts, 5*faces)
		}
	}
}

// TestCopiesHandoverSeatEngineGamesMatchExactValues plays, at three seats under four copies of a
// face and a shared handover-uniform memory of capacity 3, every seat optimal, and best-response
// to safe against two safe seats, built with strategies.Build, and checks every seat's mean pairs
// against the copies model's exact value within four standard errors.
func TestCopiesHandoverSeatEngineGamesMatchExactValues(t *testing.T) {
	const copies, capacity, pairs = 4, 3, 6
	games := 4000
	if testing.Short() {
		games = 600
	}
	mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}
	v := rules.Variant{Copies: copies}
	env := strategies.Env{MaxPairs: pairs, Players: 3, Variant: v, Tables: strategies.NewTables()}
	ms := handoverOverride(capacity)
	checkCopiesSeatGames(t, env, exact.Model{Variant: v, Memory: mem}, ms, pairs, games, 11)
}

// checkCopiesSeatGames plays engine games at three seats of every seat optimal and of
// best-response to safe beside two safe seats, each with memory override ms, under model at env,
// and checks every seat's mean pairs over games from the full deal of pairs pairs against the
// exact values within 4 standard errors.
func checkCopiesSeatGames(t *testing.T, env strategies.Env, model exact.Model, ms strategies.MemoryOverride, pairs, games int, seed uint64) {
	t.Helper()
	ctx := context.Background()
	v := model.Variant
	for _, lineup := range [][]strategies.Spec{
		{{Name: "a", Policy: "optimal", Memory: ms}, {Name: "b", Policy: "optimal", Memory: ms}, {Name: "c", Policy: "optimal", Memory: ms}},
		{{Name: "a", Policy: "best-response", Opponent: "safe", Memory: ms}, {Name: "b", Policy: "safe", Memory: ms}, {Name: "c", Policy: "safe", Memory: ms}},
	} {
		var seats []sim.Player
		var pols []rules.Policy
		for _, spec := range lineup {
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatal(err)
			}
			if spec.Policy != "safe" && b.Exact == nil {
				t.Fatalf("%s: no exact model", spec.Policy)
			}
			seats = append(seats, b.Player)
			p, err := rules.ParsePolicy(spec.Policy)
			if err != nil {
				t.Fatal(err)
			}
			pols = append(pols, p)
		}
		name := fmt.Sprint(pols)
		want, err := exact.Evaluate(ctx, field.Float{}, model, exact.SeatLineup(pols...), rules.State{N: pairs, J: pairs})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Players: seats})
		if err != nil {
			t.Fatal(err)
		}
		sum, sumSq := make([]float64, 3), make([]float64, 3)
		for i := range games {
			if err := g.Play(sim.GameID{Seed: seed, Index: uint64(i)}, nil); err != nil {
				t.Fatal(err)
			}
			for s, x := range g.Outcome().Pairs {
				sum[s] += float64(x)
				sumSq[s] += float64(x * x)
			}
		}
		for s := range 3 {
			mean := sum[s] / float64(games)
			se := math.Sqrt((sumSq[s]/float64(games) - mean*mean) / float64(games))
			if d := math.Abs(mean - want.PairsBySeat[s]); d > 4*se {
				t.Errorf("%s: seat %d: engine mean %.4f pairs over %d games, exact %.4f (%.1f standard errors)", name, s, mean, games, want.PairsBySeat[s], d/se)
			}
		}
	}
}
