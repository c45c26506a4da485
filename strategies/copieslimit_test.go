package strategies_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
)

// TestEnginePlaysCopiesLimitOptimum builds optimal (and best-response to safe) under copies with
// a turn limit, alone and at two seats, plays every deal of two and three faces of four cards
// with the engine, and compares every seat's pairs over the deals with a card-by-card reference
// that reads the copies model's tables at the turns left, exactly, and their mean with the copies
// model's value. The tables of the same copies without a limit, played under it, take no more
// pairs alone, and other pairs in at least one game, so that the comparison sees the layers.
func TestEnginePlaysCopiesLimitOptimum(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces, copies, limit, players int
		policy, opponent              string
	}
	games := []game{
		{2, 4, 3, 1, "optimal", ""}, {2, 4, 5, 1, "optimal", ""}, {3, 4, 4, 1, "optimal", ""}, {3, 4, 6, 1, "optimal", ""},
		{2, 4, 3, 2, "optimal", ""}, {3, 4, 5, 2, "optimal", ""}, {3, 4, 4, 2, "best-response", "safe"},
	}
	layersSeen := false
	for _, g := range games {
		pairs := g.faces * g.copies / 2
		v := rules.Variant{Copies: g.copies, TurnLimit: g.limit}
		name := fmt.Sprintf("%d faces of %d, turn limit %d, %d players, %s", g.faces, g.copies, g.limit, g.players, g.policy)
		build := func(v rules.Variant, policy, opponent string) sim.Player {
			env := strategies.Env{MaxPairs: pairs, Players: g.players, Variant: v, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, strategies.Spec{Name: policy, Policy: policy, Opponent: opponent}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return b.Player
		}
		seats := []sim.Player{build(v, g.policy, g.opponent)}
		if g.players == 2 {
			other := g.opponent // best-response's opponent, or optimal against itself
			if other == "" {
				other = g.policy
			}
			seats = append(seats, build(v, other, ""))
		}
		// The reference's choices: the copies model's tables with each number of turns left.
		model := exact.Model{Variant: v}
		tables := make([][]*rules.CopiesTable, g.players)
		lineups := []exact.Lineup{{Players: g.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}}
		if g.policy == "best-response" {
			lineups[0] = exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}
		}
		for s := range g.players {
			if s == 1 && g.opponent == "safe" {
				break
			}
			var err error
			if tables[s], err = exact.CopiesPolicyTurnTables(ctx, field.Rat{}, model, lineups[min(s, len(lineups)-1)], pairs); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		choose := func(m copiesMove) rules.Choice {
			if tables[m.seat] == nil {
				return safeOrDaring(rules.PolicySafe, m.counts)
			}
			c, ok := tables[m.seat][m.left-1].Lookup(m.counts)
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v with %d turns left", name, m.counts, m.left)
			}
			return c
		}
		engine := func(players []sim.Player) ([]int64, int64) {
			gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Players: players})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sum, count := make([]int64, g.players), int64(0)
			everyDeal(g.faces, g.copies, func(deal []int) {
				if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for s, p := range gm.Outcome().Pairs {
					sum[s] += int64(p)
				}
				count++
			})
			return sum, count
		}
		got, count := engine(seats)
		want := make([]int64, g.players)
		everyDeal(g.faces, g.copies, func(deal []int) {
			for s, p := range refCopiesGame(deal, copiesRef{copies: g.copies, seats: g.players, limit: g.limit}, choose).pairs {
				want[s] += int64(p)
			}
		})
		for s := range want {
			if got[s] != want[s] {
				t.Errorf("%s: seat %d takes %d pairs over %d deals in the engine, %d in the reference", name, s, got[s], count, want[s])
			}
		}
		start, err := exact.StartCopiesState(pairs, g.copies)
		if err != nil {
			t.Fatal(err)
		}
		mu := lineups[0]
		if g.policy == "optimal" && g.players == 2 {
			mu = exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		}
		res, err := exact.EvaluateCopies(ctx, field.Rat{}, model, mu, start)
		if err != nil {
			t.Fatal(err)
		}
		if m := big.NewRat(got[0], count); m.Cmp(res.PairsBySeat[0]) != 0 {
			t.Errorf("%s: seat 0 takes %v pairs on average over every deal, the copies model %v", name, m, res.PairsBySeat[0])
		}
		// The tables of copies without a limit, played under the limit.
		flatSeats := []sim.Player{build(rules.Variant{Copies: g.copies}, g.policy, g.opponent)}
		if g.players == 2 {
			flatSeats = append(flatSeats, seats[1])
			if g.opponent == "" {
				flatSeats[1] = build(rules.Variant{Copies: g.copies}, g.policy, "")
			}
		}
		flat, _ := engine(flatSeats)
		if g.players == 1 && flat[0] > got[0] {
			t.Errorf("%s: the table without a limit takes %d pairs under it, more than the optimum's %d", name, flat[0], got[0])
		}
		for s := range flat {
			layersSeen = layersSeen || flat[s] != got[s]
		}
	}
	if !layersSeen {
		t.Error("the table without a limit takes as many pairs as the optimum everywhere: the games do not see the turn layers")
	}
}
