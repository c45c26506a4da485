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

// TestEnginePlaysCopiesPassTables builds optimal and best-response under copies of a face with
// pass rules two-known and always at two seats, plays every deal of two and three faces of four
// cards and two of six with the engine, and compares each seat's score over the deals with a
// card-by-card reference that reads the copies model's tables (the choice just after a pass
// included), exactly, and seat 0's mean score with the copies model's value.
func TestEnginePlaysCopiesPassTables(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces, copies    int
		pass             rules.PassRule
		policy, opponent string
	}
	games := []game{
		{2, 4, rules.PassAlways, "optimal", "optimal"}, {3, 4, rules.PassAlways, "optimal", "optimal"},
		{3, 4, rules.PassTwoKnown, "optimal", "optimal"}, {2, 6, rules.PassTwoKnown, "optimal", "optimal"},
		{3, 4, rules.PassAlways, "best-response", "safe"}, {3, 4, rules.PassTwoKnown, "best-response", "optimal"},
		{2, 6, rules.PassAlways, "safe", "optimal"}, {3, 4, rules.PassAlways, "best-response", "daring"},
	}
	passes := 0
	for _, g := range games {
		pairs := g.faces * g.copies / 2
		v := rules.Variant{Copies: g.copies}
		name := fmt.Sprintf("%d faces of %d, pass %s, %s vs %s", g.faces, g.copies, g.pass, g.policy, g.opponent)
		env := strategies.Env{MaxPairs: pairs, Players: 2, Pass: g.pass, Variant: v, Tables: strategies.NewTables()}
		build := func(policy, opponent string) sim.Player {
			b, err := strategies.Build(ctx, strategies.Spec{Name: policy, Policy: policy, Opponent: opponent}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return b.Player
		}
		opp := ""
		if g.policy == "best-response" {
			opp = g.opponent
		}
		seats := []sim.Player{build(g.policy, opp), build(g.opponent, "")}
		model := exact.Model{Variant: v, Pass: g.pass}
		pol := [2]rules.Policy{}
		tables := [2]*rules.CopiesTable{}
		for i, name := range []string{g.policy, g.opponent} {
			p, err := rules.ParsePolicy(name)
			if err != nil {
				t.Fatal(err)
			}
			pol[i] = p
		}
		for i, p := range pol {
			if p.Fixed() {
				continue
			}
			mu := exact.Lineup{Players: 2, Policy: p, Opponent: p}
			if p == rules.PolicyBestResponse {
				mu.Opponent = pol[1-i]
			}
			ct, err := exact.CopiesPolicyTable(ctx, field.Rat{}, model, mu, pairs)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			tables[i] = ct
		}
		choose := func(m copiesMove) rules.Choice {
			tab := tables[m.seat]
			if tab == nil {
				return safeOrDaring(pol[m.seat], m.counts)
			}
			c, ok := tab.LookupAfterPass(m.counts, m.passes > 0)
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v", name, m.counts)
			}
			if c == rules.Pass {
				passes++
			}
			return c
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Pass: g.pass, Players: seats})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got, want [2]int64
		count := int64(0)
		everyDeal(g.faces, g.copies, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for s, sh := range gm.Outcome().Share {
				got[s] += int64(sh) // in half pairs
			}
			for s, sh := range refCopiesGame(deal, copiesRef{copies: g.copies, seats: 2}, choose).share {
				want[s] += int64(sh)
			}
			count++
		})
		if got != want {
			t.Errorf("%s: the seats score %v half pairs over %d deals in the engine, %v in the reference", name, got, count, want)
		}
		start, err := exact.StartCopiesState(pairs, g.copies)
		if err != nil {
			t.Fatal(err)
		}
		mu := exact.Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
		res, err := exact.EvaluateCopies(ctx, field.Rat{}, model, mu, start)
		if err != nil {
			t.Fatal(err)
		}
		if m := big.NewRat(got[0], 2*count); m.Cmp(res.PairsBySeat[0]) != 0 {
			t.Errorf("%s: seat 0 scores %v pairs on average over every deal, the copies model %v", name, m, res.PairsBySeat[0])
		}
	}
	if passes == 0 {
		t.Error("no table passed in any game")
	}
}
