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

// TestEnginePlaysCopiesPassLimitTables builds optimal and best-response under copies of a face
// with pass rules two-known and always and a turn limit (a layer per number of turns left, with
// the choice just after a pass or at every pass streak), plays every deal of two and three faces
// of four cards with the engine at two and three seats, and compares every seat's mean score over
// the deals with the copies model's value exactly.
func TestEnginePlaysCopiesPassLimitTables(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces, limit int
		pass         rules.PassRule
		seats        []string
		opponent     string
	}
	games := []game{
		{2, 3, rules.PassAlways, []string{"optimal", "optimal"}, ""},
		{3, 5, rules.PassAlways, []string{"optimal", "optimal"}, ""},
		{3, 4, rules.PassTwoKnown, []string{"best-response", "safe"}, "safe"},
		{2, 4, rules.PassAlways, []string{"optimal", "optimal", "optimal"}, ""},
		{3, 6, rules.PassTwoKnown, []string{"optimal", "safe", "daring"}, ""},
	}
	if testing.Short() {
		games = []game{games[0], games[2], games[3]}
	}
	for _, g := range games {
		pairs := g.faces * 2
		v := rules.Variant{Copies: 4, TurnLimit: g.limit}
		name := fmt.Sprintf("%d faces of 4, pass %s, turn limit %d, %v", g.faces, g.pass, g.limit, g.seats)
		env := strategies.Env{MaxPairs: pairs, Players: len(g.seats), Pass: g.pass, Variant: v, Tables: strategies.NewTables()}
		var players []sim.Player
		var pols []rules.Policy
		for i, p := range g.seats {
			opp := ""
			if i == 0 {
				opp = g.opponent
			}
			b, err := strategies.Build(ctx, strategies.Spec{Name: fmt.Sprintf("%s-%d", p, i), Policy: p, Opponent: opp}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			players = append(players, b.Player)
			pol, err := rules.ParsePolicy(p)
			if err != nil {
				t.Fatal(err)
			}
			pols = append(pols, pol)
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Pass: g.pass, Players: players})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := make([]int64, len(g.seats)) // in units of 1/p pairs
		count := int64(0)
		everyDeal(g.faces, 4, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for s, sh := range gm.Outcome().Share {
				got[s] += int64(sh)
			}
			count++
		})
		mu := exact.Lineup{Players: len(g.seats), Policy: pols[0], Opponent: pols[1]}
		if len(g.seats) > 2 && pols[1] != pols[2] {
			mu = exact.SeatLineup(pols...)
		}
		start, err := exact.StartCopiesState(pairs, 4)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.EvaluateCopies(ctx, field.Rat{}, exact.Model{Variant: v, Pass: g.pass}, mu, start)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for s := range got {
			if m := big.NewRat(got[s], int64(len(g.seats))*count); m.Cmp(res.PairsBySeat[s]) != 0 {
				t.Errorf("%s: seat %d scores %v pairs on average over every deal, the copies model %v", name, s, m, res.PairsBySeat[s])
			}
		}
	}
}
