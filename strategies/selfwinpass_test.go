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

// TestEnginePlaysSelfWinPassTable builds win-optimal at three seats under the pass rules two-known
// and always (at every seat, and beside daring and safe in its seating's table), plays every deal
// of small decks with the engine, and compares every seat's wins, draws and pairs over the deals
// with the solver's probabilities and expected pairs: a stalemate adds a third of the pairs left
// to every seat, so the seats with the most pairs taken share the win.
func TestEnginePlaysSelfWinPassTable(t *testing.T) {
	ctx := context.Background()
	win, safe, daring := rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring
	type game struct {
		pairs int
		rule  rules.PassRule
		seats []rules.Policy
	}
	games := []game{
		{3, rules.PassAlways, []rules.Policy{win, win, win}},
		{4, rules.PassAlways, []rules.Policy{win, win, win}},
		{4, rules.PassTwoKnown, []rules.Policy{win, win, win}},
		{4, rules.PassAlways, []rules.Policy{daring, win, safe}},
		{4, rules.PassTwoKnown, []rules.Policy{safe, daring, win}},
	}
	for _, g := range games {
		name := fmt.Sprintf("%d pairs, pass %s, %v", g.pairs, g.rule, g.seats)
		env := strategies.Env{MaxPairs: g.pairs, Players: 3, Pass: g.rule, Tables: strategies.NewTables()}
		model := exact.Model{Pass: g.rule}
		mu := exact.SeatLineup(g.seats...)
		players := winSeatPlayers(t, ctx, name, env, model, g.seats)
		r := tallyEveryDeal(t, name, sim.Setup{Pairs: g.pairs, Pass: g.rule, Players: players}, g.pairs, 2)
		res, err := exact.EvaluateStandings(ctx, field.Rat{}, model, mu, rules.State{N: g.pairs, J: g.pairs}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for s := range 3 {
			w, d, p := big.NewRat(r.wins[s], r.deals), big.NewRat(r.draws[s], r.deals), big.NewRat(r.share[s], 3*r.deals)
			if w.Cmp(res.Win[s]) != 0 || d.Cmp(res.Draw[s]) != 0 || p.Cmp(res.Pairs[s]) != 0 {
				t.Errorf("%s: seat %d wins %v, draws %v and takes %v pairs over %d deals, the model %v, %v and %v",
					name, s, w, d, p, r.deals, res.Win[s], res.Draw[s], res.Pairs[s])
			}
		}
		if r.stalemates == 0 && g.seats[0] == win {
			t.Errorf("%s: no stalemate in %d deals", name, r.deals)
		}
	}
}
