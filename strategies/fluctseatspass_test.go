package strategies_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestOptimalAtThreeSeatsUnderFluctuationAndPassPlaysItsStreakLayers builds optimal at a table
// of three seats with a shared memory whose capacity fluctuates, under the pass rules two-known
// and always, and checks that its table holds, in the layer of every capacity drawn and at every
// pass streak, the choice of the exact model of every seat for itself, and that the choices
// differ between streaks in some state of some of these models.
func TestOptimalAtThreeSeatsUnderFluctuationAndPassPlaysItsStreakLayers(t *testing.T) {
	ctx := context.Background()
	const maxPairs = 6
	differ := 0
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			mem := rules.Memory{Capacity: 2, Forget: forget, Fluctuation: 1}
			spec := strategies.Spec{Name: "wavering", Policy: "optimal",
				Memory: strategies.MemoryOverride{Forget: &forget, Capacity: ptrTo(2), Fluctuation: ptrTo(1)}}
			env := strategies.Env{MaxPairs: maxPairs, Players: 3, Pass: rule, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatal(err)
			}
			if want := "3-player optimal table"; !strings.Contains(b.Table, want) {
				t.Errorf("%s %s: table %q, want the %s", rule, mem, b.Table, want)
			}
			want, err := exact.FluctSelfishTable(ctx, field.Rat{}, exact.Model{Memory: mem, Pass: rule}, 3, maxPairs)
			if err != nil {
				t.Fatal(err)
			}
			for n := 1; n <= maxPairs; n++ {
				for k := 0; k <= min(n, 3); k++ {
					st := rules.State{N: n, J: n - k}
					for c := 2; c <= 3; c++ {
						if forget == rules.ForgetLRU && k > c {
							continue // lru forgets down to the capacity drawn
						}
						first, _ := want.LookupCapacityPasses(st, 0, c)
						for l := range 3 {
							got, ok := b.Player.Table.LookupCapacityPasses(st, l, c)
							w, wok := want.LookupCapacityPasses(st, l, c)
							if !ok || !wok || got != w {
								t.Errorf("%s %s: %v, capacity %d, streak %d: the player plays %v (%v), the model %v (%v)", rule, mem, st, c, l, got, ok, w, wok)
							}
							if w != first {
								differ++
							}
						}
					}
				}
			}
		}
	}
	if differ == 0 {
		t.Error("the choices agree at every streak: the test cannot tell the streaks apart")
	}
}

// TestEngineUnderFluctuationAndPassAtThreeSeatsMatchesTheSolver plays games card by card at three
// seats with a shared memory whose capacity fluctuates, under a pass rule, every seat playing
// optimal or beside a fixed policy, and checks every seat's mean score (its pairs plus its
// part of a stalemate) against the solver's expected pairs within 4.5 standard errors.
func TestEngineUnderFluctuationAndPassAtThreeSeatsMatchesTheSolver(t *testing.T) {
	ctx := context.Background()
	games := 6000
	if testing.Short() {
		games = 2500
	}
	const pairs = 5
	o, s := rules.PolicyOptimal, rules.PolicySafe
	// Under these memories the optimum passes in some games and plays on in others: between a
	// quarter and three quarters of every seat optimal's games end in a stalemate.
	for _, tc := range []struct {
		rule        rules.PassRule
		forget      rules.Forgetting
		base, sigma int
		seats       []rules.Policy
	}{
		{rules.PassTwoKnown, rules.ForgetLRU, 3, 1, []rules.Policy{o, o, o}},
		{rules.PassAlways, rules.ForgetHandoverUniform, 3, 1, []rules.Policy{o, o, o}},
		{rules.PassTwoKnown, rules.ForgetHandoverUniform, 3, 2, []rules.Policy{o, o, s}},
	} {
		mem := rules.Memory{Capacity: tc.base, Forget: tc.forget, Fluctuation: tc.sigma, Scope: rules.ScopeShared}
		name := fmt.Sprintf("%s %s %v", tc.rule, mem, tc.seats)
		env := strategies.Env{MaxPairs: pairs, Players: 3, Pass: tc.rule, Tables: strategies.NewTables()}
		players := make([]sim.Player, 3)
		for i, p := range tc.seats {
			spec := strategies.Spec{Name: fmt.Sprintf("%s%d", p, i), Policy: p.String(),
				Memory: strategies.MemoryOverride{Forget: &mem.Forget, Capacity: ptrTo(tc.base), Fluctuation: ptrTo(tc.sigma)}}
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatal(err)
			}
			players[i] = b.Player
		}
		g, err := sim.NewGame(sim.Setup{Pairs: pairs, Pass: tc.rule, Players: players})
		if err != nil {
			t.Fatal(err)
		}
		sum, sq := make([]float64, 3), make([]float64, 3)
		stalemates := 0
		for i := range games {
			if err := g.Play(sim.GameID{Seed: 11, DealStream: 1, PlayStream: 2, Index: uint64(i)}, nil); err != nil {
				t.Fatal(err)
			}
			out := g.Outcome()
			if out.Stalemate {
				stalemates++
			}
			for s, v := range out.Share {
				x := float64(v) / 3
				sum[s] += x
				sq[s] += x * x
			}
		}
		want, err := exact.Evaluate(ctx, field.Float{}, exact.Model{Memory: mem, Pass: tc.rule}, exact.SeatLineup(tc.seats...), rules.State{N: pairs, J: pairs})
		if err != nil {
			t.Fatal(err)
		}
		for s := range 3 {
			mean := sum[s] / float64(games)
			se := math.Sqrt((sq[s]/float64(games) - mean*mean) / float64(games))
			if math.Abs(mean-want.PairsBySeat[s]) > 4.5*se {
				t.Errorf("%s: seat %d: mean %.4f ± %.4f over %d games, the solver %.6f", name, s, mean, se, games, want.PairsBySeat[s])
			}
		}
		if tc.seats[2] == o && (stalemates == 0 || stalemates == games) {
			t.Errorf("%s: %d stalemates in %d games: the games do not both pass and play on", name, stalemates, games)
		}
	}
}
