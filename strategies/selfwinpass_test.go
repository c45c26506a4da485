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
		tables := strategies.NewTables()
		env := strategies.Env{MaxPairs: g.pairs, Players: 3, Pass: g.rule, Tables: tables}
		model := exact.Model{Pass: g.rule}
		mu := exact.SeatLineup(g.seats...)
		players := make([]sim.Player, 3)
		for s, p := range g.seats {
			b, err := strategies.Build(ctx, strategies.Spec{Name: p.String(), Policy: p.String()}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			players[s] = b.Player
			if mu.SelfWinMixed() && p == win {
				// Beside other policies win-optimal plays the table of its seating.
				tab, err := tables.SeatWinTable(ctx, model, exact.RotateSeats(mu, s), g.pairs)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				players[s].Table = tab
			}
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: g.pairs, Pass: g.rule, Players: players})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var wins, draws [3]int64
		pairs := make([]*big.Rat, 3)
		for s := range pairs {
			pairs[s] = new(big.Rat)
		}
		count, stalemates := int64(0), 0
		everyDeal(g.pairs, 2, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			o := gm.Outcome()
			if o.Stalemate {
				stalemates++
			}
			most, top := -1, 0
			for _, x := range o.Pairs {
				switch {
				case x > most:
					most, top = x, 1
				case x == most:
					top++
				}
			}
			for s, x := range o.Pairs {
				pairs[s].Add(pairs[s], big.NewRat(int64(3*x+o.Left), 3))
				if x == most && top == 1 {
					wins[s]++
				} else if x == most {
					draws[s]++
				}
			}
			count++
		})
		res, err := exact.EvaluateStandings(ctx, field.Rat{}, model, mu, rules.State{N: g.pairs, J: g.pairs}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for s := range 3 {
			w, d := big.NewRat(wins[s], count), big.NewRat(draws[s], count)
			p := new(big.Rat).Quo(pairs[s], big.NewRat(count, 1))
			if w.Cmp(res.Win[s]) != 0 || d.Cmp(res.Draw[s]) != 0 || p.Cmp(res.Pairs[s]) != 0 {
				t.Errorf("%s: seat %d wins %v, draws %v and takes %v pairs over %d deals, the model %v, %v and %v",
					name, s, w, d, p, count, res.Win[s], res.Draw[s], res.Pairs[s])
			}
		}
		if stalemates == 0 && g.seats[0] == win {
			t.Errorf("%s: no stalemate in %d deals", name, count)
		}
	}
}
