package strategies_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestDecaySinglesAtThreeSeatsPlaysTheModel builds optimal at a table of three seats with a shared
// decay memory (q = 0.1) in a deal with four pairs and two singletons, checks that it plays the table
// of every seat for itself at three seats in every state (which differs from the two-player
// optimum's in at least one), and plays it beside safe and daring card by card with the engine:
// every seat's mean pairs lie within 4.5 standard errors of the solver's value from the full deal.
func TestDecaySinglesAtThreeSeatsPlaysTheModel(t *testing.T) {
	ctx := context.Background()
	const pairs, singles = 4, 2
	games := 4000
	if testing.Short() {
		games = 200
	}
	if raceEnabled {
		games = 100 // the race detector slows the engine down several times
	}
	decay := rules.ForgetDecay
	mem := rules.Memory{Forget: decay, Decay: 0.1}
	m := exact.Model{Singletons: singles, Memory: mem}
	override := strategies.MemoryOverride{Forget: &decay, Decay: ptrTo(0.1)}
	env := strategies.Env{MaxPairs: pairs, Singletons: singles, Players: 3, Tables: strategies.NewTables()}
	build := func(policy string) strategies.Built {
		b, err := strategies.Build(ctx, strategies.Spec{Name: policy, Policy: policy, Memory: override}, env)
		if err != nil {
			t.Fatalf("%s: %v", policy, err)
		}
		return b
	}
	opt := build("optimal")
	if !strings.Contains(opt.Table, "3-player optimal table") {
		t.Errorf("table %q, want the 3-player optimal table", opt.Table)
	}
	mu3 := exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	three, err := exact.PolicyTable(ctx, field.Rat{}, m, mu3, pairs)
	if err != nil {
		t.Fatal(err)
	}
	// The two-player table only to tell the tables apart: float64 is enough.
	two, err := exact.PolicyTable(ctx, field.Float{}, m, exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, pairs)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for n := 1; n <= pairs; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= singles; f++ {
				st := rules.State{N: n, J: j, S: singles, F: f}
				if !mem.Holds(st.Known()) {
					continue
				}
				got, ok := opt.Player.Table.Lookup(st, false)
				want, _ := three.Lookup(st, false)
				if !ok || got != want {
					t.Errorf("%v: the player plays %v (%v), the 3-seat table %v", st, got, ok, want)
				}
				if c, _ := two.Lookup(st, false); c != want {
					differ++
				}
			}
		}
	}
	if differ == 0 {
		t.Error("the 3-seat and the two-player tables agree everywhere: the test cannot tell them apart")
	}
	players := []sim.Player{opt.Player, build("safe").Player, build("daring").Player}
	gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Singletons: singles, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	var sum, sumSq [3]float64
	for i := range games {
		if err := gm.Play(sim.GameID{Seed: 23, Index: uint64(i)}, nil); err != nil {
			t.Fatal(err)
		}
		for s := range 3 {
			x := float64(gm.Outcome().Pairs[s])
			sum[s] += x
			sumSq[s] += x * x
		}
	}
	mu := exact.SeatLineup(rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring)
	res, err := exact.Evaluate(ctx, field.Float{}, m, mu, rules.State{N: pairs, J: pairs, S: singles, F: singles})
	if err != nil {
		t.Fatal(err)
	}
	for s := range 3 {
		mean := sum[s] / float64(games)
		se := math.Sqrt((sumSq[s]/float64(games) - mean*mean) / float64(games))
		if math.Abs(mean-res.PairsBySeat[s]) > 4.5*se {
			t.Errorf("seat %d: %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)", s, mean, games, res.PairsBySeat[s], se)
		}
	}
}
