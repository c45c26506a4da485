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

// refBlindGame plays a deal card by card under blind flips as docs/models.md §1.7 and §5.2
// describe a table player's turn with copies cards to a face and perfect memory, for the given
// seats, until no card is left or the turn limit is reached (0: none), each seat choosing with
// choose from the state of faces, the turns left and every seat's pairs so far; it returns every seat's pairs. A pair
// remembered whole is taken first, a turn of its own; daring names the first two unknown cards
// (the first remembered one when one unknown card is left), safe and known-first a remembered card
// of a face with the most cards on the table and the first unknown card; both are turned up
// together. Its unknown cards are the first in position order: under a uniform deal this is as
// good as a uniform choice.
func refBlindGame(deal []int, copies, seats, limit int, choose func(seat, left int, counts, pairs []int) rules.Choice) []int {
	present, known := make([]bool, len(deal)), make([]bool, len(deal))
	for i := range present {
		present[i] = true
	}
	faces := len(deal) / copies
	cards := func(f int) (r, b int) {
		for pos, g := range deal {
			if present[pos] && g == f {
				r++
				if known[pos] {
					b++
				}
			}
		}
		return r, b
	}
	first := func(ok func(pos int) bool) int {
		for pos := range deal {
			if present[pos] && ok(pos) {
				return pos
			}
		}
		return -1
	}
	pairs := make([]int, seats)
	seat := 0
	take := func(a, b int) { present[a], present[b] = false, false; pairs[seat]++ }
	for turn := 1; (limit == 0 || turn <= limit) && first(func(int) bool { return true }) >= 0; turn++ {
		counts := make([]int, copies)
		whole := -1
		for f := range faces {
			if r, b := cards(f); r > 0 {
				if b >= 2 {
					whole = f
				}
				counts[r-2+min(b, 1)]++
			}
		}
		if whole >= 0 {
			a := first(func(p int) bool { return known[p] && deal[p] == whole })
			take(a, first(func(p int) bool { return p != a && known[p] && deal[p] == whole }))
			continue
		}
		c := choose(seat, limit-turn+1, counts, pairs)
		x := first(func(p int) bool { return !known[p] })
		y := -1
		if c == rules.Daring {
			if y = first(func(p int) bool { return !known[p] && p != x }); y < 0 {
				y = first(func(p int) bool { return known[p] })
			}
		} else {
			most := 0
			for p := range deal {
				if r, _ := cards(deal[p]); present[p] && known[p] && r > most {
					y, most = p, r
				}
			}
		}
		known[x], known[y] = true, true
		if deal[x] == deal[y] {
			take(x, y)
			continue
		}
		seat = (seat + 1) % seats
	}
	return pairs
}

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
		choose := func(seat, left int, counts, _ []int) rules.Choice {
			if seat > 0 && g.opponent == "safe" {
				for i := 1; i < len(counts); i += 2 {
					if counts[i] > 0 {
						return rules.Safe
					}
				}
				return rules.Daring
			}
			c, ok := layers[max(left, 1)-1].Lookup(counts)
			if g.limit == 0 {
				c, ok = layers[0].Lookup(counts)
			}
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v with %d turns left", name, counts, left)
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
			for s, p := range refBlindGame(deal, g.copies, g.players, g.limit, choose) {
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
