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

// TestEnginePlaysCopiesBlindOptimum builds optimal (and best-response to safe) under copies with
// blind flips, alone and at two and three seats, without and under a turn limit, plays every deal
// of two and three faces of four cards and two of six with the engine, and compares every seat's
// pairs over the deals with a card-by-card reference that reads the copies model's tables,
// exactly, and their mean with the copies model's value.
func TestEnginePlaysCopiesBlindOptimum(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces, copies, limit, players int
		policy, opponent              string
	}
	games := []game{
		{2, 4, 0, 1, "optimal", ""}, {3, 4, 0, 1, "optimal", ""}, {2, 6, 0, 2, "optimal", ""},
		{3, 4, 0, 2, "optimal", ""}, {3, 4, 0, 2, "best-response", "safe"}, {3, 4, 0, 3, "optimal", ""},
		{3, 4, 4, 1, "optimal", ""}, {3, 4, 5, 2, "optimal", ""},
	}
	for _, g := range games {
		pairs := g.faces * g.copies / 2
		v := rules.Variant{Copies: g.copies, Flips: rules.FlipsBlind, TurnLimit: g.limit}
		name := fmt.Sprintf("%d faces of %d, blind flips, turn limit %d, %d players, %s", g.faces, g.copies, g.limit, g.players, g.policy)
		build := func(policy, opponent string) sim.Player {
			env := strategies.Env{MaxPairs: pairs, Players: g.players, Variant: v, Tables: strategies.NewTables()}
			b, err := strategies.Build(ctx, strategies.Spec{Name: policy, Policy: policy, Opponent: opponent}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return b.Player
		}
		seats := []sim.Player{build(g.policy, g.opponent)}
		for len(seats) < g.players {
			if g.opponent != "" {
				seats = append(seats, build(g.opponent, ""))
			} else {
				seats = append(seats, seats[0])
			}
		}
		model := exact.Model{Variant: v}
		mu := exact.Lineup{Players: g.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		if g.policy == "best-response" {
			mu = exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}
		}
		var layers []*rules.CopiesTable
		var err error
		if g.limit > 0 {
			layers, err = exact.CopiesPolicyTurnTables(ctx, field.Rat{}, model, mu, pairs)
		} else {
			var ct *rules.CopiesTable
			ct, err = exact.CopiesPolicyTable(ctx, field.Rat{}, model, mu, pairs)
			layers = []*rules.CopiesTable{ct}
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		choose := func(m copiesMove) rules.Choice {
			if m.seat > 0 && g.opponent == "safe" {
				return safeOrDaring(rules.PolicySafe, m.counts)
			}
			c, ok := layers[max(m.left, 1)-1].Lookup(m.counts)
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v with %d turns left", name, m.counts, m.left)
			}
			return c
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Players: seats})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, want, count := make([]int64, g.players), make([]int64, g.players), int64(0)
		everyDeal(g.faces, g.copies, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for s, p := range gm.Outcome().Pairs {
				got[s] += int64(p)
			}
			for s, p := range refCopiesGame(deal, copiesRef{copies: g.copies, seats: g.players, limit: g.limit, blind: true}, choose).pairs {
				want[s] += int64(p)
			}
			count++
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
		res, err := exact.EvaluateCopies(ctx, field.Rat{}, model, mu, start)
		if err != nil {
			t.Fatal(err)
		}
		if g.players == 1 && g.limit == 0 {
			continue // alone without a limit every game takes every pair
		}
		if m := big.NewRat(got[0], count); m.Cmp(res.PairsBySeat[0]) != 0 {
			t.Errorf("%s: seat 0 takes %v pairs on average over every deal, the copies model %v", name, m, res.PairsBySeat[0])
		}
	}
}
