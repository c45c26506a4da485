package sim_test

// Invariants of every game, checked on the logs of many random games across setups: pairs are
// conserved, cards are flipped legally, turns pass as the rules say (see checkLog).

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
)

func TestConservation(t *testing.T) {
	memories := []rules.Memory{
		perfect,
		{Capacity: 2, Forget: rules.ForgetLRU},
		{Capacity: 3, Forget: rules.ForgetLRU},
		{Capacity: 4, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate},
		{Capacity: 2, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate},
		{Capacity: 2, Forget: rules.ForgetHandoverUniform},
		{Capacity: 4, Forget: rules.ForgetHandoverUniform},
		{Capacity: 3, Forget: rules.ForgetHandoverUniform, Scope: rules.ScopePrivate},
		{Forget: rules.ForgetDecay, Decay: 0.3},
		{Forget: rules.ForgetDecay, Decay: 0.3, Scope: rules.ScopePrivate},
		{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3},
		{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.3, Scope: rules.ScopePrivate},
	}
	passRules := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	games := 25
	if testing.Short() {
		games = 8
	}
	r := rand.New(rand.NewPCG(2024, 7))
	total, stalemates, passes := 0, 0, 0
	for mi, mem := range memories {
		for _, pr := range passRules {
			for variant := range 3 {
				n := 1 + r.IntN(6)
				s := r.IntN(3)
				p := 1 + r.IntN(4)
				var players []sim.Player
				kinds := ""
				tables := make([]bool, p)
				for i := range p {
					m := mem
					if variant == 2 && i == 1 {
						m = perfect // mixed memories: one seat never forgets
					}
					switch k := r.IntN(5); k {
					case 0:
						players = append(players, sim.Player{Name: fmt.Sprintf("random%d", i), Memory: m,
							NewStrategy: func() sim.Strategy { return &randomStrategy{r: rand.New(rand.NewPCG(uint64(i), 99))} }})
						kinds += "R"
					case 1:
						players = append(players, strategyPlayer(fmt.Sprintf("greedy%d", i), m, greedyRandom))
						kinds += "G"
					default:
						pol := []rules.Policy{rules.PolicyParity, rules.PolicySafe, rules.PolicyDaring}[k-2]
						players = append(players, tablePlayer(fmt.Sprintf("%v%d", pol, i), m, fixedTable(t, pol, n, s)))
						kinds += pol.String()[:1]
						tables[i] = true
					}
				}
				setup := sim.Setup{Pairs: n, Singletons: s, Pass: pr, Players: players}
				allPerfect := true
				for _, pl := range players {
					allPerfect = allPerfect && pl.Memory.Perfect()
				}
				name := fmt.Sprintf("%v/%v/n=%d,s=%d,%s", mem, pr, n, s, kinds)
				t.Run(name, func(t *testing.T) {
					g, err := sim.NewGame(setup)
					if err != nil {
						t.Fatal(err)
					}
					lg := &sim.Log{}
					for i := range games {
						id := sim.GameID{Seed: uint64(mi), DealStream: uint64(variant), PlayStream: 100 + uint64(pr), Index: uint64(i)}
						if err := g.Play(id, lg); err != nil {
							t.Fatalf("game %d: %v", i, err)
						}
						o := g.Outcome()
						f := checkLog(t, setup, lg, o, allPerfect, tables)
						total++
						passes += f.passes
						if o.Stalemate {
							stalemates++
						}
					}
				})
			}
		}
	}
	// The random setups must have exercised passes and stalemates.
	if !testing.Short() && (stalemates == 0 || passes == 0) {
		t.Errorf("%d games: %d stalemates, %d passes; the setups do not exercise the pass rules", total, stalemates, passes)
	}
	t.Logf("%d games, %d passes, %d stalemates", total, passes, stalemates)
}

// TestConservationLargeDeal plays a few bigger deals with every kind of player at once.
func TestConservationLargeDeal(t *testing.T) {
	const n, s = 20, 3
	for _, mem := range []rules.Memory{perfect, {Capacity: 5, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}, {Forget: rules.ForgetDecay, Decay: 0.3}} {
		players := []sim.Player{
			tablePlayer("parity", mem, fixedTable(t, rules.PolicyParity, n, s)),
			strategyPlayer("greedy", mem, greedyRandom),
			tablePlayer("safe", mem, fixedTable(t, rules.PolicySafe, n, s)),
			{Name: "random", Memory: mem, NewStrategy: func() sim.Strategy { return &randomStrategy{r: rand.New(rand.NewPCG(5, 6))} }},
		}
		for _, pr := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown} {
			setup := sim.Setup{Pairs: n, Singletons: s, Pass: pr, Players: players}
			g, err := sim.NewGame(setup)
			if err != nil {
				t.Fatal(err)
			}
			lg := &sim.Log{}
			for i := range 10 {
				if err := g.Play(sim.GameID{Seed: 3, DealStream: 1, PlayStream: 2, Index: uint64(i)}, lg); err != nil {
					t.Fatal(err)
				}
				checkLog(t, setup, lg, g.Outcome(), mem.Perfect(), []bool{true, false, true, false})
			}
		}
	}
}
