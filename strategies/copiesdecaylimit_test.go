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

// TestCopiesDecayLimitTablesAreTheSolversBestChoices builds optimal and best-response to safe
// under four copies of a face, a shared decay memory and a turn limit with strategies.Build, and
// checks that the engine's table holds, with each number of turns left t and in every state of
// faces of up to two faces (in the long form three) that it covers, the first of the best choices of
// exact.CopiesChoiceValues solved from that state alone under a limit of t turns.
func TestCopiesDecayLimitTablesAreTheSolversBestChoices(t *testing.T) {
	ctx := context.Background()
	const copies, q, limit = 4, 0.3, 4
	type cfg struct {
		pass  rules.PassRule
		faces int
	}
	cfgs := []cfg{{rules.PassAlways, 2}}
	if !testing.Short() {
		cfgs = append(cfgs, cfg{rules.PassNever, 2}, cfg{rules.PassTwoKnown, 2}, cfg{rules.PassAlways, 3})
	}
	v := rules.Variant{Copies: copies, TurnLimit: limit}
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: q}
	for _, c := range cfgs {
		pass, faces := c.pass, c.faces
		env := strategies.Env{MaxPairs: faces * copies / 2, Players: 2, Variant: v, Pass: pass, Tables: strategies.NewTables()}
		for _, lineup := range []struct{ policy, opponent string }{{"optimal", ""}, {"best-response", "safe"}} {
			name := fmt.Sprintf("pass %s, %d faces, %s", pass, faces, lineup.policy)
			b, err := strategies.Build(ctx, strategies.Spec{Name: lineup.policy, Policy: lineup.policy, Opponent: lineup.opponent,
				Memory: decayOverride(q, 0)}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if b.Exact == nil || b.Exact.Memory != mem {
				t.Fatalf("%s: exact model %+v, want the %s memory", name, b.Exact, mem)
			}
			if got := b.Player.Table.TurnLimit(); got != limit {
				t.Fatalf("%s: the table has %d turn layers, want %d", name, got, limit)
			}
			mu := exact.Lineup{Players: 2, Policy: b.Exact.Policy, Opponent: b.Exact.Opponent}
			compared, differ := 0, false
			for left := 1; left <= limit; left++ {
				ct := b.Player.Table.CopiesTurnsLeft(left)
				model := exact.Model{Variant: rules.Variant{Copies: copies, TurnLimit: left}, Memory: mem, Pass: pass}
				copiesStates(faces, copies, func(counts []int) {
					st := exact.CopiesState{Unknown: make([]int, copies/2), Half: make([]int, copies/2)}
					for i := range copies / 2 {
						st.Unknown[i], st.Half[i] = counts[2*i], counts[2*i+1]
					}
					if st.UnknownCards() == 0 {
						return
					}
					got, ok := ct.Lookup(counts)
					if !ok {
						if st.Remembered() == 0 && st.Pairs() == 2*st.Unknown[copies/2-1] {
							t.Errorf("%s: no choice at the start of a deal, %v, %d turns left", name, st, left)
						}
						return
					}
					cv, err := exact.CopiesChoiceValues(ctx, field.Rat{}, model, mu, st)
					if err != nil {
						t.Fatalf("%s in %v: %v", name, st, err)
					}
					if want := cv.Best[0]; got != want {
						t.Errorf("%s, in %v with %d turns left: the engine's table chooses %s, the solver's best is %v", name, st, left, got, cv.Best)
					}
					if last, _ := b.Player.Table.CopiesTurnsLeft(limit).Lookup(counts); last != got {
						differ = true
					}
					compared++
				})
			}
			if compared < 20 {
				t.Errorf("%s: %d states and turns left compared, want more than 20", name, compared)
			}
			if !differ && pass == rules.PassAlways {
				t.Errorf("%s: every layer chooses as the last one: the comparison does not see the turn layers", name)
			}
		}
	}
}

// TestCopiesDecayLimitEngineGamesMatchExactValues plays optimal against optimal and best-response
// to safe against safe, built with strategies.Build, at four pairs of four copies of a face, a
// shared decay(0.3) memory and a turn limit of 5 under pass rule two-known, and checks seat 0's
// mean score (its pairs and its share of a stalemate's) against the exact value within four
// standard errors.
func TestCopiesDecayLimitEngineGamesMatchExactValues(t *testing.T) {
	ctx := context.Background()
	const copies, pairs, q, limit = 4, 4, 0.3, 5
	games := 4000
	if testing.Short() {
		games = 1500
	}
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: q}
	v := rules.Variant{Copies: copies, TurnLimit: limit}
	env := strategies.Env{MaxPairs: pairs, Players: 2, Variant: v, Pass: rules.PassTwoKnown, Tables: strategies.NewTables()}
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
		model := exact.Model{Variant: v, Memory: mem, Pass: rules.PassTwoKnown}
		st, err := exact.StartCopiesState(pairs, copies)
		if err != nil {
			t.Fatal(err)
		}
		want, err := exact.EvaluateCopies(ctx, field.Float{}, model, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		g, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Pass: rules.PassTwoKnown, Players: seats})
		if err != nil {
			t.Fatal(err)
		}
		var sum, sumSq float64
		for i := range games {
			if err := g.Play(sim.GameID{Seed: 11, Index: uint64(i)}, nil); err != nil {
				t.Fatal(err)
			}
			x := float64(g.Outcome().Share[0]) / 2
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
