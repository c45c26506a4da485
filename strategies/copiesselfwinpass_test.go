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

// TestEnginePlaysCopiesSelfWinPassTables builds win-optimal at three seats under copies and pass
// rules always and two-known (at every seat, and beside safe and daring), plays every deal of
// small decks with the engine, which reads the table at every seat's pairs so far and the pass
// streak, and compares every seat's wins, draws and pairs (a stalemate's share included) over the
// deals with the model's values exactly: every deal is equally likely, so the model's
// probabilities are the deals' fractions.
func TestEnginePlaysCopiesSelfWinPassTables(t *testing.T) {
	ctx := context.Background()
	win, safe, daring := rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring
	type game struct {
		faces, copies, limit int
		rule                 rules.PassRule
		seats                []rules.Policy
	}
	passes := 0
	for _, g := range []game{
		{2, 4, 0, rules.PassAlways, []rules.Policy{win, win, win}},
		{2, 4, 0, rules.PassAlways, []rules.Policy{win, safe, daring}},
		{2, 4, 0, rules.PassAlways, []rules.Policy{daring, win, win}},
		{2, 4, 0, rules.PassTwoKnown, []rules.Policy{win, win, win}},
		{3, 2, 0, rules.PassTwoKnown, []rules.Policy{safe, daring, win}},
		{3, 2, 5, rules.PassAlways, []rules.Policy{win, daring, safe}},
		{2, 4, 6, rules.PassTwoKnown, []rules.Policy{win, win, win}},
		{3, 2, 0, rules.PassAlways, []rules.Policy{win, win, win}},
		{3, 2, 0, rules.PassAlways, []rules.Policy{win, win, daring}},
		{2, 4, 0, rules.PassTwoKnown, []rules.Policy{win, daring, daring}},
		{2, 4, 0, rules.PassAlways, []rules.Policy{win, win, safe}},
		{2, 6, 0, rules.PassAlways, []rules.Policy{win, win, win}},
		{2, 6, 0, rules.PassTwoKnown, []rules.Policy{win, win, win}},
		{4, 2, 0, rules.PassTwoKnown, []rules.Policy{win, win, win}},
		{4, 2, 0, rules.PassAlways, []rules.Policy{win, win, daring}},
		{3, 4, 8, rules.PassAlways, []rules.Policy{win, win, safe}},
	} {
		if testing.Short() && (g.faces*g.copies >= 12 || g.faces == 4 || g.copies == 6 && g.rule == rules.PassTwoKnown) {
			continue
		}
		pairs := g.faces * g.copies / 2
		v := rules.Variant{Copies: g.copies, TurnLimit: g.limit}
		name := fmt.Sprintf("%d faces of %d, limit %d, pass %s, %v", g.faces, g.copies, g.limit, g.rule, g.seats)
		env := strategies.Env{MaxPairs: pairs, Players: 3, Pass: g.rule, Variant: v, Tables: strategies.NewTables()}
		model := exact.Model{Variant: v, Pass: g.rule}
		mu := exact.SeatLineup(g.seats...)
		players := winSeatPlayers(t, ctx, name, env, model, g.seats)
		r := tallyEveryDeal(t, name, sim.Setup{Pairs: pairs, Pass: g.rule, Variant: v, Players: players}, g.faces, g.copies)
		passes += r.stalemates
		start, err := exact.StartCopiesState(pairs, g.copies)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.EvaluateCopiesSelfWin(ctx, field.Rat{}, model, mu, start, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for s := range 3 {
			w, d, ps := big.NewRat(r.wins[s], r.deals), big.NewRat(r.draws[s], r.deals), big.NewRat(r.share[s], 3*r.deals)
			if w.Cmp(res.Win[s]) != 0 || d.Cmp(res.Draw[s]) != 0 || ps.Cmp(res.Pairs[s]) != 0 {
				t.Errorf("%s: seat %d: the engine's wins %v, draws %v, pairs %v over %d deals; the model %v, %v, %v", name, s,
					w.RatString(), d.RatString(), ps.RatString(), r.deals, res.Win[s].RatString(), res.Draw[s].RatString(), res.Pairs[s].RatString())
			}
		}
	}
	if passes == 0 {
		t.Errorf("no game ended in a stalemate: want the pass streak played")
	}
}
