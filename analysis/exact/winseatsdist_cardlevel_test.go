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

// A check of every seat's score distribution at three seats for lineups that play to win against
// play card by card over every deal: every card has an identity (pair i owns cards 2i and 2i+1,
// singleton k is card 2n+k), a flip of a card nobody remembers shows each such card with equal
// probability, and every seat takes the choice its table gives (PolicyTable of the lineup seen from
// the seat) in the count state it sees, read by every seat's pairs so far and the pass streak, as
// the engine reads it. The play gives the joint distribution of the seats' final pairs, and so
// every whole distribution, without the count states' outcomes.

// winSeatsPlay is the card-level play of one deal size at perfect memory.
type winSeatsPlay struct {
	t             *testing.T
	n, s, players int
	pass          rules.PassRule
	tabs          []*rules.ChoiceTable
	memo          map[string]map[string]*big.Rat
	stalemate     bool
}

// finals returns the distribution of the final pairs (in thirds of a pair, by absolute seat, as a
// string key) from the position: cards present and remembered as bit masks, each seat's pairs so
// far, the mover, the pass streak.
func (w *winSeatsPlay) finals(present, known uint, pairs []int, mover, streak int) map[string]*big.Rat {
	key := fmt.Sprint(present, known, pairs, mover, streak)
	if v, ok := w.memo[key]; ok {
		return v
	}
	v := w.play(present, known, pairs, mover, streak)
	w.memo[key] = v
	return v
}

func (w *winSeatsPlay) play(present, known uint, pairs []int, mover, streak int) map[string]*big.Rat {
	cards := 2*w.n + w.s
	has := func(m uint, c int) bool { return m&(1<<c) != 0 }
	partner := func(c int) int {
		if c < 2*w.n {
			return c ^ 1
		}
		return -1
	}
	left := 0
	for c := 0; c < 2*w.n; c += 2 {
		if !has(present, c) {
			continue
		}
		left++
		if has(known, c) && has(known, c+1) {
			// A pair both of whose cards are remembered: the mover takes it first.
			return w.finals(present&^(3<<c), known&^(3<<c), with(pairs, mover, 1), mover, 0)
		}
	}
	end := func(share int) map[string]*big.Rat {
		fin := make([]int, w.players)
		for s := range fin {
			fin[s] = 3*pairs[s] + share
		}
		return map[string]*big.Rat{fmt.Sprint(fin): big.NewRat(1, 1)}
	}
	if left == 0 {
		return end(0)
	}
	var unknown, knownCards []int
	st := rules.State{N: left, S: w.s}
	for c := range cards {
		if !has(present, c) {
			continue
		}
		if has(known, c) {
			knownCards = append(knownCards, c)
			continue
		}
		unknown = append(unknown, c)
		if c >= 2*w.n {
			st.F++
		} else if c%2 == 0 && !has(known, c+1) {
			st.J++
		}
	}
	rel := make([]int, w.players)
	for i := range rel {
		rel[i] = pairs[(mover+i)%w.players]
	}
	var ch rules.Choice
	var ok bool
	tab := w.tabs[mover]
	switch {
	case tab.Standings() != nil && w.pass == rules.PassNever:
		ch, ok = tab.Standings().Lookup(st, rel)
	case tab.Standings() != nil:
		ch, ok = tab.Standings().LookupPasses(st, rel, streak)
	case w.pass == rules.PassNever:
		ch, ok = tab.Lookup(st, false)
	default:
		ch, ok = tab.LookupPasses(st, streak)
	}
	if !ok || !rules.Legal(st, ch, w.pass) {
		w.t.Fatalf("seat %d: no legal choice in %v at standings %v, streak %d (%v)", mover, st, rel, streak, ch)
	}
	next := (mover + 1) % w.players
	acc := map[string]*big.Rat{}
	add := func(p *big.Rat, v map[string]*big.Rat) {
		for k, x := range v {
			if acc[k] == nil {
				acc[k] = new(big.Rat)
			}
			acc[k].Add(acc[k], new(big.Rat).Mul(p, x))
		}
	}
	if ch == rules.Pass {
		if streak == w.players-1 {
			w.stalemate = true
			return end(left)
		}
		return w.finals(present, known, pairs, next, streak+1)
	}
	// second flips a card nobody remembers other than skip, after first (face up, now
	// remembered): a pair with first continues the turn, anything else hands it over.
	second := func(p *big.Rat, first, skip int, kn uint) {
		var rest []int
		for _, c := range unknown {
			if c != skip {
				rest = append(rest, c)
			}
		}
		q := new(big.Rat).Mul(p, big.NewRat(1, int64(len(rest))))
		for _, b := range rest {
			if b == partner(first) {
				add(q, w.finals(present&^(1<<b|1<<first), kn&^(1<<b|1<<first), with(pairs, mover, 1), mover, 0))
				continue
			}
			add(q, w.finals(present, kn|1<<b, pairs, next, 0))
		}
	}
	if ch == rules.KnownFirst {
		first := knownCards[0]
		for _, c := range knownCards {
			if partner(c) >= 0 {
				first = c
				break
			}
		}
		second(big.NewRat(1, 1), first, -1, known)
		return acc
	}
	p := big.NewRat(1, int64(len(unknown)))
	for _, a := range unknown {
		pa := partner(a)
		switch {
		case pa >= 0 && has(known, pa):
			add(p, w.finals(present&^(1<<a|1<<pa), known&^(1<<a|1<<pa), with(pairs, mover, 1), mover, 0))
		case len(knownCards) > 0 && (pa < 0 || ch == rules.Safe):
			add(p, w.finals(present, known|1<<a, pairs, next, 0))
		default:
			second(p, a, a, known|1<<a)
		}
	}
	return acc
}

// TestWinSeatsDistributionMatchesCardPlay plays every deal of three pairs (four without -short) at
// three seats card by card, each seat following its table by the standings, and compares every
// seat's whole distribution of its pairs with SeatsScoreDistribution's in exact rationals: every
// seat win-optimal, win-optimal beside fixed policies and optimal, win-best-response at one seat,
// under pass rules never and always (a stalemate reached), a singleton too.
func TestWinSeatsDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	W, B, O, S, D := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	type tcase struct {
		n, s      int
		pass      rules.PassRule
		seats     []rules.Policy
		stalemate bool
	}
	cases := []tcase{
		{3, 0, rules.PassNever, []rules.Policy{W, W, W}, false},
		{3, 0, rules.PassAlways, []rules.Policy{W, W, W}, true},
		{3, 0, rules.PassNever, []rules.Policy{S, B, S}, false},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{4, 0, rules.PassNever, []rules.Policy{W, O, D}, false},
			tcase{4, 0, rules.PassAlways, []rules.Policy{W, S, W}, false},
			tcase{3, 1, rules.PassNever, []rules.Policy{D, W, W}, false},
			tcase{4, 0, rules.PassTwoKnown, []rules.Policy{D, D, B}, false})
	}
	for _, tc := range cases {
		m := exact.Model{Pass: tc.pass, Singletons: tc.s}
		mu := exact.SeatLineup(tc.seats...)
		name := fmt.Sprintf("n=%d S=%d %s/%v", tc.n, tc.s, tc.pass, tc.seats)
		w := &winSeatsPlay{t: t, n: tc.n, s: tc.s, players: 3, pass: tc.pass, memo: map[string]map[string]*big.Rat{}}
		for k := range 3 {
			tab, err := exact.PolicyTable(ctx, field.Rat{}, m, exact.RotateSeats(mu, k), tc.n)
			if err != nil {
				t.Fatalf("%s: seat %d: %v", name, k, err)
			}
			w.tabs = append(w.tabs, tab)
		}
		joint := w.finals(1<<(2*tc.n+tc.s)-1, 0, []int{0, 0, 0}, 0, 0)
		want, err := exact.SeatsScoreDistribution(ctx, field.Rat{}, m, mu, rules.State{N: tc.n, J: tc.n, S: tc.s, F: tc.s})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := make([][]*big.Rat, 3)
		for s := range got {
			got[s] = make([]*big.Rat, 3*tc.n+1)
			for i := range got[s] {
				got[s][i] = new(big.Rat)
			}
		}
		for k, pr := range joint {
			var fin [3]int
			if _, err := fmt.Sscanf(k, "[%d %d %d]", &fin[0], &fin[1], &fin[2]); err != nil {
				t.Fatal(err)
			}
			for s := range 3 {
				got[s][fin[s]].Add(got[s][fin[s]], pr)
			}
		}
		step := 3 / want.Unit
		for s := range 3 {
			for i := range got[s] {
				wp := new(big.Rat)
				if i%step == 0 {
					wp = want.Prob[s][i/step]
				}
				if got[s][i].Cmp(wp) != 0 {
					t.Errorf("%s: seat %d takes %d/3 pairs: card play %s, exact %s", name, s, i, got[s][i].RatString(), wp.RatString())
				}
			}
		}
		if tc.stalemate != w.stalemate {
			t.Errorf("%s: a stalemate reached %v, the check expects %v", name, w.stalemate, tc.stalemate)
		}
	}
}
