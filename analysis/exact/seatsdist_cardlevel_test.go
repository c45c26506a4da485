package exact_test

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A check of every seat's score distribution at three seats without a fluctuating capacity
// (perfect memory, lru and handover-uniform of a fixed capacity) against play card by card: the
// card-level player of fluctseatsdist_cardlevel_test.go (fsdPlayer) with no fluctuation (σ = 0,
// every turn's capacity the base one), and for perfect memory lru with room for every card of the
// deal, so that nothing is ever forgotten.

// seatsChooser returns the choices of a seat that follows tab (read at the pass streak under a
// pass rule) or plays the fixed policy pol when tab is nil.
func seatsChooser(t *testing.T, pass rules.PassRule, tab *rules.ChoiceTable, pol rules.Policy, stalemate *bool) fspChooser {
	if tab == nil {
		return fspFixed(pol)
	}
	return streakChooser(t, pass, stalemate, func(st rules.State, streak int) (rules.Choice, bool, string) {
		if pass == rules.PassNever {
			ch, ok := tab.Lookup(st, false)
			return ch, ok, ""
		}
		ch, ok := tab.LookupPasses(st, streak)
		return ch, ok, ""
	})
}

// streakChooser returns the choices lookup gives at the pass streak, failing the test where it
// gives none or an illegal one under pass (where says which layer was read), and notes in
// stalemate a pass at streak 2, which ends a game of three seats.
func streakChooser(t *testing.T, pass rules.PassRule, stalemate *bool, lookup func(st rules.State, streak int) (rules.Choice, bool, string)) fspChooser {
	return func(st rules.State, _, streak int, _ bool) rules.Choice {
		ch, ok, where := lookup(st, streak)
		if !ok || !rules.Legal(st, ch, pass) {
			t.Fatalf("%s: no legal choice in %v at streak %d%s (%v)", pass, st, streak, where, ch)
		}
		if ch == rules.Pass && streak == 2 {
			*stalemate = true
		}
		return ch
	}
}

// TestSeatsDistributionMatchesCardPlay plays deals of three pairs card by card at three seats,
// with perfect memory and limited memory of capacity 2 (lru, handover-uniform), under pass rules
// never and always (and two-known without -short), and compares every seat's whole distribution
// of its pairs with SeatsScoreDistribution's: every seat for itself (its choices read from
// PolicyTable, at every pass streak), policies per seat and best-response at one seat (its choices
// read from the reply's PolicyTable), from the full deal and with cards known.
func TestSeatsDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		mem         rules.Memory
		pass        rules.PassRule
		known       []int
		seats       [][]rules.Policy
		replyTo     rules.Policy // the others' policy when a seat is best-response
		needsStreak bool
	}
	const n, depth = 3, 14
	perfect := rules.Memory{}
	lru := rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
	hu := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}
	cases := []tcase{
		{perfect, rules.PassNever, nil, [][]rules.Policy{{o, o, o}, {s, b, s}}, s, false},
		{perfect, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {d, o, s}}, s, true},
		{lru, rules.PassNever, []int{0, 2}, [][]rules.Policy{{o, o, o}, {o, s, d}}, s, false},
		{hu, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {o, o, b}}, o, true},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{perfect, rules.PassTwoKnown, []int{0, 2}, [][]rules.Policy{{o, o, o}, {b, d, d}}, d, false},
			tcase{lru, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {s, d, o}, {d, b, d}}, d, true},
			tcase{hu, rules.PassNever, nil, [][]rules.Policy{{o, o, o}, {s, s, b}}, s, false},
			tcase{rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}, rules.PassTwoKnown, []int{0, 2}, [][]rules.Policy{{o, o, o}, {d, s, o}}, s, false})
	}
	for _, tc := range cases {
		m := exact.Model{Memory: tc.mem, Pass: tc.pass}
		stalemate := false
		pols := seatsPolicyChoosers(t, ctx, m, n, tc.replyTo, func(tab *rules.ChoiceTable, pol rules.Policy) fspChooser {
			return seatsChooser(t, tc.pass, tab, pol, &stalemate)
		})
		cardLRU, capacity := cardLevelMemory(tc.mem, n)
		start := rules.State{N: n, J: n - len(tc.known)}
		for _, seats := range tc.seats {
			name := fmt.Sprintf("%s %s/%v/%v", tc.pass, tc.mem, seats, start)
			checkReplySeats(t, name, seats, tc.replyTo)
			w := 3*n + 1
			pl := &fsdPlayer{lru: cardLRU, m: capacity, sigma: 0, p: 3, top: depth, w: w,
				choose: []fspChooser{pols[seats[0]], pols[seats[1]], pols[seats[2]]}, memo: map[string]seatsDist{}}
			got := pl.value(newFlDeal(n, tc.known), 0, 0, depth)
			want, err := exact.SeatsScoreDistribution(ctx, field.Float{}, m, exact.SeatLineup(seats...), start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			compareSeatsCardPlay(t, name, got, want, w, depth, 1e-3)
		}
		if tc.needsStreak && !stalemate {
			t.Errorf("%s %s: no game ends in a stalemate: the check does not reach one", tc.pass, tc.mem)
		}
	}
}

// TestSeatsDistributionIdentities checks every seat's distribution without a fluctuating capacity
// against the lineup's values (each seat's mean its expected pairs, exact rationals), that each
// adds up to 1 with no negative probability, that float64 agrees, and that lru memory with room
// for every card of the deal gives perfect memory's distributions, at three to five seats under
// every pass rule, singletons and blind flips included.
func TestSeatsDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		m     exact.Model
		seats []rules.Policy
		st    rules.State
	}
	lru := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}
	hu := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}
	cases := []tcase{
		{exact.Model{Pass: rules.PassAlways, Singletons: 1}, []rules.Policy{o, o, o}, rules.State{N: 5, J: 5, S: 1, F: 1}},
		{exact.Model{Memory: lru}, []rules.Policy{o, s, b}, rules.State{N: 5, J: 4}},
		{exact.Model{Memory: hu, Pass: rules.PassTwoKnown}, []rules.Policy{o, o, o, d}, rules.State{N: 4, J: 3}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{exact.Model{Pass: rules.PassTwoKnown}, []rules.Policy{b, o, o, o}, rules.State{N: 8, J: 7}},
			tcase{exact.Model{Memory: lru, Pass: rules.PassAlways}, []rules.Policy{o, o, o, o, o}, rules.State{N: 6, J: 6}},
			tcase{exact.Model{Memory: hu}, []rules.Policy{d, d, b}, rules.State{N: 7, J: 7}},
			tcase{exact.Model{Pass: rules.PassTwoKnown, Variant: rules.Variant{Flips: rules.FlipsBlind}}, []rules.Policy{o, o, s}, rules.State{N: 6, J: 6}})
	}
	for _, tc := range cases {
		mu := exact.SeatLineup(tc.seats...)
		name := fmt.Sprintf("%s %s S=%d/%v/%v", tc.m.Pass, tc.m.Memory, tc.m.Singletons, tc.seats, tc.st)
		rat, _ := checkSeatsDistIdentities(t, ctx, name, tc.m, mu, tc.st, len(tc.seats))
		if !tc.m.Memory.Perfect() || tc.m.Singletons > 0 || tc.m.Variant.Flips == rules.FlipsBlind {
			continue
		}
		// Room for every card: lru of 2n cards is perfect memory.
		roomyModel := tc.m
		roomyModel.Memory = rules.Memory{Capacity: 2 * tc.st.N, Forget: rules.ForgetLRU}
		roomy, err := exact.SeatsScoreDistribution(ctx, field.Rat{}, roomyModel, mu, tc.st)
		if err != nil {
			t.Fatalf("%s, %s: %v", name, roomyModel.Memory, err)
		}
		for seat := range tc.seats {
			if got, want := ratsString(roomy.Prob[seat]), ratsString(rat.Prob[seat]); got != want {
				t.Errorf("%s: seat %d: %s memory %s, perfect memory %s", name, seat, roomyModel.Memory, got, want)
			}
		}
	}
}

// TestSeatsDistributionRefusals checks that the models and lineups every seat's distribution is
// not solved for are refused with a reason, by SeatsScoreDistribution and by Estimate alike.
func TestSeatsDistributionRefusals(t *testing.T) {
	ctx := context.Background()
	o := rules.PolicyOptimal
	cases := []struct {
		name string
		m    exact.Model
		mu   exact.Lineup
	}{
		{"win-optimal, a fluctuating capacity under a turn limit", exact.Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}, Variant: rules.Variant{TurnLimit: 4}}, exact.Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}},
		{"turn limit, a table", exact.Model{Variant: rules.Variant{TurnLimit: 4}}, exact.Lineup{Players: 3, Policy: o, Opponent: o, Table: &rules.ChoiceTable{}}},
		{"two-player optimum", exact.Model{}, exact.Lineup{Players: 3, Policy: o, Opponent: o, TwoPlayerOptimal: true}},
		{"win-optimal under decay", exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.5}}, exact.Lineup{Players: 3, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exact.SeatsScoreDistribution(ctx, field.Float{}, c.m, c.mu, rules.State{N: 3, J: 3}); err == nil {
				t.Error("SeatsScoreDistribution: no error")
			}
			if _, err := exact.Estimate(c.m, c.mu, 3, exact.Options{Call: exact.CallDistribution}); err == nil {
				t.Error("Estimate: no error")
			}
			if err := exact.CheckSeatsDistribution(c.m, c.mu); err == nil {
				t.Error("CheckSeatsDistribution: no error")
			}
		})
	}
}
