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

// TestDecayLimitSeatsDistributionMatchesCardPlay plays deals of three pairs card by card at three
// seats under decay forgetting and a turn limit (q = 1/2 without a capacity, q = 1/4 with a
// capacity of 2; the card-level player of decayseatsdist_cardlevel_test.go, dsdPlayer, ending the
// game after the limit's turns with every seat keeping its pairs so far), under pass rules never
// and always (two-known too without -short), and compares every seat's whole distribution of the
// pairs it takes by the limit with SeatsScoreDistribution's: every seat for itself (its choices
// read from PolicyTable's layer of the turns left, at every pass streak), policies per seat and
// best-response at one seat, from the full deal and with cards known.
func TestDecayLimitSeatsDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	half := decayCase{card: cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 2)},
		mem: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}}
	quarter2 := decayCase{card: cardMemory{capacity: 2, forget: rules.ForgetDecay, q: big.NewRat(1, 4)},
		mem: rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.25}}
	quarter := decayCase{card: cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 4)},
		mem: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25}}
	type tcase struct {
		dc          decayCase
		n           int
		pass        rules.PassRule
		known       int
		seats       [][]rules.Policy
		replyTo     rules.Policy // the others' policy when a seat is best-response
		limits      []int
		needsStreak bool
	}
	// Four pairs, two known, q = 1/4 under pass rule always, limit 5: every seat for itself passes
	// with cards remembered, whose hand-over forgets some of them (at three pairs none does).
	cases := []tcase{
		{half, 3, rules.PassNever, 1, [][]rules.Policy{{o, o, o}, {s, b, s}}, s, []int{5}, false},
		{quarter2, 3, rules.PassAlways, 1, [][]rules.Policy{{o, o, o}, {o, o, b}}, o, []int{6}, true},
		{quarter, 4, rules.PassAlways, 2, [][]rules.Policy{{o, o, o}}, o, []int{5}, true},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{half, 3, rules.PassAlways, 1, [][]rules.Policy{{o, o, o}, {d, o, s}}, s, []int{2, 7}, true},
			tcase{quarter2, 3, rules.PassNever, 2, [][]rules.Policy{{o, o, o}, {o, s, d}, {d, d, b}}, d, []int{4, 9}, false},
			tcase{half, 3, rules.PassTwoKnown, 2, [][]rules.Policy{{o, o, o}, {b, s, s}}, s, []int{3, 8}, false},
			tcase{quarter, 4, rules.PassTwoKnown, 3, [][]rules.Policy{{o, o, o}, {o, o, b}}, o, []int{7}, false})
	}
	for _, tc := range cases {
		n := tc.n
		stalemate := false
		for _, limit := range tc.limits {
			m := exact.Model{Memory: tc.dc.mem, Pass: tc.pass, Variant: rules.Variant{TurnLimit: limit}}
			var dist *fsdPlayer
			pols := seatsPolicyChoosers(t, ctx, m, n, tc.replyTo, func(tab *rules.ChoiceTable, pol rules.Policy) fspChooser {
				return limitSeatsChooser(t, &dist, tc.pass, tab, pol, &stalemate)
			})
			start := rules.State{N: n, J: n - tc.known}
			for _, seats := range tc.seats {
				name := fmt.Sprintf("%s %s limit %d/%v/%v", tc.pass, tc.dc.mem, limit, seats, start)
				checkReplySeats(t, name, seats, tc.replyTo)
				w := 3*n + 1
				dist = &fsdPlayer{p: 3, w: w}
				pl := &dsdPlayer{m: tc.dc.card, p: 3, top: limit, dist: dist, limited: true,
					choose: []fspChooser{pols[seats[0]], pols[seats[1]], pols[seats[2]]}, memo: map[string]seatsDist{}}
				got := pl.value(newCardWorld(start, nil), 0, 0, limit)
				want, err := exact.SeatsScoreDistribution(ctx, field.Float{}, m, exact.SeatLineup(seats...), start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				compareSeatsCardPlay(t, name, got, want, w, limit, 0)
			}
		}
		if tc.needsStreak && !stalemate {
			t.Errorf("%s %s: no game ends in a stalemate: the check does not reach one", tc.pass, tc.dc.mem)
		}
	}
}

// TestDecayLimitSeatsDistributionIdentities checks every seat's distribution under decay
// forgetting and a turn limit against the lineup's values under the limit (each seat's mean its
// expected pairs, exact rationals), that each adds up to 1 with no negative probability, that
// float64 agrees and that the means add up to at most the pairs dealt, at three to five seats
// under every pass rule, with and without a capacity.
func TestDecayLimitSeatsDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		mem   rules.Memory
		pass  rules.PassRule
		limit int
		seats []rules.Policy
		st    rules.State
	}
	half := rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}
	quarter := rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25}
	fifth3 := rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.2}
	// q = 1/4 under pass rule always from (4, 2), limit 5: every seat for itself passes with cards
	// remembered, whose hand-over forgets some of them.
	cases := []tcase{
		{half, rules.PassNever, 6, []rules.Policy{o, s, b}, rules.State{N: 4, J: 3}},
		{quarter, rules.PassAlways, 5, []rules.Policy{o, o, o}, rules.State{N: 4, J: 2}},
		{fifth3, rules.PassAlways, 5, []rules.Policy{o, o, o, d}, rules.State{N: 3, J: 2}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{half, rules.PassAlways, 9, []rules.Policy{o, o, b, o}, rules.State{N: 4, J: 3}},
			tcase{fifth3, rules.PassTwoKnown, 8, []rules.Policy{o, o, o, o, o}, rules.State{N: 5, J: 5}},
			tcase{half, rules.PassTwoKnown, 7, []rules.Policy{d, b, d, d}, rules.State{N: 4, J: 3}})
	}
	for _, tc := range cases {
		m := exact.Model{Memory: tc.mem, Pass: tc.pass, Variant: rules.Variant{TurnLimit: tc.limit}}
		mu := exact.SeatLineup(tc.seats...)
		name := fmt.Sprintf("%s %s limit %d/%v/%v", tc.pass, tc.mem, tc.limit, tc.seats, tc.st)
		_, means := checkSeatsDistIdentities(t, ctx, name, m, mu, tc.st, len(tc.seats))
		if means.Cmp(big.NewRat(int64(tc.st.N), 1)) > 0 {
			t.Errorf("%s: the seats' means add up to %s, more than the %d pairs", name, means.RatString(), tc.st.N)
		}
	}
}
