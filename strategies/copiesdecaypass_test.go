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

// TestCopiesDecayPassEngineGamesMatchExactValues plays, under pass rules two-known and always,
// four copies of a face and a shared decay(0.3) memory, lineups built with strategies.Build (the
// tables' choices just after a pass among them, a pass forgetting as the engine's hand-over
// does), and checks seat 0's mean share (its pairs, and half the pairs a stalemate leaves)
// against the exact value within four standard errors.
func TestCopiesDecayPassEngineGamesMatchExactValues(t *testing.T) {
	ctx := context.Background()
	const copies, pairs, q = 4, 4, 0.3
	games := 3000
	if testing.Short() {
		games = 600
	}
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: q}
	v := rules.Variant{Copies: copies}
	ms := decayOverride(q, 0)
	type lineup struct {
		pass  rules.PassRule
		seats [2]strategies.Spec
	}
	lineups := []lineup{
		{rules.PassTwoKnown, [2]strategies.Spec{{Name: "a", Policy: "best-response", Opponent: "safe", Memory: ms}, {Name: "b", Policy: "safe", Memory: ms}}},
		{rules.PassAlways, [2]strategies.Spec{{Name: "a", Policy: "best-response", Opponent: "daring", Memory: ms}, {Name: "b", Policy: "daring", Memory: ms}}},
	}
	if !testing.Short() {
		lineups = append(lineups,
			lineup{rules.PassTwoKnown, [2]strategies.Spec{{Name: "a", Policy: "optimal", Memory: ms}, {Name: "b", Policy: "optimal", Memory: ms}}},
			lineup{rules.PassAlways, [2]strategies.Spec{{Name: "a", Policy: "best-response", Opponent: "optimal", Memory: ms}, {Name: "b", Policy: "optimal", Memory: ms}}})
	}
	for _, l := range lineups {
		env := strategies.Env{MaxPairs: pairs, Players: 2, Pass: l.pass, Variant: v, Tables: strategies.NewTables()}
		var seats []sim.Player
		var pol [2]rules.Policy
		for i, spec := range l.seats {
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatal(err)
			}
			if b.Exact == nil || b.Exact.Memory != mem {
				t.Fatalf("%s: exact model %+v, want the %s memory", spec.Policy, b.Exact, mem)
			}
			seats = append(seats, b.Player)
			pol[i] = b.Exact.Policy
		}
		name := fmt.Sprintf("pass %s, %s against %s", l.pass, pol[0], pol[1])
		mu := exact.Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
		model := exact.Model{Variant: v, Memory: mem, Pass: l.pass}
		want, err := exact.Evaluate(ctx, field.Float{}, model, mu, rules.State{N: pairs, J: pairs})
		if err != nil {
			t.Fatal(err)
		}
		g, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Pass: l.pass, Players: seats})
		if err != nil {
			t.Fatal(err)
		}
		var sum, sumSq float64
		stalemates := 0
		for i := range games {
			if err := g.Play(sim.GameID{Seed: 13, Index: uint64(i)}, nil); err != nil {
				t.Fatal(err)
			}
			o := g.Outcome()
			x := float64(o.Pairs[0])
			if o.Stalemate {
				x += float64(o.Left) / 2
				stalemates++
			}
			sum += x
			sumSq += x * x
		}
		mean := sum / float64(games)
		se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
		exp := want.ExpectedPairs
		t.Logf("%s: engine mean %.4f over %d games (%d stalemates), exact %.4f", name, mean, games, stalemates, exp)
		if d := math.Abs(mean - exp); d > 4*se {
			t.Errorf("%s: engine mean %.4f pairs over %d games (%d stalemates), exact %.4f (%.1f standard errors)", name, mean, games, stalemates, exp, d/se)
		}
	}
}
