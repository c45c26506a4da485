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

// TestHandoverSingletonsAtThreeSeatsPlaysTheModel builds optimal at a table of three seats with two
// singletons and a shared handover-uniform memory of capacity 3, checks that the engine's table
// holds, in every state of up to four pairs the memory allows, the first best choice of
// exact.ChoiceValues for every seat for itself at three seats (solved from that state alone), which
// differs from the two-player optimum's in at least one state, and plays it beside safe and daring
// card by card with the engine: every seat's mean pairs lie within 4 standard errors of the
// solver's value from the full deal.
func TestHandoverSingletonsAtThreeSeatsPlaysTheModel(t *testing.T) {
	ctx := context.Background()
	const pairs, singles, capacity = 4, 2, 3
	games := 4000
	if testing.Short() {
		games = 600
	}
	if raceEnabled {
		games = 150 // the race detector slows the engine down several times
	}
	mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}
	m := exact.Model{Singletons: singles, Memory: mem}
	env := strategies.Env{MaxPairs: pairs, Singletons: singles, Players: 3, Tables: strategies.NewTables()}
	ms := handoverOverride(capacity)
	build := func(policy string) strategies.Built {
		b, err := strategies.Build(ctx, strategies.Spec{Name: policy, Policy: policy, Memory: ms}, env)
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
	mu2 := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	compared, differ := 0, 0
	for n := 1; n <= pairs; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= singles; f++ {
				st := rules.State{N: n, J: j, S: singles, F: f}
				if st.Known() > capacity {
					continue
				}
				cv, err := exact.ChoiceValues(ctx, field.Rat{}, m, mu3, st)
				if err != nil {
					t.Fatalf("%v: %v", st, err)
				}
				got, ok := opt.Player.Table.Lookup(st, false)
				if !ok || got != cv.Best[0] {
					t.Errorf("%v: the engine's table plays %v (%v), the solver's best at three seats is %v", st, got, ok, cv.Best)
				}
				// The two-player optimum only to tell the tables apart: float64 is enough.
				two, err := exact.ChoiceValues(ctx, field.Float{}, m, mu2, st)
				if err != nil {
					t.Fatalf("%v, two seats: %v", st, err)
				}
				if two.Best[0] != cv.Best[0] {
					differ++
				}
				compared++
			}
		}
	}
	if compared < 30 {
		t.Errorf("%d states compared, want more than 30", compared)
	}
	if differ == 0 {
		t.Error("the 3-seat and the two-player optima agree everywhere: the test cannot tell them apart")
	}
	players := []sim.Player{opt.Player, build("safe").Player, build("daring").Player}
	gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Singletons: singles, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	var sum, sumSq [3]float64
	for i := range games {
		if err := gm.Play(sim.GameID{Seed: 37, Index: uint64(i)}, nil); err != nil {
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
		if math.Abs(mean-res.PairsBySeat[s]) > 4*se {
			t.Errorf("seat %d: %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)", s, mean, games, res.PairsBySeat[s], se)
		}
	}
}
