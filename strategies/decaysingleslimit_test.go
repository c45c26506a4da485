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

// TestDecaySinglesUnderTurnLimitPlaysTheSolversChoices builds optimal and best-response to safe
// with a shared decay memory (q = 0.3, capacity 3) in a deal with two singletons under a turn
// limit of 5 and pass rule always, and checks that the table the engine reads holds, in every
// layer of turns left, the first best choice of the solver's choices' values with that many turns
// left (ChoiceValuesAt), and just after a pass the solver's table; then plays the players card
// by card with the engine: seat 0's mean share (a stalemate's pairs shared) lies within 4.5 standard errors of the solver's
// value from the full deal.
func TestDecaySinglesUnderTurnLimitPlaysTheSolversChoices(t *testing.T) {
	ctx := context.Background()
	const maxPairs, singles, limit = 3, 2, 5
	games := 3000
	if testing.Short() {
		games = 200
	}
	decay := rules.ForgetDecay
	mem := rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3}
	override := strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.3), Capacity: ptrTo(3)}
	v := rules.Variant{TurnLimit: limit}
	m := exact.Model{Pass: rules.PassAlways, Memory: mem, Singletons: singles, Variant: v}
	for _, pol := range []struct {
		spec     strategies.Spec
		opponent string
		mu       exact.Lineup
	}{
		{strategies.Spec{Name: "opt", Policy: "optimal", Memory: override}, "optimal",
			exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}},
		{strategies.Spec{Name: "br", Policy: "best-response", Opponent: "safe", Memory: override}, "safe",
			exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}},
	} {
		env := strategies.Env{MaxPairs: maxPairs, Singletons: singles, Players: 2, Pass: rules.PassAlways, Variant: v, Tables: strategies.NewTables()}
		b, err := strategies.Build(ctx, pol.spec, env)
		if err != nil {
			t.Fatal(err)
		}
		table, err := exact.PolicyTable(ctx, field.Rat{}, m, pol.mu, maxPairs)
		if err != nil {
			t.Fatal(err)
		}
		var at []exact.TurnState
		for n := 1; n <= maxPairs; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= singles; f++ {
					st := rules.State{N: n, J: j, S: singles, F: f}
					if mem.Holds(st.Known()) {
						for left := 1; left <= limit; left++ {
							at = append(at, exact.TurnState{State: st, TurnsLeft: left})
						}
					}
				}
			}
		}
		values, err := exact.ChoiceValuesAt(ctx, field.Rat{}, m, pol.mu, at)
		if err != nil {
			t.Fatal(err)
		}
		differ := 0
		for i, p := range at {
			got, ok := b.Player.Table.LookupTurnsLeft(p.State, false, p.TurnsLeft)
			if want := values[i].Best[0]; !ok || got != want {
				t.Errorf("%s, %v, %d turns left: the player plays %v (%v), the solver's best choice is %v", pol.spec.Policy, p.State, p.TurnsLeft, got, ok, want)
			}
			got, ok = b.Player.Table.LookupTurnsLeft(p.State, true, p.TurnsLeft)
			if want, _ := table.LookupTurnsLeft(p.State, true, p.TurnsLeft); !ok || got != want {
				t.Errorf("%s, %v, %d turns left, after a pass: the player plays %v (%v), the solver's table %v", pol.spec.Policy, p.State, p.TurnsLeft, got, ok, want)
			}
			if first, _ := b.Player.Table.LookupTurnsLeft(p.State, false, 1); first != values[i].Best[0] {
				differ++
			}
		}
		if differ == 0 {
			t.Errorf("%s: every layer of turns left plays as the last: the test cannot tell the layers apart", pol.spec.Policy)
		}
		other, err := strategies.Build(ctx, strategies.Spec{Name: pol.opponent, Policy: pol.opponent, Memory: override}, env)
		if err != nil {
			t.Fatal(err)
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: maxPairs, Singletons: singles, Players: []sim.Player{b.Player, other.Player}, Pass: rules.PassAlways, Variant: v})
		if err != nil {
			t.Fatal(err)
		}
		var sum, sumSq float64
		for i := range games {
			if err := gm.Play(sim.GameID{Seed: 29, Index: uint64(i)}, nil); err != nil {
				t.Fatal(err)
			}
			x := float64(gm.Outcome().Share[0]) / 2 // a stalemate shares the pairs left
			sum += x
			sumSq += x * x
		}
		res, err := exact.Evaluate(ctx, field.Float{}, m, pol.mu, rules.State{N: maxPairs, J: maxPairs, S: singles, F: singles})
		if err != nil {
			t.Fatal(err)
		}
		mean := sum / float64(games)
		se := math.Sqrt((sumSq/float64(games) - mean*mean) / float64(games))
		if math.Abs(mean-res.PairsBySeat[0]) > 4.5*se {
			t.Errorf("%s against %s: seat 0 takes %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)",
				pol.spec.Policy, pol.opponent, mean, games, res.PairsBySeat[0], se)
		}
	}
}
