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

// fsdLimitChooser returns the chooser that reads tab at the capacity drawn, the turns left of the
// card-level player's turn (pl.left) and the pass streak, failing the test where it holds no legal
// choice; it notes a pass at streak 2 (a stalemate at three seats) in stalemate.
func fsdLimitChooser(t *testing.T, name string, pass rules.PassRule, tab *rules.ChoiceTable, pl **fsdPlayer, stalemate *bool) fspChooser {
	return func(st rules.State, c, streak int, _ bool) rules.Choice {
		ch, ok := tab.LookupCapacityTurnsLeftPasses(st, streak, c, (*pl).left)
		if !ok || !rules.Legal(st, ch, pass) {
			t.Fatalf("%s: no legal choice in %v with capacity %d, %d turns left, streak %d (%v, %t)", name, st, c, (*pl).left, streak, ch, ok)
		}
		if ch == rules.Pass && streak == 2 {
			*stalemate = true
		}
		return ch
	}
}

// TestFluctLimitSeatsDistributionMatchesCardPlay plays deals of three pairs card by card at three
// seats under a fluctuating capacity (every capacity drawn at every turn) cut after the turn limit
// (the pairs left counting for nobody; the card-level player of fluctseatsdist_cardlevel_test.go,
// fsdPlayer), under pass rules never and always (two-known too without -short), and compares
// every seat's whole distribution of the pairs it takes by the limit with SeatsScoreDistribution's:
// every seat for itself (its choices read from FluctLimitSeatsTables by capacity, turns left and
// streak), policies per seat and best-response at seat 0 (read from its own table).
func TestFluctLimitSeatsDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		forget      rules.Forgetting
		m, sigma    int
		pass        rules.PassRule
		known       []int
		seats       [][]rules.Policy
		limits      []int
		needsStreak bool
	}
	const n = 3
	cases := []tcase{
		{rules.ForgetLRU, 2, 1, rules.PassNever, []int{0, 2}, [][]rules.Policy{{o, o, o}, {b, s, d}}, []int{5}, false},
		{rules.ForgetHandoverUniform, 2, 1, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {d, o, s}}, []int{4}, true},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{rules.ForgetHandoverUniform, 2, 1, rules.PassNever, nil, [][]rules.Policy{{o, o, o}, {b, d, d}}, []int{2, 6}, false},
			tcase{rules.ForgetLRU, 2, 1, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {o, s, d}, {b, o, o}}, []int{3, 7}, true},
			tcase{rules.ForgetLRU, 3, 2, rules.PassTwoKnown, []int{0, 2}, [][]rules.Policy{{o, o, o}, {d, s, o}}, []int{4, 8}, false})
	}
	for _, tc := range cases {
		stalemate := false
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		for _, limit := range tc.limits {
			m := exact.Model{Memory: mem, Pass: tc.pass, Variant: rules.Variant{TurnLimit: limit}}
			start := rules.State{N: n, J: n - len(tc.known)}
			for _, seats := range tc.seats {
				name := fmt.Sprintf("%s %s limit %d/%v/%v", tc.pass, mem, limit, seats, start)
				var pl *fsdPlayer
				opt := fsdLimitChooser(t, name, tc.pass, flSeatsLimitTable(t, m, exact.SeatLineup(o, o, o), n), &pl, &stalemate)
				pols := map[rules.Policy]fspChooser{o: opt, s: fspFixed(s), d: fspFixed(d)}
				if seats[0] == b {
					pols[b] = fsdLimitChooser(t, name, tc.pass, flSeatsLimitTable(t, m, exact.SeatLineup(seats...), n), &pl, &stalemate)
				}
				w := 3*n + 1
				pl = &fsdPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, p: 3, top: limit, w: w, limited: true,
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
			t.Errorf("%s %s: no game ends in a stalemate: the check does not reach one", tc.pass, mem)
		}
	}
}

// TestFluctLimitSeatsDistributionIdentities checks every seat's distribution under a fluctuating
// capacity and a turn limit against the lineup's values under the limit (each seat's mean its
// expected pairs, exact rationals), that each adds up to 1 with no negative probability, that
// float64 agrees and that the means add up to at most the pairs dealt, at three to five seats
// under every pass rule; and that with a capacity that never binds (m - σ >= n + 1) a limit no
// game reaches (3n turns that take a pair or turn up a card never seen, at most p - 1 passes in a
// row between them) gives the distributions without a limit, exactly.
func TestFluctLimitSeatsDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		mem   rules.Memory
		pass  rules.PassRule
		limit int
		seats []rules.Policy
		st    rules.State
	}
	lru31 := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}
	hu21 := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}
	cases := []tcase{
		{lru31, rules.PassNever, 6, []rules.Policy{o, s, b}, rules.State{N: 4, J: 3}},
		{hu21, rules.PassAlways, 5, []rules.Policy{o, o, o, d}, rules.State{N: 3, J: 2}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{lru31, rules.PassTwoKnown, 9, []rules.Policy{o, o, b, o}, rules.State{N: 4, J: 3}},
			tcase{hu21, rules.PassNever, 8, []rules.Policy{o, o, o, o, o}, rules.State{N: 5, J: 5}})
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
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
		const n, p = 2, 3
		free := exact.Model{Memory: rules.Memory{Capacity: n + 2, Forget: rules.ForgetLRU, Fluctuation: 1}, Pass: pass}
		limited := free
		limited.Variant.TurnLimit = 3*n*p + p + 1
		mu, st := exact.SeatLineup(o, s, o), rules.State{N: n, J: n - 1}
		want, err := exact.SeatsScoreDistribution(ctx, field.Rat{}, free, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		got, err := exact.SeatsScoreDistribution(ctx, field.Rat{}, limited, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		for seat := range p {
			if g, w := ratsString(got.Prob[seat]), ratsString(want.Prob[seat]); g != w {
				t.Errorf("%s, seat %d: limit %d %s, no limit %s", pass, seat, limited.Variant.TurnLimit, g, w)
			}
		}
	}
}
