package strategies_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestCopiesDecaySeatTablesAreTheSolversBestChoices builds optimal (every seat's own optimum)
// and best-response to safe and to daring under four copies of a face and a shared decay(0.3)
// memory at three seats with strategies.Build, and checks that the engine's table holds, in every
// state of faces of up to three faces (two in -short) with at most three remembered cards
// that it covers (the start of each deal size among them), the first of the best choices of
// exact.CopiesChoiceValues, a solve from that state alone (optimal only in -short).
func TestCopiesDecaySeatTablesAreTheSolversBestChoices(t *testing.T) {
	ctx := context.Background()
	const copies, players, q = 4, 3, 0.3
	faces := 3
	if testing.Short() {
		faces = 2
	}
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: q}
	v := rules.Variant{Copies: copies}
	env := strategies.Env{MaxPairs: faces * copies / 2, Players: players, Variant: v, Tables: strategies.NewTables()}
	model := exact.Model{Variant: v, Memory: mem}
	compared := 0
	lineups := []struct{ policy, opponent string }{{"optimal", ""}, {"best-response", "safe"}, {"best-response", "daring"}}
	if testing.Short() {
		lineups = lineups[:1]
	}
	for _, lineup := range lineups {
		b, err := strategies.Build(ctx, strategies.Spec{Name: lineup.policy, Policy: lineup.policy, Opponent: lineup.opponent,
			Memory: decayOverride(q, 0)}, env)
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
		starts, before := 0, compared
		copiesStates(faces, copies, func(counts []int) {
			st := exact.CopiesState{Unknown: make([]int, copies/2), Half: make([]int, copies/2)}
			for i := range copies / 2 {
				st.Unknown[i], st.Half[i] = counts[2*i], counts[2*i+1]
			}
			if st.Remembered() > 3 || st.UnknownCards() == 0 {
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
		if starts != faces || compared-before < 3*faces {
			t.Errorf("%s: %d states compared, %d deal starts; want every start and more than %d states", lineup.policy, compared-before, starts, 3*faces)
		}
	}
}

// TestCopiesDecaySeatEngineGamesMatchExactValues plays, at three seats under four copies of a
// face and a shared decay(0.3) memory, every seat optimal, and best-response to safe against two
// safe seats, built with strategies.Build, and checks every seat's mean pairs against the copies
// model's exact value within four standard errors.
func TestCopiesDecaySeatEngineGamesMatchExactValues(t *testing.T) {
	const copies, q = 4, 0.3
	pairs, games := 6, 4000
	if testing.Short() {
		pairs, games = 4, 150
	}
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: q}
	v := rules.Variant{Copies: copies}
	env := strategies.Env{MaxPairs: pairs, Players: 3, Variant: v, Tables: strategies.NewTables()}
	ms := decayOverride(q, 0)
	checkCopiesSeatGames(t, env, exact.Model{Variant: v, Memory: mem}, ms, pairs, games, 13)
}
