package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// playPassCardGame plays a game of the deal card by card at r.players seats under pass rule pass,
// as playCardGame does (sequential flips, perfect memory, the first unknown card first, a pair
// remembered whole taken first in a turn of its own, the game stopping after r.limit turns with the
// pairs left counting for nobody), with passes: a pass flips nothing and hands the table to the
// next seat, and the p-th pass in a row ends the game with the pairs left shared equally. choose
// gives the mover's choice from the seat, the pass streak, the turns left (this one included; 0
// without a limit) and the count state. It returns every seat's pairs in p-ths of a pair.
func playPassCardGame(deal []int, r cardRules, choose func(seat, streak, left int, counts []int) rules.Choice) []int {
	g := &cardGame{face: deal, present: make([]bool, len(deal)), known: make([]bool, len(deal)), copies: r.copies}
	for i := range g.present {
		g.present[i] = true
	}
	p := r.players
	pairs := make([]int, p)
	seat, streak, turns := 0, 0, 0
	take := func(a, b int) {
		g.present[a], g.present[b] = false, false
		pairs[seat] += p
	}
	unknown := func(pos int) bool { return !g.known[pos] }
	partnerOf := func(a int) int {
		return g.find(func(b int) bool { return b != a && g.known[b] && g.face[b] == g.face[a] })
	}
	for g.find(func(int) bool { return true }) >= 0 && (r.limit == 0 || turns < r.limit) {
		turns++
		if a := g.find(func(a int) bool { return g.known[a] && partnerOf(a) >= 0 }); a >= 0 {
			take(a, partnerOf(a))
			streak = 0
			continue
		}
		left := 0
		if r.limit > 0 {
			left = r.limit - turns + 1
		}
		c := choose(seat, streak, left, g.counts())
		if c == rules.Pass {
			if streak == p-1 {
				onTable := 0
				for pos := range g.face {
					if g.present[pos] {
						onTable++
					}
				}
				for s := range pairs {
					pairs[s] += onTable / 2
				}
				return pairs
			}
			streak++
			seat = (seat + 1) % p
			continue
		}
		streak = 0
		var x, y int
		switch c {
		case rules.KnownFirst:
			x, y = mostCardsRemembered(g), g.find(unknown)
			g.known[y] = true
		default:
			x = g.find(unknown)
			g.known[x] = true
			if q := partnerOf(x); q >= 0 {
				take(x, q)
				continue
			}
			if c == rules.Safe && g.find(func(q int) bool { return q != x && g.known[q] }) >= 0 {
				seat = (seat + 1) % p
				continue
			}
			y = g.find(unknown)
			g.known[y] = true
		}
		if g.face[x] == g.face[y] {
			take(x, y)
			continue
		}
		seat = (seat + 1) % p
	}
	return pairs
}

// TestCopiesSeatsDistributionMatchesCardPlay plays every deal of small decks of four and six
// copies of a face card by card at three seats, under pass rules never, two-known and always,
// without and with a turn limit, and compares the share of the deals in which each seat takes
// each number of pairs (in thirds of a pair) with CopiesSeatsDistribution, exactly: every seat for
// itself, policies per seat and a best reply at one seat. The seats' choices are the solver's
// (seatChoice, seatChoiceAt: the choices its tables hold), read in the state of faces the cards
// show; the distribution comes from the cards alone.
func TestCopiesSeatsDistributionMatchesCardPlay(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		faces, copies int
		pass          rules.PassRule
		limit         int
		seats         []rules.Policy
	}
	cases := []tcase{
		{2, 4, rules.PassNever, 0, []rules.Policy{o, o, o}},
		{2, 4, rules.PassAlways, 0, []rules.Policy{o, o, o}},
		{2, 4, rules.PassTwoKnown, 3, []rules.Policy{b, s, s}},
		{2, 6, rules.PassNever, 4, []rules.Policy{d, o, s}},
		{2, 6, rules.PassAlways, 5, []rules.Policy{o, o, o}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{3, 4, rules.PassNever, 0, []rules.Policy{s, b, s}},
			tcase{3, 4, rules.PassAlways, 0, []rules.Policy{o, d, o}},
			tcase{3, 4, rules.PassTwoKnown, 6, []rules.Policy{o, o, o}},
			tcase{2, 6, rules.PassTwoKnown, 0, []rules.Policy{d, d, b}},
			tcase{3, 4, rules.PassNever, 7, []rules.Policy{o, o, o}})
	}
	stalemates := 0
	for _, tc := range cases {
		m := Model{Pass: tc.pass, Variant: rules.Variant{Copies: tc.copies, TurnLimit: tc.limit}}
		mu := SeatLineup(tc.seats...)
		if tc.seats[0] == o && tc.seats[1] == o && tc.seats[2] == o {
			mu = Lineup{Players: 3, Policy: o, Opponent: o}
		}
		name := fmt.Sprintf("%d faces of %d, %s, limit %d, %v", tc.faces, tc.copies, tc.pass, tc.limit, tc.seats)
		pairs := tc.faces * tc.copies / 2
		start, err := StartCopiesState(pairs, tc.copies)
		if err != nil {
			t.Fatal(err)
		}
		want, err := CopiesSeatsDistribution(ctx, f, m, mu, start)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sv, err := newCopiesSolver(ctx, f, m, mu)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sv.get(start.vec().key(), sv.limit); err != nil {
			t.Fatal(err)
		}
		choose := func(seat, streak, left int, counts []int) rules.Choice {
			c := sv.memo[copiesAt{copiesVec(counts).key(), left}]
			if c == nil {
				t.Fatalf("%s: no state %v with %d turns left", name, counts, left)
			}
			ch := sv.seatChoice(c, seat)
			if c.streak != nil {
				ch = sv.seatChoiceAt(c, seat, streak)
			}
			if ch == rules.Pass && streak == 2 {
				stalemates++
			}
			return ch
		}
		w := 3*pairs + 1
		count := int64(0)
		hist := make([]int64, 3*w)
		deals(tc.faces, tc.copies, func(deal []int) {
			ps := playPassCardGame(deal, cardRules{copies: tc.copies, players: 3, limit: tc.limit}, choose)
			for seat, x := range ps {
				hist[seat*w+x]++
			}
			count++
		})
		step := 3 / want.Unit
		for seat := range 3 {
			for i := range w {
				wp := new(big.Rat)
				if i%step == 0 {
					wp = want.Prob[seat][i/step]
				}
				if got := big.NewRat(hist[seat*w+i], count); got.Cmp(wp) != 0 {
					t.Errorf("%s: seat %d takes %d/3 pairs: cards %s, exact %s", name, seat, i, got.RatString(), wp.RatString())
				}
			}
		}
	}
	if stalemates == 0 {
		t.Error("no game ends in a stalemate: the check does not reach one")
	}
}

// TestCopiesSeatsDistributionIdentities checks every seat's distribution under copies of a face
// against the copies model's values (each seat's mean its expected pairs, exact rationals), that
// each adds up to 1 with no negative probability, that float64 agrees, and that two copies of a
// face give the standard game's distributions (SeatsScoreDistribution of the (n, j) model), at
// three and four seats, every pass rule, with and without a turn limit, under blind flips too.
func TestCopiesSeatsDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		copies, pairs int
		pass          rules.PassRule
		limit         int
		seats         []rules.Policy
		flips         rules.Flips
	}
	blind := rules.FlipsBlind
	cases := []tcase{
		{4, 6, rules.PassAlways, 0, []rules.Policy{o, o, o}, 0},
		{6, 6, rules.PassNever, 5, []rules.Policy{o, s, b}, 0},
		{4, 4, rules.PassTwoKnown, 4, []rules.Policy{o, o, d, s}, 0},
		{2, 4, rules.PassAlways, 0, []rules.Policy{o, o, o}, 0},
		{2, 4, rules.PassNever, 5, []rules.Policy{s, b, s}, 0},
		{2, 4, rules.PassNever, 0, []rules.Policy{o, o, o}, blind},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{4, 8, rules.PassTwoKnown, 0, []rules.Policy{b, d, d}, 0},
			tcase{2, 5, rules.PassTwoKnown, 6, []rules.Policy{o, o, o, o}, 0},
			tcase{2, 5, rules.PassNever, 0, []rules.Policy{o, d, o}, 0},
			tcase{2, 4, rules.PassAlways, 6, []rules.Policy{o, s, o}, blind})
	}
	for _, tc := range cases {
		m := Model{Pass: tc.pass, Variant: rules.Variant{Copies: tc.copies, TurnLimit: tc.limit, Flips: tc.flips}}
		mu := SeatLineup(tc.seats...)
		name := fmt.Sprintf("copies %d, %d pairs, %s, limit %d, %s, %v", tc.copies, tc.pairs, tc.pass, tc.limit, tc.flips, tc.seats)
		start, err := StartCopiesState(tc.pairs, tc.copies)
		if err != nil {
			t.Fatal(err)
		}
		rat, err := CopiesSeatsDistribution(ctx, field.Rat{}, m, mu, start)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fl, err := CopiesSeatsDistribution(ctx, field.Float{}, m, mu, start)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		vals, err := EvaluateCopies(ctx, field.Rat{}, m, mu, start)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for seat := range tc.seats {
			total := new(big.Rat)
			for i, p := range rat.Prob[seat] {
				if p.Sign() < 0 {
					t.Errorf("%s: seat %d: a negative probability %s", name, seat, p.RatString())
				}
				total.Add(total, p)
				if x, _ := p.Float64(); x-fl.Prob[seat][i] > 1e-12 || fl.Prob[seat][i]-x > 1e-12 {
					t.Errorf("%s: seat %d share %d/%d: float64 %.15f, exact %.15f", name, seat, i, rat.Unit, fl.Prob[seat][i], x)
				}
			}
			if total.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%s: seat %d: the probabilities add up to %s", name, seat, total.RatString())
			}
			if mean := rat.Mean(field.Rat{}, seat); mean.Cmp(vals.PairsBySeat[seat]) != 0 {
				t.Errorf("%s: seat %d: mean %s, expected pairs %s", name, seat, mean.RatString(), vals.PairsBySeat[seat].RatString())
			}
		}
		if tc.copies != rules.DefaultCopies {
			continue
		}
		std := m
		std.Variant.Copies = 0
		pairsGame, err := SeatsScoreDistribution(ctx, field.Rat{}, std, mu, rules.State{N: tc.pairs, J: tc.pairs})
		if err != nil {
			t.Fatalf("%s, the pairs game: %v", name, err)
		}
		for seat := range tc.seats {
			for i, p := range rat.Prob[seat] {
				if p.Cmp(pairsGame.Prob[seat][i]) != 0 {
					t.Errorf("%s: seat %d share %d/%d: copies %s, the pairs game %s", name, seat, i, rat.Unit, p.RatString(), pairsGame.Prob[seat][i].RatString())
				}
			}
		}
	}
}
