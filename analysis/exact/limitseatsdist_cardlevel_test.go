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

// A check of every seat's score distribution at three seats under a turn limit against play card
// by card: the card-level player of fluctseatsdist_cardlevel_test.go (fsdPlayer) with no
// fluctuation, ending the game after the limit's turns with every seat keeping its pairs so far,
// the tables' choices read in the layer of the turns left.

// limitSeatsChooser returns the choices of a seat that follows the turn-limit table tab in the
// layer of pl's turns left (at the pass streak under a pass rule), or plays the fixed policy pol
// when tab is nil; it notes a stalemate.
func limitSeatsChooser(t *testing.T, pl **fsdPlayer, pass rules.PassRule, tab *rules.ChoiceTable, pol rules.Policy, stalemate *bool) fspChooser {
	if tab == nil {
		return fspFixed(pol)
	}
	return streakChooser(t, pass, stalemate, func(st rules.State, streak int) (rules.Choice, bool, string) {
		left := (*pl).left
		where := fmt.Sprintf(" with %d turns left", left)
		if pass == rules.PassNever {
			ch, ok := tab.LookupTurnsLeft(st, false, left)
			return ch, ok, where
		}
		ch, ok := tab.LookupTurnsLeftPasses(st, streak, left)
		return ch, ok, where
	})
}

// TestLimitSeatsDistributionMatchesCardPlay plays deals of three pairs card by card at three
// seats under turn limits, with perfect memory and limited memory of capacity 2 (lru,
// handover-uniform), under pass rules never and always (and two-known without -short), and
// compares every seat's whole distribution of the pairs it takes by the limit with
// SeatsScoreDistribution's: every seat for itself (its choices read from PolicyTable's layer of
// the turns left, at every pass streak), policies per seat and best-response at one seat (its
// choices read from the reply's PolicyTable), from the full deal and with cards known.
func TestLimitSeatsDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		mem         rules.Memory
		pass        rules.PassRule
		known       []int
		seats       [][]rules.Policy
		replyTo     rules.Policy // the others' policy when a seat is best-response
		limits      []int
		needsStreak bool
	}
	const n = 3
	perfect := rules.Memory{}
	lru := rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
	hu := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}
	cases := []tcase{
		{perfect, rules.PassNever, nil, [][]rules.Policy{{o, o, o}, {s, b, s}}, s, []int{3, 6}, false},
		{perfect, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {d, o, s}}, s, []int{2, 7}, true},
		{lru, rules.PassNever, []int{0, 2}, [][]rules.Policy{{o, o, o}, {o, s, d}}, s, []int{4}, false},
		{hu, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {o, o, b}}, o, []int{5}, true},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{perfect, rules.PassTwoKnown, []int{0, 2}, [][]rules.Policy{{o, o, o}, {b, d, d}}, d, []int{1, 4, 9}, false},
			tcase{lru, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {s, d, o}, {d, b, d}}, d, []int{3, 8}, true},
			tcase{hu, rules.PassNever, nil, [][]rules.Policy{{o, o, o}, {s, s, b}}, s, []int{2, 6}, false},
			tcase{rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}, rules.PassTwoKnown, []int{0, 2}, [][]rules.Policy{{o, o, o}, {d, s, o}}, s, []int{7}, false})
	}
	for _, tc := range cases {
		stalemate := false
		for _, limit := range tc.limits {
			m := exact.Model{Memory: tc.mem, Pass: tc.pass, Variant: rules.Variant{TurnLimit: limit}}
			opt, err := exact.PolicyTable(ctx, field.Float{}, m, exact.Lineup{Players: 3, Policy: o, Opponent: o}, n)
			if err != nil {
				t.Fatal(err)
			}
			reply, err := exact.PolicyTable(ctx, field.Float{}, m, exact.Lineup{Players: 3, Policy: b, Opponent: tc.replyTo}, n)
			if err != nil {
				t.Fatal(err)
			}
			var pl *fsdPlayer
			pols := map[rules.Policy]fspChooser{
				o: limitSeatsChooser(t, &pl, tc.pass, opt, o, &stalemate),
				s: limitSeatsChooser(t, &pl, tc.pass, nil, s, &stalemate),
				d: limitSeatsChooser(t, &pl, tc.pass, nil, d, &stalemate),
				b: limitSeatsChooser(t, &pl, tc.pass, reply, b, &stalemate),
			}
			cardLRU, capacity := cardLevelMemory(tc.mem, n)
			start := rules.State{N: n, J: n - len(tc.known)}
			for _, seats := range tc.seats {
				name := fmt.Sprintf("%s %s limit %d/%v/%v", tc.pass, tc.mem, limit, seats, start)
				checkReplySeats(t, name, seats, tc.replyTo)
				w := 3*n + 1
				pl = &fsdPlayer{lru: cardLRU, m: capacity, sigma: 0, p: 3, top: limit, w: w, limited: true,
					choose: []fspChooser{pols[seats[0]], pols[seats[1]], pols[seats[2]]}, memo: map[string]seatsDist{}}
				got := pl.value(newFlDeal(n, tc.known), 0, 0, limit)
				want, err := exact.SeatsScoreDistribution(ctx, field.Float{}, m, exact.SeatLineup(seats...), start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				compareSeatsCardPlay(t, name, got, want, w, limit, 0)
			}
		}
		if tc.needsStreak && !stalemate {
			t.Errorf("%s %s: no game ends in a stalemate: the check does not reach one", tc.pass, tc.mem)
		}
	}
}

// TestLimitSeatsDistributionIdentities checks every seat's distribution under a turn limit
// against the lineup's values under the limit (each seat's mean its expected pairs, exact
// rationals), that each adds up to 1 with no negative probability, that float64 agrees, that the
// means add up to at most the pairs dealt, and, with perfect memory, that a limit beyond the
// longest game (2·3n + p turns: every turn but a pass takes a pair or turns up a card never seen,
// and p passes in a row end the game) gives the distributions without a limit, at three to five
// seats under every pass rule, singletons and blind flips included.
func TestLimitSeatsDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		m     exact.Model
		seats []rules.Policy
		st    rules.State
	}
	lru := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}
	hu := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}
	limit := func(t int) rules.Variant { return rules.Variant{TurnLimit: t} }
	cases := []tcase{
		{exact.Model{Pass: rules.PassAlways, Variant: limit(6)}, []rules.Policy{o, o, o}, rules.State{N: 4, J: 4}},
		{exact.Model{Memory: lru, Variant: limit(7)}, []rules.Policy{o, s, b}, rules.State{N: 5, J: 4}},
		{exact.Model{Memory: hu, Pass: rules.PassTwoKnown, Variant: limit(5)}, []rules.Policy{o, o, o, d}, rules.State{N: 4, J: 3}},
		{exact.Model{Pass: rules.PassTwoKnown, Variant: limit(21)}, []rules.Policy{o, b, o}, rules.State{N: 3, J: 3}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{exact.Model{Pass: rules.PassAlways, Singletons: 1, Variant: limit(9)}, []rules.Policy{o, o, o}, rules.State{N: 5, J: 5, S: 1, F: 1}},
			tcase{exact.Model{Memory: lru, Pass: rules.PassAlways, Variant: limit(11)}, []rules.Policy{o, o, o, o, o}, rules.State{N: 6, J: 6}},
			tcase{exact.Model{Variant: limit(45)}, []rules.Policy{d, s, b, o}, rules.State{N: 7, J: 7}},
			tcase{exact.Model{Pass: rules.PassTwoKnown, Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 10}}, []rules.Policy{o, o, s}, rules.State{N: 6, J: 6}})
	}
	for _, tc := range cases {
		mu := exact.SeatLineup(tc.seats...)
		name := fmt.Sprintf("%s %s S=%d limit %d/%v/%v", tc.m.Pass, tc.m.Memory, tc.m.Singletons, tc.m.Variant.TurnLimit, tc.seats, tc.st)
		rat, means := checkSeatsDistIdentities(t, ctx, name, tc.m, mu, tc.st, len(tc.seats))
		if means.Cmp(big.NewRat(int64(tc.st.N), 1)) > 0 {
			t.Errorf("%s: the seats' means add up to %s, more than the %d pairs", name, means.RatString(), tc.st.N)
		}
		if !tc.m.Memory.Perfect() || tc.m.Variant.TurnLimit < 2*(3*tc.st.N+tc.st.S)+len(tc.seats) {
			continue
		}
		free := tc.m
		free.Variant.TurnLimit = 0
		whole, err := exact.SeatsScoreDistribution(ctx, field.Rat{}, free, mu, tc.st)
		if err != nil {
			t.Fatalf("%s, no limit: %v", name, err)
		}
		for seat := range tc.seats {
			if got, want := ratsString(rat.Prob[seat]), ratsString(whole.Prob[seat]); got != want {
				t.Errorf("%s: seat %d: limit %d %s, no limit %s", name, seat, tc.m.Variant.TurnLimit, got, want)
			}
		}
	}
}
