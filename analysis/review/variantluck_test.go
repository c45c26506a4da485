package review_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/review"
	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// variantPolicyTable returns the engine's table of policy p for games of n pairs under model m:
// the variant's optimum, or a fixed policy.
func variantPolicyTable(t *testing.T, m exact.Model, p rules.Policy, n int) *rules.ChoiceTable {
	t.Helper()
	ctx := context.Background()
	if p.Fixed() {
		tb, err := rules.FixedChoiceTable(p, n, m.Singletons)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	mu := exact.Lineup{Players: 2, Policy: p, Opponent: p}
	if m.Variant.CopiesOf() != rules.DefaultCopies && m.Variant.TurnLimit > 0 {
		layers, err := exact.CopiesPolicyTurnTables(ctx, field.Float{}, m, mu, n)
		if err != nil {
			t.Fatal(err)
		}
		tables := make([]*rules.ChoiceTable, len(layers))
		for i, ct := range layers {
			if tables[i], err = rules.NewCopiesChoiceTable(n, ct); err != nil {
				t.Fatal(err)
			}
		}
		tb, err := rules.NewTurnChoiceTable(tables)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	if m.Variant.CopiesOf() != rules.DefaultCopies {
		ct, err := exact.CopiesPolicyTable(ctx, field.Float{}, m, mu, n)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := rules.NewCopiesChoiceTable(n, ct)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	tb, err := exact.PolicyTable(ctx, field.Float{}, m, mu, n)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// everyVariantDeal plays every arrangement of the deck of a game of n pairs under model m in the
// engine, the two seats following the given tables, and calls visit with each game's record.
func everyVariantDeal(t *testing.T, m exact.Model, n int, seats [2]rules.Policy, visit func(*record.Game)) {
	t.Helper()
	setup := sim.Setup{Pairs: n, Pass: m.Pass, Variant: m.Variant}
	for i, p := range seats {
		setup.Players = append(setup.Players, sim.Player{Name: fmt.Sprint(p, i), Table: variantPolicyTable(t, m, p, n)})
	}
	game, err := sim.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	k := m.Variant.CopiesOf()
	var deck []int
	for f := range m.Variant.Faces(n) {
		for range k {
			deck = append(deck, f)
		}
	}
	var l sim.Log
	index := uint64(0)
	permutations(deck, func(deal []int) {
		if err := game.PlayDeal(sim.GameID{Seed: 9, Index: index}, deal, &l); err != nil {
			t.Fatal(err)
		}
		index++
		g := &record.Game{Rules: record.Rules{Pairs: n, Seats: 2, Pass: m.Pass, Variant: m.Variant}}
		for _, turn := range l.Turns {
			if len(turn.Flips) == 0 {
				g.Moves = append(g.Moves, record.PassMove())
			}
			for _, c := range turn.Flips {
				g.Moves = append(g.Moves, record.Flip(c.Pos, c.Face))
			}
		}
		// Two passes in a row are a stalemate, which the record closes with an end line.
		if n := len(l.Turns); n >= 2 && l.Turns[n-1].End == "pass" && l.Turns[n-2].End == "pass" {
			g.Ended = true
		}
		if err := g.Check(); err != nil {
			t.Fatalf("deal %v: %v", deal, err)
		}
		visit(g)
	})
}

// permutations calls visit with every distinct arrangement of values, in lexicographic order.
func permutations(values []int, visit func([]int)) {
	a := append([]int(nil), values...)
	for {
		visit(a)
		i := len(a) - 2
		for i >= 0 && a[i] >= a[i+1] {
			i--
		}
		if i < 0 {
			return
		}
		j := len(a) - 1
		for a[j] <= a[i] {
			j--
		}
		a[i], a[j] = a[j], a[i]
		for l, r := i+1, len(a)-1; l < r; l, r = l+1, r-1 {
			a[l], a[r] = a[r], a[l]
		}
	}
}

// TestVariantLuckAddsUpToTheResult reviews every deal of small games under the rule variants
// (blind flips, a turn limit, both, copies, copies under a limit, under pass rules two-known and
// always and under blind flips, with and without a limit; two faces of six cards but under the race detector, three faces of four
// cards without -short and the race detector), played by the engine's table
// players, and checks, for each seat, that its value at the start, less its decisions' costs,
// plus their luck, less the other seat's luck and plus its costs, is the game's result counted
// from the record: its lead over the other seat, halved (pairs where the seats' pairs add up),
// and its win score. The evaluation ends at seat 0's result. Between seats that play the optimum
// the luck of a turn has mean zero (a turn the cards of several choices fit is credited with the
// best of them, which is the optimum's), so over every deal, all equally likely, each seat's luck
// adds up to zero. Under the race detector the games of two cards a face deal 2 pairs, not 3.
// Copies of a face are judged in win score too at two faces (six copies without -short only).
func TestVariantLuckAddsUpToTheResult(t *testing.T) {
	ctx := context.Background()
	opt, safe, daring := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	for _, c := range []struct {
		v     rules.Variant
		pass  rules.PassRule
		n     int
		seats [2]rules.Policy
	}{
		{rules.Variant{Flips: rules.FlipsBlind}, rules.PassNever, 3, [2]rules.Policy{opt, daring}},
		{rules.Variant{Flips: rules.FlipsBlind}, rules.PassNever, 3, [2]rules.Policy{opt, opt}},
		{rules.Variant{Flips: rules.FlipsBlind}, rules.PassTwoKnown, 3, [2]rules.Policy{safe, opt}},
		{rules.Variant{TurnLimit: 3}, rules.PassNever, 3, [2]rules.Policy{daring, safe}},
		{rules.Variant{TurnLimit: 3}, rules.PassNever, 3, [2]rules.Policy{opt, opt}},
		{rules.Variant{TurnLimit: 3}, rules.PassAlways, 3, [2]rules.Policy{opt, safe}},
		{rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 2}, rules.PassNever, 3, [2]rules.Policy{opt, opt}},
		{rules.Variant{Copies: 4}, rules.PassNever, 4, [2]rules.Policy{opt, safe}},
		{rules.Variant{Copies: 4}, rules.PassNever, 4, [2]rules.Policy{opt, opt}},
		{rules.Variant{Copies: 4, TurnLimit: 3}, rules.PassNever, 4, [2]rules.Policy{safe, daring}},
		{rules.Variant{Copies: 4, TurnLimit: 3}, rules.PassNever, 4, [2]rules.Policy{opt, opt}},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind}, rules.PassNever, 4, [2]rules.Policy{opt, daring}},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind}, rules.PassNever, 4, [2]rules.Policy{opt, opt}},
		{rules.Variant{Copies: 6, Flips: rules.FlipsBlind}, rules.PassNever, 6, [2]rules.Policy{opt, safe}},
		{rules.Variant{Copies: 6, Flips: rules.FlipsBlind}, rules.PassNever, 6, [2]rules.Policy{opt, opt}},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind}, rules.PassNever, 6, [2]rules.Policy{opt, opt}},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind, TurnLimit: 3}, rules.PassNever, 4, [2]rules.Policy{safe, opt}},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind, TurnLimit: 3}, rules.PassNever, 4, [2]rules.Policy{opt, opt}},
		{rules.Variant{Copies: 4}, rules.PassAlways, 4, [2]rules.Policy{safe, opt}},
		{rules.Variant{Copies: 4}, rules.PassTwoKnown, 4, [2]rules.Policy{opt, safe}},
		{rules.Variant{Copies: 4}, rules.PassTwoKnown, 4, [2]rules.Policy{opt, opt}},
		{rules.Variant{Copies: 4, TurnLimit: 3}, rules.PassAlways, 4, [2]rules.Policy{opt, opt}},
		{rules.Variant{Copies: 4, Flips: rules.FlipsBlind}, rules.PassAlways, 4, [2]rules.Policy{daring, opt}},
	} {
		switch {
		case c.v.CopiesOf() > 2 && 2*c.n > 8 && raceEnabled:
			continue // 924 deals and more: seconds under the race detector
		case c.v.CopiesOf() > 2 && c.n > c.v.CopiesOf() && testing.Short():
			continue // three faces of four cards: 34,650 deals, about a minute
		}
		if raceEnabled && c.n > c.v.CopiesOf() {
			c.n-- // the race detector slows every solve down: 2 pairs of two cards, 6 deals
		}
		m := exact.Model{Pass: c.pass, Variant: c.v}
		// The win scores of copies take most of the time of the larger games: three faces of
		// four cards (34,650 deals) are checked in pairs only, two faces of six cards in win
		// score too without -short.
		win := true
		switch {
		case c.v.CopiesOf() > 2 && c.n > c.v.CopiesOf():
			win = false
		case c.v.CopiesOf() == 6 && testing.Short():
			win = false
		}
		t.Run(fmt.Sprintf("%s/pass=%s/%v", c.v, c.pass, c.seats), func(t *testing.T) {
			var sumLuck [2][2]float64
			deals, lucky := 0, 0
			everyVariantDeal(t, m, c.n, c.seats, func(g *record.Game) {
				deals++
				r, err := review.VariantGame(ctx, field.Float{}, g, win)
				if err != nil {
					t.Fatal(err)
				}
				checkVariantLuck(t, r, g, deals)
				for s := range 2 {
					sumLuck[s][0] += r.Seats[s].LuckPairs
					sumLuck[s][1] += r.Seats[s].LuckWin
				}
				for _, d := range r.Decisions {
					if d.LuckPairs != 0 {
						lucky++
					}
				}
			})
			if c.seats == [2]rules.Policy{opt, opt} {
				for s := range 2 {
					if math.Abs(sumLuck[s][0]) > 1e-9 || math.Abs(sumLuck[s][1]) > 1e-9 {
						t.Errorf("seat %d: luck over the %d deals adds up to %.3g pairs and %.3g win, want 0", s, deals, sumLuck[s][0], sumLuck[s][1])
					}
				}
			}
			if lucky == 0 {
				t.Errorf("no turn of the %d deals has any luck", deals)
			}
		})
	}
}

// checkVariantLuck checks the identity of TestVariantLuckAddsUpToTheResult on one game's review.
func checkVariantLuck(t *testing.T, r *review.VariantReview[float64], g *record.Game, deal int) {
	t.Helper()
	if !g.Result.Over || len(r.Decisions) == 0 || r.Decisions[0].Turn != 0 {
		t.Fatalf("deal %d: a game not over, or that does not begin with a decision", deal)
	}
	d0 := r.Decisions[0]
	for s := range 2 {
		half := d0.Options[d0.Best].Lead / 2 // seat 0's, moving first with no pairs taken
		win := d0.Options[d0.BestWin].Win
		if s == 1 {
			half, win = -half, 1-win
		}
		for _, d := range r.Decisions {
			if d.Chosen < 0 {
				t.Fatalf("deal %d turn %d: the engine's table player made no choice of the model", deal, d.Turn+1)
			}
			p, w := d.LuckPairs-d.CostPairs, d.LuckWin-d.CostWin
			if d.Seat != s {
				p, w = -p, -w
			}
			half, win = half+p, win+w
		}
		a, b := g.Result.Scores[s], g.Result.Scores[1-s]
		wantWin := 0.5
		switch {
		case a > b:
			wantWin = 1
		case a < b:
			wantWin = 0
		}
		if math.Abs(half-(a-b)/2) > 1e-9 || r.Win && math.Abs(win-wantWin) > 1e-9 {
			t.Errorf("deal %d seat %d: start, costs and luck add up to a lead of %.12g and win %.12g; the game's %g and %g",
				deal, s, 2*half, win, a-b, wantWin)
		}
	}
	last := r.Through[len(r.Through)-1]
	if math.Abs(last.Pairs-g.Result.Scores[0]) > 1e-9 {
		t.Errorf("deal %d: the evaluation ends at %.12g pairs, seat 0's result %g", deal, last.Pairs, g.Result.Scores[0])
	}
}
