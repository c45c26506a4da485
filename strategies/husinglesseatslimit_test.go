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

// TestHandoverSingletonsAtThreeSeatsUnderTurnLimitPlaysTheModel builds optimal and best-response to
// safe at a table of three seats with two singletons, a shared handover-uniform memory of capacity
// 3 and a turn limit, under pass rules never and two-known, and checks that the table the engine
// reads holds, in every state the memory allows and every number of turns left (at pass streak
// 0), the first best choice of exact.ChoiceValues at three seats solved from that state alone with
// a limit of that many turns; then plays each player card by card with the engine beside its
// opponents: every seat's mean share (a stalemate's pairs shared) lies within 4 standard errors of
// the solver's value from the full deal.
func TestHandoverSingletonsAtThreeSeatsUnderTurnLimitPlaysTheModel(t *testing.T) {
	ctx := context.Background()
	const maxPairs, singles, capacity, players = 3, 2, 3, 3
	limit, games := 6, 3000
	// The solver's choices in exact arithmetic; float64 in the short form, with fewer layers and
	// games, pass rule never, optimal only and its first and last layers only.
	var fl field.Field[float64] = field.Float{}
	exactChoices := !testing.Short()
	passes := []rules.PassRule{rules.PassNever, rules.PassTwoKnown}
	if testing.Short() {
		limit, games, passes = 5, 100, passes[:1]
	}
	if raceEnabled {
		games = 100 // the race detector slows the engine down several times
	}
	mem := rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}
	ms := handoverOverride(capacity)
	for _, pass := range passes {
		v := rules.Variant{TurnLimit: limit}
		m := exact.Model{Pass: pass, Memory: mem, Singletons: singles, Variant: v}
		env := strategies.Env{MaxPairs: maxPairs, Singletons: singles, Players: players, Pass: pass, Variant: v, Tables: strategies.NewTables()}
		build := func(spec strategies.Spec) strategies.Built {
			b, err := strategies.Build(ctx, spec, env)
			if err != nil {
				t.Fatalf("%s, %s: %v", pass, spec.Policy, err)
			}
			return b
		}
		pols := []struct {
			spec   strategies.Spec
			others []string
			mu     exact.Lineup // seat 0's model, for its table
			game   exact.Lineup // the lineup played
		}{
			{strategies.Spec{Name: "opt", Policy: "optimal", Memory: ms}, []string{"safe", "daring"},
				exact.Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
				exact.SeatLineup(rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring)},
			{strategies.Spec{Name: "br", Policy: "best-response", Opponent: "safe", Memory: ms}, []string{"safe", "safe"},
				exact.Lineup{Players: players, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
				exact.Lineup{Players: players, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}},
		}
		if testing.Short() {
			pols = pols[:1]
		}
		for _, pol := range pols {
			b := build(pol.spec)
			if pol.spec.Policy == "optimal" && !strings.Contains(b.Table, "3-player optimal table") {
				t.Errorf("%s: table %q, want the 3-player optimal table", pass, b.Table)
			}
			compared, differ := 0, 0
			for n := 1; n <= maxPairs; n++ {
				for j := 0; j <= n; j++ {
					for f := 0; f <= singles; f++ {
						st := rules.State{N: n, J: j, S: singles, F: f}
						if st.Known() > capacity {
							continue
						}
						for left := 1; left <= limit; left++ {
							if testing.Short() && left > 1 && left < limit {
								continue // the first and the last layers only
							}
							ml := m
							ml.Variant.TurnLimit = left
							best, err := handoverLimitBest(ctx, fl, exactChoices, ml, pol.mu, st)
							if err != nil {
								t.Fatalf("%s, %s in %v, %d turns left: %v", pass, pol.spec.Policy, st, left, err)
							}
							got, ok := b.Player.Table.LookupTurnsLeftPasses(st, 0, left)
							if !ok || got != best[0] {
								t.Errorf("%s, %s in %v, %d turns left: the engine's table plays %v (%v), the solver's best at three seats is %v",
									pass, pol.spec.Policy, st, left, got, ok, best)
							}
							if last, _ := b.Player.Table.LookupTurnsLeftPasses(st, 0, 1); last != best[0] {
								differ++
							}
							compared++
						}
					}
				}
			}
			if compared < 20 {
				t.Errorf("%s, %s: %d positions compared, want at least 20", pass, pol.spec.Policy, compared)
			}
			if differ == 0 {
				t.Errorf("%s, %s: every layer of turns left plays as the last: the test cannot tell the layers apart", pass, pol.spec.Policy)
			}
			seats := []sim.Player{b.Player}
			for _, o := range pol.others {
				seats = append(seats, build(strategies.Spec{Name: o, Policy: o, Memory: ms}).Player)
			}
			gm, err := sim.NewGame(sim.Setup{Pairs: maxPairs, Singletons: singles, Players: seats, Pass: pass, Variant: v})
			if err != nil {
				t.Fatal(err)
			}
			var sum, sumSq [players]float64
			for i := range games {
				if err := gm.Play(sim.GameID{Seed: 43, Index: uint64(i)}, nil); err != nil {
					t.Fatal(err)
				}
				for s := range players {
					x := float64(gm.Outcome().Share[s]) / players // a stalemate shares the pairs left
					sum[s] += x
					sumSq[s] += x * x
				}
			}
			res, err := exact.Evaluate(ctx, field.Float{}, m, pol.game, rules.State{N: maxPairs, J: maxPairs, S: singles, F: singles})
			if err != nil {
				t.Fatal(err)
			}
			for s := range players {
				mean := sum[s] / float64(games)
				se := math.Sqrt((sumSq[s]/float64(games) - mean*mean) / float64(games))
				if math.Abs(mean-res.PairsBySeat[s]) > 4*se {
					t.Errorf("%s, %s beside %v: seat %d takes %.4f pairs on average over %d games, the solver expects %.4f (standard error %.4f)",
						pass, pol.spec.Policy, pol.others, s, mean, games, res.PairsBySeat[s], se)
				}
			}
		}
	}
}
