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

// refPassGame plays a deal card by card, two seats, sequential flips and perfect memory, under a
// pass rule, as docs/models.md §1.4, §1.5 and §5.2 describe a table player's turn with copies
// cards to a face: a pair remembered whole is taken first; each seat chooses with choose from the
// state of faces and whether the other seat has just passed; a pass flips nothing, and a pass just
// after a pass ends the game, the pairs left shared equally. Daring and safe turn up the first
// unknown card (its remembered partner, else another unknown card or, for safe, a remembered one),
// known-first the remembered card of a face with the most cards on the table and then the first
// unknown card. It returns each seat's score in half pairs.
func refPassGame(deal []int, copies int, choose func(seat int, counts []int, afterPass bool) rules.Choice) [2]int {
	return refPassLeadGame(deal, copies, func(seat int, counts []int, afterPass bool, _ int) rules.Choice {
		return choose(seat, counts, afterPass)
	})
}

// refPassLeadGame is refPassGame whose seats choose with the mover's lead so far too, its pairs
// minus the other seat's (a policy that plays to win).
func refPassLeadGame(deal []int, copies int, choose func(seat int, counts []int, afterPass bool, lead int) rules.Choice) [2]int {
	present, known := make([]bool, len(deal)), make([]bool, len(deal))
	for i := range present {
		present[i] = true
	}
	faces := len(deal) / copies
	onTable := func(f int) (r, b int) {
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
	var score [2]int
	seat, passed := 0, false
	take := func(a, b int) { present[a], present[b] = false, false; score[seat] += 2 }
	for first(func(int) bool { return true }) >= 0 {
		counts := make([]int, copies)
		whole := -1
		for f := range faces {
			if r, b := onTable(f); r > 0 {
				if b >= 2 {
					whole = f
				}
				counts[r-2+min(b, 1)]++
			}
		}
		if whole >= 0 {
			a := first(func(p int) bool { return known[p] && deal[p] == whole })
			take(a, first(func(p int) bool { return p != a && known[p] && deal[p] == whole }))
			passed = false
			continue
		}
		c := choose(seat, counts, passed, (score[seat]-score[1-seat])/2)
		if c == rules.Pass {
			if passed {
				left := 0
				for _, p := range present {
					if p {
						left++
					}
				}
				score[0] += left / 2 // each seat's half of left/2 pairs, in half pairs
				score[1] += left / 2
				return score
			}
			seat, passed = 1-seat, true
			continue
		}
		passed = false
		var x int
		if c == rules.KnownFirst {
			most := 0
			for p := range deal {
				if r, _ := onTable(deal[p]); present[p] && known[p] && r > most {
					x, most = p, r
				}
			}
		} else {
			x = first(func(p int) bool { return !known[p] })
			known[x] = true
			if p := first(func(p int) bool { return p != x && known[p] && deal[p] == deal[x] }); p >= 0 {
				take(x, p)
				continue
			}
			if c == rules.Safe && first(func(p int) bool { return p != x && known[p] }) >= 0 {
				seat = 1 - seat
				continue
			}
		}
		y := first(func(p int) bool { return !known[p] })
		known[y] = true
		if deal[y] == deal[x] {
			take(x, y)
			continue
		}
		seat = 1 - seat
	}
	return score
}

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
		choose := func(seat int, counts []int, afterPass bool) rules.Choice {
			if tab := tables[seat]; tab != nil {
				c, ok := tab.LookupAfterPass(counts, afterPass)
				if !ok {
					t.Fatalf("%s: the model's table has no choice in %v", name, counts)
				}
				if c == rules.Pass {
					passes++
				}
				return c
			}
			if pol[seat] == rules.PolicySafe {
				for i := 1; i < len(counts); i += 2 {
					if counts[i] > 0 {
						return rules.Safe
					}
				}
			}
			return rules.Daring
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
			for s, sh := range refPassGame(deal, g.copies, choose) {
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
