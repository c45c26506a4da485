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

// everyDeal calls visit with every arrangement of faces faces of copies cards, the faces appearing
// in the order 0, 1, 2, ...: every arrangement up to the faces' names, each standing for as many
// shuffles as the others.
func everyDeal(faces, copies int, visit func(deal []int)) {
	left := make([]int, faces)
	for i := range left {
		left[i] = copies
	}
	deal := make([]int, faces*copies)
	var rec func(pos, used int)
	rec = func(pos, used int) {
		if pos == len(deal) {
			visit(deal)
			return
		}
		for f := range min(used+1, faces) {
			if left[f] > 0 {
				left[f]--
				deal[pos] = f
				rec(pos+1, max(used, f+1))
				left[f]++
			}
		}
	}
	rec(0, 0)
}

// refLimitGame plays a deal card by card as docs/models.md §5.2 describes a table player's turn
// with copies cards to a face and perfect memory, for the given seats, until no card is left or
// the turn limit is reached, each seat choosing with choose from the state of faces, the turns
// left and every seat's pairs so far; it returns every seat's pairs. Its next unknown card is the first in position order: under
// a uniform deal this is as good as a uniform choice, so its totals over every deal are the
// engine's.
func refLimitGame(deal []int, copies, seats, limit int, choose func(seat, left int, counts, pairs []int) rules.Choice) []int {
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
	unknown := func(p int) bool { return !known[p] }
	for turn := 1; turn <= limit && first(func(int) bool { return true }) >= 0; turn++ {
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
		if whole >= 0 { // a pair remembered whole is taken first, a turn of its own
			a := first(func(p int) bool { return known[p] && deal[p] == whole })
			take(a, first(func(p int) bool { return p != a && known[p] && deal[p] == whole }))
			continue
		}
		c := choose(seat, limit-turn+1, counts, pairs)
		var x int
		if c == rules.KnownFirst {
			most := 0
			for p := range deal {
				if r, _ := cards(deal[p]); present[p] && known[p] && r > most {
					x, most = p, r
				}
			}
		} else {
			x = first(unknown)
			known[x] = true
			if p := first(func(p int) bool { return p != x && known[p] && deal[p] == deal[x] }); p >= 0 {
				take(x, p)
				continue
			}
			if c == rules.Safe {
				seat = (seat + 1) % seats
				continue
			}
		}
		y := first(unknown)
		known[y] = true
		if deal[y] == deal[x] {
			take(x, y)
			continue
		}
		seat = (seat + 1) % seats
	}
	return pairs
}

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
		choose := func(seat, left int, counts, _ []int) rules.Choice {
			if tables[seat] == nil { // safe
				for i := 1; i < len(counts); i += 2 {
					if counts[i] > 0 {
						return rules.Safe
					}
				}
				return rules.Daring
			}
			c, ok := tables[seat][left-1].Lookup(counts)
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v with %d turns left", name, counts, left)
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
			for s, p := range refLimitGame(deal, g.copies, g.players, g.limit, choose) {
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
