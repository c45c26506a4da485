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

// TestFluctuatingSingletonsAtThreeSeatsPlaysTheModel builds, at a table of three seats with two
// singletons and a shared handover-uniform memory of capacity 3 fluctuating by 1, optimal and
// best-response to safe, checks that each table holds, in every state after the draw the solver
// reaches, the first best choice of exact.FluctSeatsChoiceValues at the capacity drawn (every
// seat for itself, or the reply to safe at the other seats), and plays every seat optimal, then
// best-response beside two safe seats (not under -short), with the engine: every seat's mean pairs lie within 4
// standard errors of the solver's values from the full deal.
func TestFluctuatingSingletonsAtThreeSeatsPlaysTheModel(t *testing.T) {
	ctx := context.Background()
	const singles, capacity, fluct = 2, 3, 1
	pairs, games := 3, 2000
	if testing.Short() {
		pairs, games = 2, 40 // one small deal, the tables checked in full
	}
	if raceEnabled {
		games = 40
	}
	forget := rules.ForgetHandoverUniform
	ms := strategies.MemoryOverride{Forget: &forget, Capacity: ptrTo(capacity), Fluctuation: ptrTo(fluct)}
	mem := rules.Memory{Capacity: capacity, Forget: forget, Fluctuation: fluct}
	m := exact.Model{Singletons: singles, Memory: mem}
	env := strategies.Env{MaxPairs: pairs, Singletons: singles, Players: 3, Tables: strategies.NewTables()}
	build := func(policy, opponent string) strategies.Built {
		b, err := strategies.Build(ctx, strategies.Spec{Name: policy, Policy: policy, Opponent: opponent, Memory: ms}, env)
		if err != nil {
			t.Fatalf("%s: %v", policy, err)
		}
		if b.Exact == nil || b.Exact.Memory != mem {
			t.Errorf("%s: valued in %+v, want the fluctuating model %v", policy, b.Exact, mem)
		}
		return b
	}
	opt := build("optimal", "")
	type lineup struct {
		name    string
		table   *rules.ChoiceTable
		mu      exact.Lineup
		players []sim.Player
	}
	lineups := []lineup{{"every seat optimal", opt.Player.Table,
		exact.SeatLineup(rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal), []sim.Player{opt.Player, opt.Player, opt.Player}}}
	if !testing.Short() { // the reply's exact table takes longer than -short allows
		reply, safe := build("best-response", "safe"), build("safe", "")
		lineups = append(lineups, lineup{"best-response beside safe", reply.Player.Table,
			exact.SeatLineup(rules.PolicyBestResponse, rules.PolicySafe, rules.PolicySafe), []sim.Player{reply.Player, safe.Player, safe.Player}})
	}
	for _, lu := range lineups {
		if lo, hi, ok := lu.table.Capacities(); !ok || lo != capacity-fluct || hi != capacity+fluct {
			t.Fatalf("%s: the table has capacities %d .. %d (%v), want %d .. %d", lu.name, lo, hi, ok, capacity-fluct, capacity+fluct)
		}
		compared := 0
		for n := 1; n <= pairs; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= singles; f++ {
					st := rules.State{N: n, J: j, S: singles, F: f}
					for c := capacity - fluct; c <= capacity+fluct; c++ {
						if st.Known() > c {
							continue // handover-uniform forgets down to the capacity drawn
						}
						cv, err := exact.FluctSeatsChoiceValues(ctx, field.Float{}, m, lu.mu, st, c, 0)
						if err != nil {
							t.Fatalf("%s: %v, capacity %d: %v", lu.name, st, c, err)
						}
						got, ok := lu.table.LookupCapacity(st, false, c)
						if !ok || got != cv.Best[0] {
							t.Errorf("%s: %v, capacity %d: the table plays %v (%v), the solver's first best is %v", lu.name, st, c, got, ok, cv.Best)
						}
						compared++
					}
				}
			}
		}
		if compared < 10 {
			t.Errorf("%s: %d entries compared, want at least 10", lu.name, compared)
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Singletons: singles, Players: lu.players})
		if err != nil {
			t.Fatal(err)
		}
		var sum, sumSq [3]float64
		for i := range games {
			if err := gm.Play(sim.GameID{Seed: 41, Index: uint64(i)}, nil); err != nil {
				t.Fatal(err)
			}
			for s := range 3 {
				x := float64(gm.Outcome().Pairs[s])
				sum[s] += x
				sumSq[s] += x * x
			}
		}
		res, err := exact.Evaluate(ctx, field.Float{}, m, lu.mu, rules.State{N: pairs, J: pairs, S: singles, F: singles})
		if err != nil {
			t.Fatal(err)
		}
		for s := range 3 {
			mean := sum[s] / float64(games)
			se := math.Sqrt((sumSq[s]/float64(games) - mean*mean) / float64(games))
			if math.Abs(mean-res.PairsBySeat[s]) > 4*se+1e-9 {
				t.Errorf("%s, seat %d: %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)", lu.name, s, mean, games, res.PairsBySeat[s], se)
			}
		}
	}
}
