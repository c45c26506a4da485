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

// refSeatsPassGame plays a deal card by card at p seats, sequential flips and perfect memory,
// under a pass rule, as docs/models.md §1.4, §1.5 and §5.2 describe a table player's turn with
// copies cards to a face: a pair remembered whole is taken first; each seat chooses with choose
// from the state of faces and the number of seats that passed in a row just before; a pass flips
// nothing and hands the move on, the p-th pass in a row ends the game with the pairs left shared
// equally, and every other turn resets the count. Daring and safe turn up the first unknown card
// (its remembered partner, else another unknown card or, for safe, a remembered one), known-first
// the remembered card of a face with the most cards on the table and then the first unknown card.
// It returns each seat's score in units of 1/p pair.
func refSeatsPassGame(deal []int, copies, p int, choose func(seat int, counts []int, passes int) rules.Choice) []int {
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
	score := make([]int, p)
	seat, passes := 0, 0
	take := func(a, b int) { present[a], present[b] = false, false; score[seat] += p }
	handOver := func() { seat = (seat + 1) % p }
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
			a := first(func(q int) bool { return known[q] && deal[q] == whole })
			take(a, first(func(q int) bool { return q != a && known[q] && deal[q] == whole }))
			passes = 0
			continue
		}
		c := choose(seat, counts, passes)
		if c == rules.Pass {
			if passes == p-1 {
				left := 0
				for _, x := range present {
					if x {
						left++
					}
				}
				for s := range score {
					score[s] += left / 2 // each seat's 1/p of left/2 pairs, in units of 1/p pair
				}
				return score
			}
			passes++
			handOver()
			continue
		}
		passes = 0
		var x int
		if c == rules.KnownFirst {
			most := 0
			for q := range deal {
				if r, _ := onTable(deal[q]); present[q] && known[q] && r > most {
					x, most = q, r
				}
			}
		} else {
			x = first(func(q int) bool { return !known[q] })
			known[x] = true
			if q := first(func(q int) bool { return q != x && known[q] && deal[q] == deal[x] }); q >= 0 {
				take(x, q)
				continue
			}
			if c == rules.Safe && first(func(q int) bool { return q != x && known[q] }) >= 0 {
				handOver()
				continue
			}
		}
		y := first(func(q int) bool { return !known[q] })
		known[y] = true
		if deal[y] == deal[x] {
			take(x, y)
			continue
		}
		handOver()
	}
	return score
}

// TestEnginePlaysCopiesPassSeatTables builds optimal (every seat's own optimum) and best-response
// under copies of a face with pass rules two-known and always at three and four seats, plays every
// deal of two and three faces of four cards and two of six with the engine, and compares every
// seat's score over the deals with a card-by-card reference that reads the copies model's tables
// at the pass streak, exactly, and every seat's mean score with the copies model's value.
func TestEnginePlaysCopiesPassSeatTables(t *testing.T) {
	ctx := context.Background()
	type game struct {
		faces, copies int
		pass          rules.PassRule
		seats         []string // seat 0's policy first; best-response at seat 0 answers seat 1's
	}
	o, s, d, br := "optimal", "safe", "daring", "best-response"
	games := []game{
		{2, 4, rules.PassAlways, []string{o, o, o}}, {3, 4, rules.PassAlways, []string{o, o, o}},
		{3, 4, rules.PassTwoKnown, []string{o, o, o}}, {2, 6, rules.PassTwoKnown, []string{o, o, o}},
		{3, 4, rules.PassAlways, []string{o, s, d}}, {3, 4, rules.PassTwoKnown, []string{br, o, o}},
		{2, 6, rules.PassAlways, []string{br, s, s}}, {2, 4, rules.PassAlways, []string{o, o, o, o}},
	}
	if testing.Short() {
		games = append(games[:1], games[2], games[4], games[5], games[7])
	}
	passes := 0
	for _, g := range games {
		p := len(g.seats)
		pairs := g.faces * g.copies / 2
		v := rules.Variant{Copies: g.copies}
		name := fmt.Sprintf("%d faces of %d, pass %s, %v", g.faces, g.copies, g.pass, g.seats)
		env := strategies.Env{MaxPairs: pairs, Players: p, Pass: g.pass, Variant: v, Tables: strategies.NewTables()}
		model := exact.Model{Variant: v, Pass: g.pass}
		players := make([]sim.Player, p)
		pols := make([]rules.Policy, p)
		tables := make([]*rules.CopiesTable, p)
		for i, name := range g.seats {
			pol, err := rules.ParsePolicy(name)
			if err != nil {
				t.Fatal(err)
			}
			pols[i] = pol
		}
		for i, pol := range pols {
			opp := ""
			mu := exact.Lineup{Players: p, Policy: pol, Opponent: pol}
			if pol == rules.PolicyBestResponse {
				opp, mu.Opponent = g.seats[1], pols[1]
			}
			b, err := strategies.Build(ctx, strategies.Spec{Name: g.seats[i], Policy: g.seats[i], Opponent: opp}, env)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			players[i] = b.Player
			if pol.Fixed() {
				continue
			}
			if tables[i], err = exact.CopiesPolicyTable(ctx, field.Rat{}, model, mu, pairs); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		choose := func(seat int, counts []int, k int) rules.Choice {
			if tab := tables[seat]; tab != nil {
				c, ok := tab.LookupPassesKey(rules.AppendCopiesKey(nil, counts), k)
				if !ok {
					t.Fatalf("%s: the model's table has no choice in %v after %d passes", name, counts, k)
				}
				if c == rules.Pass {
					passes++
				}
				return c
			}
			if pols[seat] == rules.PolicySafe {
				for i := 1; i < len(counts); i += 2 {
					if counts[i] > 0 {
						return rules.Safe
					}
				}
			}
			return rules.Daring
		}
		gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Pass: g.pass, Players: players})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, want := make([]int64, p), make([]int64, p)
		count := int64(0)
		everyDeal(g.faces, g.copies, func(deal []int) {
			if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: uint64(count)}, deal, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for s, sh := range gm.Outcome().Share {
				got[s] += int64(sh)
			}
			for s, sh := range refSeatsPassGame(deal, g.copies, p, choose) {
				want[s] += int64(sh)
			}
			count++
		})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the seats score %v (1/%d pairs) over %d deals in the engine, %v in the reference", name, got, p, count, want)
		}
		start, err := exact.StartCopiesState(pairs, g.copies)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.EvaluateCopies(ctx, field.Rat{}, model, exact.SeatLineup(pols...), start)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for s := range p {
			if m := big.NewRat(got[s], int64(p)*count); m.Cmp(res.PairsBySeat[s]) != 0 {
				t.Errorf("%s: seat %d scores %v pairs on average over every deal, the copies model %v", name, s, m, res.PairsBySeat[s])
			}
		}
	}
	if passes == 0 {
		t.Error("no table passed in any game")
	}
}

// TestEngineReadsCopiesTablesAtThePassStreak plays, at three seats under pass rule always, a
// table of the state of faces whose choice depends on the pass streak (pass after none or one
// pass in a row, daring after two), over every deal of two faces of four cards: no game ends in a
// stalemate, as one would if the engine read the choice after two passes at a smaller streak, and
// the seats score over the deals exactly as in the card-by-card reference reading the same table
// (which turns up the first unknown card where the engine may take another: the sums over every
// deal do not depend on which).
func TestEngineReadsCopiesTablesAtThePassStreak(t *testing.T) {
	const faces, copies, p = 2, 4, 3
	pairs := faces * copies / 2
	ct := rules.NewCopiesTable(copies)
	counts := make([]int, copies)
	var fill func(i, left int)
	fill = func(i, left int) {
		if i == copies {
			for k, c := range []rules.Choice{rules.Pass, rules.Pass, rules.Daring} {
				var err error
				if k == 0 {
					err = ct.Set(counts, c)
				} else {
					err = ct.SetAfterPasses(counts, k, c)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			return
		}
		for a := 0; a <= left; a++ {
			counts[i] = a
			fill(i+1, left-a)
		}
		counts[i] = 0
	}
	fill(0, faces)
	table, err := rules.NewCopiesChoiceTable(pairs, ct)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]sim.Player, p)
	for i := range players {
		players[i] = sim.Player{Name: fmt.Sprintf("streak-%d", i), Table: table}
	}
	v := rules.Variant{Copies: copies}
	gm, err := sim.NewGame(sim.Setup{Pairs: pairs, Variant: v, Pass: rules.PassAlways, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	choose := func(_ int, counts []int, k int) rules.Choice {
		c, ok := ct.LookupPassesKey(rules.AppendCopiesKey(nil, counts), k)
		if !ok {
			t.Fatalf("no choice in %v after %d passes", counts, k)
		}
		return c
	}
	got, want := make([]int64, p), make([]int64, p)
	count := uint64(0)
	everyDeal(faces, copies, func(deal []int) {
		if err := gm.PlayDeal(sim.GameID{Seed: 1, Index: count}, deal, nil); err != nil {
			t.Fatal(err)
		}
		out := gm.Outcome()
		taken := 0
		for _, x := range out.Pairs {
			taken += x
		}
		if taken != pairs {
			t.Fatalf("deal %v: %d pairs taken of %d: the game ended in a stalemate", deal, taken, pairs)
		}
		for s, sh := range out.Share {
			got[s] += int64(sh)
		}
		for s, sh := range refSeatsPassGame(deal, copies, p, choose) {
			want[s] += int64(sh)
		}
		count++
	})
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the seats score %v (1/%d pairs) over %d deals in the engine, %v in the reference", got, p, count, want)
	}
}
