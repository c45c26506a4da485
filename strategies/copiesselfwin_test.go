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

// TestEnginePlaysCopiesSelfWinTables builds win-optimal at three seats under copies, without and
// under a turn limit (at every seat, beside daring and safe in the seat's own table, and
// win-best-response to safe), under sequential and blind flips, plays every deal of small decks
// with the engine, and compares every seat's pairs, wins and draws over the deals with a
// card-by-card reference that reads the model's table (under a limit, its layer of the turns left)
// at every seat's pairs so far, exactly, and every seat's wins and draws with the model's
// probabilities.
func TestEnginePlaysCopiesSelfWinTables(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces, copies, limit int // limit 0: no turn limit
		seats                []rules.Policy
		opponent             string // win-best-response's
		flips                rules.Flips
	}
	win, safe, daring := rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring
	var games []game
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		games = append(games, game{2, 4, 0, []rules.Policy{win, win, win}, "", flips},
			game{3, 4, 0, []rules.Policy{win, win, win}, "", flips},
			game{2, 6, 0, []rules.Policy{daring, win, safe}, "", flips},
			game{3, 4, 0, []rules.Policy{safe, daring, win}, "", flips},
			game{3, 4, 0, []rules.Policy{rules.PolicyWinBestResponse, safe, safe}, "safe", flips},
			game{2, 4, 3, []rules.Policy{win, win, win}, "", flips},
			game{3, 4, 5, []rules.Policy{win, win, win}, "", flips},
			game{3, 4, 4, []rules.Policy{daring, win, safe}, "", flips},
			game{3, 4, 6, []rules.Policy{rules.PolicyWinBestResponse, safe, safe}, "safe", flips})
	}
	if testing.Short() {
		// The short form: 2 faces of 4 (and of 6), without and under a limit, all win-optimal and
		// beside daring and safe, under both flips, and win-best-response to safe.
		games = nil
		for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
			games = append(games, game{2, 4, 0, []rules.Policy{win, win, win}, "", flips},
				game{2, 4, 3, []rules.Policy{daring, win, safe}, "", flips})
		}
		games = append(games, game{2, 6, 0, []rules.Policy{daring, win, safe}, "", rules.FlipsSequential},
			game{2, 4, 0, []rules.Policy{rules.PolicyWinBestResponse, safe, safe}, "safe", rules.FlipsSequential},
			game{2, 4, 3, []rules.Policy{win, win, win}, "", rules.FlipsBlind})
	}
	for _, g := range games {
		pairs := g.faces * g.copies / 2
		v := rules.Variant{Copies: g.copies, Flips: g.flips, TurnLimit: g.limit}
		name := fmt.Sprintf("%d faces of %d, limit %d, %s flips, %v", g.faces, g.copies, g.limit, g.flips, g.seats)
		tables := strategies.NewTables()
		env := strategies.Env{MaxPairs: pairs, Players: 3, Variant: v, Tables: tables}
		model := exact.Model{Variant: v}
		mu := exact.SeatLineup(g.seats...)
		players := make([]sim.Player, 3)
		refLayers := make([][]*rules.CopiesTable, 3)
		for s, p := range g.seats {
			opp := ""
			if p == rules.PolicyWinBestResponse {
				opp = g.opponent
			}
			b, err := strategies.Build(ctx, strategies.Spec{Name: p.String(), Policy: p.String(), Opponent: opp}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			players[s] = b.Player
			if !p.PlaysToWin() {
				continue
			}
			seen := exact.RotateSeats(mu, s)
			if mu.SelfWinMixed() && p == rules.PolicyWinOptimal {
				// Beside other policies win-optimal plays the table of its seating.
				tab, err := tables.SeatWinTable(ctx, model, seen, pairs)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				players[s].Table = tab
			}
			if g.limit > 0 {
				refLayers[s], err = exact.CopiesSelfWinPolicyTurnTables(ctx, field.Rat{}, model, seen, pairs)
			} else {
				refLayers[s] = make([]*rules.CopiesTable, 1)
				refLayers[s][0], err = exact.CopiesSelfWinPolicyTable(ctx, field.Rat{}, model, seen, pairs)
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		choose := func(m copiesMove) rules.Choice {
			layers := refLayers[m.seat]
			if layers == nil {
				return safeOrDaring(g.seats[m.seat], m.counts)
			}
			ps, seat := m.pairs, m.seat
			from := []int{ps[seat], ps[(seat+1)%3], ps[(seat+2)%3]}
			c, ok := layers[max(m.left, 1)-1].LookupStandingsKey(rules.AppendCopiesKey(nil, m.counts), from)
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v at %v with %d turns left", name, m.counts, from, m.left)
			}
			return c
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Players: players})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got, want [3][3]int64 // each seat's pairs, wins and draws
		tally := func(out *[3][3]int64, ps []int) {
			most, top := mostOf(ps)
			for s := range 3 {
				out[s][0] += int64(ps[s])
				if ps[s] == most && top == 1 {
					out[s][1]++
				} else if ps[s] == most {
					out[s][2]++
				}
			}
		}
		count := int64(0)
		everyDeal(g.faces, g.copies, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			tally(&got, gm.Outcome().Pairs)
			ref := copiesRef{copies: g.copies, seats: 3, limit: g.limit, blind: g.flips == rules.FlipsBlind}
			tally(&want, refCopiesGame(deal, ref, choose).pairs)
			count++
		})
		if got != want {
			t.Errorf("%s: the engine's pairs, wins and draws by seat over %d deals %v, the reference %v", name, count, got, want)
		}
		start, err := exact.StartCopiesState(pairs, g.copies)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.EvaluateCopiesSelfWin(ctx, field.Rat{}, model, mu, start, nil)
		if err != nil {
			t.Fatal(err)
		}
		for s := range 3 {
			if w, d := big.NewRat(got[s][1], count), big.NewRat(got[s][2], count); w.Cmp(res.Win[s]) != 0 || d.Cmp(res.Draw[s]) != 0 {
				t.Errorf("%s: seat %d wins %v and draws %v of the deals, the model %v and %v", name, s, w, d, res.Win[s], res.Draw[s])
			}
		}
	}
}
