package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A check of every seat's score distribution at three seats under decay forgetting against play
// card by card: the tables of individual cards of cardlevel_test.go (cardWorld), a turn
// enumerated card by card (cardTurn) whose hand-over forgets every remembered card with
// probability q, card by card (decayHandOver), every seat's distribution of the pairs it takes
// summed over every card a flip can show and every subset of cards forgotten. A forgotten card can
// bring a table back, so the games are cut after a number of turns, their probability kept apart
// (seatsDist's last entry).

// dsdPlayer plays card by card at p seats under decay forgetting and any pass rule.
type dsdPlayer struct {
	m      cardMemory
	p, top int
	dist   *fsdPlayer // the distributions' layout (p, w) and their shifts
	choose []fspChooser
	memo   map[string]seatsDist
	// limited ends the game after top turns (a turn limit), the pairs left counting for nobody,
	// in place of counting it unfinished; a pair known whole that no turn is left for is not
	// taken. dist.left is the turns left (this one included) when a chooser is asked.
	limited bool
}

// gained returns v with g pairs more for seat t.
func (pl *dsdPlayer) gained(v seatsDist, t, g int) seatsDist {
	for range g {
		v = pl.dist.gain(v, t)
	}
	return v
}

// value is every seat's distribution of the pairs it takes from table g on, seat mover to move at
// pass streak streak, with at most depth turns played.
func (pl *dsdPlayer) value(g *cardWorld, mover, streak, depth int) seatsDist {
	n := pairsOn(g)
	if n == 0 {
		return pl.dist.over()
	}
	if depth == 0 && pl.limited {
		return pl.dist.over()
	}
	out := pl.dist.zero()
	if depth == 0 {
		out[pl.p*pl.dist.w] = 1
		return out
	}
	key := fmt.Sprint(worldKey(g), mover, streak, depth)
	if v, ok := pl.memo[key]; ok {
		return v
	}
	st, err := g.countState()
	if err != nil {
		panic(err)
	}
	next := (mover + 1) % pl.p
	pl.dist.left = depth
	ch := pl.choose[mover](st, 0, streak, depth == pl.top)
	switch {
	case ch == rules.Pass && streak == pl.p-1:
		// The stalemate: n/p pairs, n p-ths, to every seat.
		for s := range pl.p {
			out[s*pl.dist.w+n] = 1
		}
	case ch == rules.Pass:
		w0 := g.clone()
		w0.old = make([]bool, len(w0.present))
		for _, x := range w0.mem {
			w0.old[x] = true
		}
		decayHandOver(w0, pl.m, big.NewRat(1, 1), 0, func(pr *big.Rat, w2 *cardWorld, _ bool, _, ng int) {
			q, _ := pr.Float64()
			g, rest := pl.within(ng, depth)
			out.add(q, pl.gained(pl.value(w2, next, streak+1, rest), next, g))
		})
	default:
		cardTurn(g, pl.m, ch, pickOldest, func(pr *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
			q, _ := pr.Float64()
			if cont {
				out.add(q, pl.gained(pl.value(w2, mover, 0, depth-1), mover, mg))
				return
			}
			g, rest := pl.within(ng, depth)
			out.add(q, pl.gained(pl.gained(pl.value(w2, next, 0, rest), next, g), mover, mg))
		})
	}
	pl.memo[key] = out
	return out
}

// within returns the pairs known whole, of ng, that the next seat takes first after a turn played
// with depth turns left, and the turns left after them: under a limit each takes a turn of its
// own and those the limit leaves no turn for are not taken; otherwise all of them, with the turn
// count cut one turn further.
func (pl *dsdPlayer) within(ng, depth int) (gain, rest int) {
	if pl.limited {
		g := min(ng, depth-1)
		return g, depth - 1 - g
	}
	return ng, depth - 1
}

// TestDecaySeatsDistributionMatchesCardPlay plays deals of three pairs card by card at three seats
// under decay forgetting (q = 1/2 without a capacity, q = 1/4 with a capacity of 2), under pass
// rules never and always (two-known too without -short), and compares every seat's whole
// distribution of its pairs with SeatsScoreDistribution's: every seat for itself (its choices read
// from PolicyTable, at every pass streak), policies per seat and best-response at one seat (its
// choices read from the reply's PolicyTable), from the full deal and with cards known.
func TestDecaySeatsDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	half := decayCase{card: cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 2)},
		mem: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}}
	quarter2 := decayCase{card: cardMemory{capacity: 2, forget: rules.ForgetDecay, q: big.NewRat(1, 4)},
		mem: rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.25}}
	type tcase struct {
		dc          decayCase
		pass        rules.PassRule
		known       int
		seats       [][]rules.Policy
		replyTo     rules.Policy // the others' policy when a seat is best-response
		needsStreak bool
	}
	const n, depth = 3, 24
	cases := []tcase{
		{half, rules.PassNever, 1, [][]rules.Policy{{s, b, s}}, s, false},
		{quarter2, rules.PassAlways, 1, [][]rules.Policy{{o, o, o}}, s, true},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{half, rules.PassNever, 1, [][]rules.Policy{{o, o, o}}, s, false},
			tcase{quarter2, rules.PassAlways, 1, [][]rules.Policy{{d, o, s}}, s, false},
			tcase{quarter2, rules.PassNever, 2, [][]rules.Policy{{o, o, o}, {o, s, d}, {d, d, b}}, d, false},
			tcase{half, rules.PassAlways, 1, [][]rules.Policy{{o, o, o}, {o, o, b}}, o, true},
			tcase{half, rules.PassTwoKnown, 2, [][]rules.Policy{{o, o, o}, {b, s, s}}, s, false})
	}
	for _, tc := range cases {
		m := exact.Model{Memory: tc.dc.mem, Pass: tc.pass}
		stalemate := false
		pols := seatsPolicyChoosers(t, ctx, m, n, tc.replyTo, func(tab *rules.ChoiceTable, pol rules.Policy) fspChooser {
			return seatsChooser(t, tc.pass, tab, pol, &stalemate)
		})
		start := rules.State{N: n, J: n - tc.known}
		for _, seats := range tc.seats {
			name := fmt.Sprintf("%s %s/%v/%v", tc.pass, tc.dc.mem, seats, start)
			checkReplySeats(t, name, seats, tc.replyTo)
			w := 3*n + 1
			pl := &dsdPlayer{m: tc.dc.card, p: 3, top: depth, dist: &fsdPlayer{p: 3, w: w},
				choose: []fspChooser{pols[seats[0]], pols[seats[1]], pols[seats[2]]}, memo: map[string]seatsDist{}}
			got := pl.value(newCardWorld(start, nil), 0, 0, depth)
			want, err := exact.SeatsScoreDistribution(ctx, field.Float{}, m, exact.SeatLineup(seats...), start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			compareSeatsCardPlay(t, name, got, want, w, depth, 1e-3)
		}
		if tc.needsStreak && !stalemate {
			t.Errorf("%s %s: no game ends in a stalemate: the check does not reach one", tc.pass, tc.dc.mem)
		}
	}
}

// TestDecaySeatsDistributionIdentities checks every seat's distribution under decay forgetting
// against the lineup's values (each seat's mean its expected pairs, exact rationals), that each
// adds up to 1 with no negative probability, and that float64 agrees, at three to five seats under
// every pass rule, with and without a capacity.
func TestDecaySeatsDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		mem   rules.Memory
		pass  rules.PassRule
		seats []rules.Policy
		st    rules.State
	}
	half := rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}
	fifth3 := rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.2}
	cases := []tcase{
		{half, rules.PassNever, []rules.Policy{o, s, b}, rules.State{N: 4, J: 3}},
		{fifth3, rules.PassTwoKnown, []rules.Policy{o, o, o, d}, rules.State{N: 3, J: 2}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{half, rules.PassAlways, []rules.Policy{o, o, b, o}, rules.State{N: 4, J: 3}},
			tcase{half, rules.PassAlways, []rules.Policy{o, o, o}, rules.State{N: 5, J: 4}},
			tcase{fifth3, rules.PassNever, []rules.Policy{o, o, o, o, o}, rules.State{N: 5, J: 5}},
			tcase{half, rules.PassTwoKnown, []rules.Policy{d, b, d, d}, rules.State{N: 4, J: 3}})
	}
	for _, tc := range cases {
		m := exact.Model{Memory: tc.mem, Pass: tc.pass}
		mu := exact.SeatLineup(tc.seats...)
		name := fmt.Sprintf("%s %s/%v/%v", tc.pass, tc.mem, tc.seats, tc.st)
		checkSeatsDistIdentities(t, ctx, name, m, mu, tc.st, len(tc.seats))
	}
}
