package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestSeatsScoreDistributionFromStandingsMeetsTheWinSolve checks every seat's distribution of the
// pairs it takes from given standings against the win solve from those standings
// (EvaluateStandings, a backward induction over the standings): each seat's mean equals its
// expected pairs there, in exact rationals, for win-optimal at every seat, mixed lineups and a
// win-best-response, under pass rules, singletons and lru memory; each seat's probabilities add
// up to 1 and float64 agrees. Standings all equal give the distributions from no pairs taken
// (win-optimal reads the differences), and a lineup in which no seat plays to win ignores them.
func TestSeatsScoreDistributionFromStandingsMeetsTheWinSolve(t *testing.T) {
	ctx := context.Background()
	W, B, O, S, D := rules.PolicyWinOptimal, rules.PolicyWinBestResponse, rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	lru2 := rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
	type tcase struct {
		m         exact.Model
		seats     []rules.Policy
		st        rules.State
		standings []int
	}
	cases := []tcase{
		{exact.Model{}, []rules.Policy{W, W, W}, rules.State{N: 3, J: 3}, []int{0, 2, 1}},
		{exact.Model{Pass: rules.PassAlways}, []rules.Policy{W, S, D}, rules.State{N: 3, J: 2}, []int{1, 0, 0}},
		{exact.Model{Singletons: 1}, []rules.Policy{O, W, W}, rules.State{N: 2, J: 2, S: 1, F: 1}, []int{0, 0, 1}},
		{exact.Model{Memory: lru2}, []rules.Policy{W, W, W}, rules.State{N: 3, J: 3}, []int{2, 0, 1}},
		{exact.Model{Pass: rules.PassAlways}, []rules.Policy{W, W, W}, rules.State{N: 4, J: 4}, []int{0, 0, 2}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{exact.Model{}, []rules.Policy{W, W, W, W}, rules.State{N: 5, J: 5}, []int{1, 0, 0, 2}},
			tcase{exact.Model{Pass: rules.PassTwoKnown}, []rules.Policy{S, B, S}, rules.State{N: 4, J: 4}, []int{0, 1, 2}},
			tcase{exact.Model{Memory: lru2}, []rules.Policy{W, W, W}, rules.State{N: 4, J: 4}, []int{2, 0, 1}})
	}
	for _, tc := range cases {
		mu := exact.SeatLineup(tc.seats...)
		name := fmt.Sprintf("%s S=%d %s/%v/%v/%v", tc.m.Pass, tc.m.Singletons, tc.m.Memory, tc.seats, tc.st, tc.standings)
		d, err := exact.SeatsScoreDistributionFrom(ctx, field.Rat{}, tc.m, mu, tc.st, tc.standings)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := exact.EvaluateStandings(ctx, field.Rat{}, tc.m, mu, tc.st, tc.standings)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fl, err := exact.SeatsScoreDistributionFrom(ctx, field.Float{}, tc.m, mu, tc.st, tc.standings)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for s := range tc.seats {
			total := new(big.Rat)
			for i, p := range d.Prob[s] {
				total.Add(total, p)
				x, _ := p.Float64()
				if math.Abs(fl.Prob[s][i]-x) > 1e-12 {
					t.Errorf("%s: seat %d, share %d/%d: float64 %.15f, exact %.15f", name, s, i, d.Unit, fl.Prob[s][i], x)
				}
			}
			if total.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%s: seat %d: the probabilities add up to %s", name, s, total.RatString())
			}
			if got := d.Mean(field.Rat{}, s); got.Cmp(want.Pairs[s]) != 0 {
				t.Errorf("%s: seat %d: mean %s, the win solve's expected pairs %s", name, s, got.RatString(), want.Pairs[s].RatString())
			}
		}
	}

	// Equal standings: win-optimal reads every seat's lead, the same as from no pairs taken.
	st := rules.State{N: 4, J: 4}
	mu := exact.SeatLineup(W, W, W)
	none, err := exact.SeatsScoreDistribution(ctx, field.Rat{}, exact.Model{}, mu, st)
	if err != nil {
		t.Fatal(err)
	}
	equal, err := exact.SeatsScoreDistributionFrom(ctx, field.Rat{}, exact.Model{}, mu, st, []int{2, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	sameDists(t, "standings 2,2,2 vs none", equal, none)
	// No seat plays to win: the standings change no choice.
	fixed := exact.SeatLineup(O, S, D)
	none, err = exact.SeatsScoreDistribution(ctx, field.Rat{}, exact.Model{}, fixed, st)
	if err != nil {
		t.Fatal(err)
	}
	from, err := exact.SeatsScoreDistributionFrom(ctx, field.Rat{}, exact.Model{}, fixed, st, []int{0, 3, 1})
	if err != nil {
		t.Fatal(err)
	}
	sameDists(t, "optimal,safe,daring from 0,3,1 vs none", from, none)
}

// sameDists reports where got and want, every seat's distributions, differ.
func sameDists(t *testing.T, name string, got, want exact.SeatsDistribution[*big.Rat]) {
	t.Helper()
	if got.Unit != want.Unit || len(got.Prob) != len(want.Prob) {
		t.Fatalf("%s: unit %d, %d seats; want unit %d, %d seats", name, got.Unit, len(got.Prob), want.Unit, len(want.Prob))
	}
	for s := range want.Prob {
		if len(got.Prob[s]) != len(want.Prob[s]) {
			t.Fatalf("%s: seat %d: %d shares, want %d", name, s, len(got.Prob[s]), len(want.Prob[s]))
		}
		for i := range want.Prob[s] {
			if got.Prob[s][i].Cmp(want.Prob[s][i]) != 0 {
				t.Errorf("%s: seat %d, share %d: %s, want %s", name, s, i, got.Prob[s][i].RatString(), want.Prob[s][i].RatString())
			}
		}
	}
}

// TestSeatsScoreDistributionFromRefusesWhatItDoesNotSolve checks the refusals: a wrong count of
// standings, a negative one, and a fluctuating capacity with a seat playing to win from standings.
func TestSeatsScoreDistributionFromRefusesWhatItDoesNotSolve(t *testing.T) {
	ctx := context.Background()
	W := rules.PolicyWinOptimal
	mu := exact.SeatLineup(W, W, W)
	st := rules.State{N: 3, J: 3}
	fluct := exact.Model{Memory: rules.Memory{Capacity: 2, Fluctuation: 1, Forget: rules.ForgetLRU}}
	for _, c := range []struct {
		m         exact.Model
		standings []int
	}{{exact.Model{}, []int{0, 1}}, {exact.Model{}, []int{0, -1, 0}}, {fluct, []int{1, 0, 0}}} {
		if _, err := exact.SeatsScoreDistributionFrom(ctx, field.Float{}, c.m, mu, st, c.standings); err == nil {
			t.Errorf("%s, standings %v: no error", c.m.Memory, c.standings)
		}
	}
}
