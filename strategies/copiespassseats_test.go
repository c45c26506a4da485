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
		choose := func(m copiesMove) rules.Choice {
			tab := tables[m.seat]
			if tab == nil {
				return safeOrDaring(pols[m.seat], m.counts)
			}
			c, ok := tab.LookupPassesKey(rules.AppendCopiesKey(nil, m.counts), m.passes)
			if !ok {
				t.Fatalf("%s: the model's table has no choice in %v after %d passes", name, m.counts, m.passes)
			}
			if c == rules.Pass {
				passes++
			}
			return c
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
			for s, sh := range refCopiesGame(deal, copiesRef{copies: g.copies, seats: p}, choose).share {
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
	copiesStates(faces, copies, func(counts []int) {
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
	})
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
	choose := func(m copiesMove) rules.Choice {
		c, ok := ct.LookupPassesKey(rules.AppendCopiesKey(nil, m.counts), m.passes)
		if !ok {
			t.Fatalf("no choice in %v after %d passes", m.counts, m.passes)
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
		for s, sh := range refCopiesGame(deal, copiesRef{copies: copies, seats: p}, choose).share {
			want[s] += int64(sh)
		}
		count++
	})
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the seats score %v (1/%d pairs) over %d deals in the engine, %v in the reference", got, p, count, want)
	}
}
