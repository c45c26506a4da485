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

// TestFluctSeatsTwoPlayerOptimalMatchesCardPlay plays deals of three and four pairs card by card at
// three seats under a fluctuating capacity, every optimal seat reading the two-player optimum's
// table (FluctTable, the layer of the capacity drawn; under a pass rule its choice just after a
// pass at every streak of one pass or more, as the engine's table player reads a two-player
// table), and compares every seat's expected pairs with Evaluate of Lineup.TwoPlayerOptimal, for
// every seat optimal and for optimal beside safe and daring, under a pass rule at every streak
// seat 0 may start at; it checks that the play reaches a pass.
func TestFluctSeatsTwoPlayerOptimalMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	type tcase struct {
		forget             rules.Forgetting
		m, sigma, n, depth int
		pass               rules.PassRule
		known              []int
		seats              [][]rules.Policy
	}
	all := [][]rules.Policy{{o, o, o}, {o, s, d}}
	cases := []tcase{
		{rules.ForgetLRU, 2, 1, 3, 14, rules.PassNever, nil, all},
		{rules.ForgetHandoverUniform, 2, 1, 3, 14, rules.PassNever, nil, all[:1]},
		{rules.ForgetLRU, 2, 1, 3, 14, rules.PassAlways, []int{0}, all},
		// At (4, 2) with a capacity of 3 or more drawn the two-player optimum plays safe after
		// no pass and passes just after one.
		{rules.ForgetLRU, 2, 1, 4, 12, rules.PassTwoKnown, []int{0, 2}, all[:1]},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{rules.ForgetHandoverUniform, 2, 1, 3, 14, rules.PassAlways, []int{0}, all},
			tcase{rules.ForgetLRU, 2, 1, 4, 12, rules.PassTwoKnown, []int{0, 2}, all[1:]},
			tcase{rules.ForgetLRU, 3, 1, 4, 12, rules.PassNever, nil, all})
	}
	passes := 0
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem, Pass: tc.pass}
		two, err := exact.FluctTable(ctx, field.Float{}, m, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		opt := fspFromTable(t, fmt.Sprintf("%s %s two-player", tc.pass, mem), tc.pass, two, func(int) { passes++ })
		pols := map[rules.Policy]fspChooser{o: opt, s: fspFixed(s), d: fspFixed(d)}
		start := rules.State{N: tc.n, J: tc.n - len(tc.known)}
		for _, seats := range tc.seats {
			name := fmt.Sprintf("%s %s/%v/n=%d", tc.pass, mem, seats, tc.n)
			pl := &fspPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, p: 3, top: tc.depth,
				choose: []fspChooser{pols[seats[0]], pols[seats[1]], pols[seats[2]]}, memo: map[string]vec{}, pass: tc.pass}
			got := pl.value(newFlDeal(tc.n, tc.known), 0, 0, tc.depth)
			mu := exact.SeatLineup(seats...)
			mu.TwoPlayerOptimal = true
			want, err := exact.Evaluate(ctx, field.Float{}, m, mu, start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sum := 0.0
			for i := range 3 {
				sum += want.PairsBySeat[i]
				if math.Abs(got[i]-want.PairsBySeat[i]) > float64(tc.n)*got[3]+1e-9 {
					t.Errorf("%s: seat %d: card play %.12f (unfinished %.2g), exact %.12f", name, i, got[i], got[3], want.PairsBySeat[i])
				}
			}
			if math.Abs(sum-float64(tc.n)) > 1e-9 {
				t.Errorf("%s: the seats' pairs add up to %.12f, not %d", name, sum, tc.n)
			}
			if tc.pass == rules.PassNever {
				continue
			}
			// Every streak: seat 0 moves after one or two seats passed in a row.
			byStreak, err := exact.FluctSeatsStreakLineupValues(ctx, m, mu, start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for l := 1; l < 3; l++ {
				got := pl.value(newFlDeal(tc.n, tc.known), 0, l, tc.depth)
				for i := range 3 {
					if math.Abs(got[i]-byStreak[l][i]) > float64(tc.n)*got[3]+1e-9 {
						t.Errorf("%s: streak %d: seat %d: card play %.12f (unfinished %.2g), exact %.12f", name, l, i, got[i], got[3], byStreak[l][i])
					}
				}
			}
		}
	}
	if passes == 0 {
		t.Errorf("the two-player table never passes in these games: the check does not reach a pass")
	}
}

// TestFluctSeatsTwoPlayerOptimalLargeCapacityIsPerfectMemory checks, in exact rationals, that a
// fluctuating capacity that never binds (m - σ >= n + 1) gives every seat the values of the
// two-player optimum's choices under perfect memory (the standard game's solver), at three and four
// seats under every pass rule, and that float64 agrees.
func TestFluctSeatsTwoPlayerOptimalLargeCapacityIsPerfectMemory(t *testing.T) {
	ctx := context.Background()
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		seats, forgets := []int{3, 4}, []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform}
		if testing.Short() {
			seats, forgets = seats[:1], forgets[:1]
		}
		for _, p := range seats {
			for _, fg := range forgets {
				n := 4
				m := exact.Model{Memory: rules.Memory{Capacity: n + 2, Forget: fg, Fluctuation: 1}, Pass: pass}
				perfect := exact.Model{Pass: pass}
				mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal, TwoPlayerOptimal: true}
				for j := n - 2; j <= n; j++ {
					st := rules.State{N: n, J: j}
					got, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					want, err := exact.Evaluate(ctx, field.Rat{}, perfect, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					fl, err := exact.Evaluate(ctx, field.Float{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					for i := range p {
						if got.PairsBySeat[i].Cmp(want.PairsBySeat[i]) != 0 {
							t.Errorf("%s %s %d seats %v: seat %d: %s, perfect memory %s", pass, m.Memory, p, st, i, got.PairsBySeat[i].RatString(), want.PairsBySeat[i].RatString())
						}
						if v, _ := new(big.Float).SetRat(got.PairsBySeat[i]).Float64(); math.Abs(v-fl.PairsBySeat[i]) > 1e-9 {
							t.Errorf("%s %s %d seats %v: seat %d: float64 %.12f, exact %.12f", pass, m.Memory, p, st, i, fl.PairsBySeat[i], v)
						}
					}
				}
			}
		}
	}
}

// TestFluctSeatsTwoPlayerOptimalDistributionMeans checks every seat's score distribution of the
// two-player optimum's choices at three seats under a fluctuating capacity, in exact rationals:
// each adds up to 1 and has the mean Evaluate gives the seat, under pass rules never and always.
func TestFluctSeatsTwoPlayerOptimalDistributionMeans(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
		m := exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU, Fluctuation: 1}, Pass: pass}
		mu := exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal, TwoPlayerOptimal: true}
		st := rules.State{N: 4, J: 3}
		d, err := exact.SeatsScoreDistribution(ctx, f, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.Evaluate(ctx, f, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		for s := range 3 {
			sum := new(big.Rat)
			for _, p := range d.Prob[s] {
				sum.Add(sum, p)
			}
			if sum.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%s: seat %d: the distribution adds up to %s", pass, s, sum.RatString())
			}
			if mean := d.Mean(f, s); mean.Cmp(res.PairsBySeat[s]) != 0 {
				t.Errorf("%s: seat %d: the distribution's mean %s, Evaluate %s", pass, s, mean.RatString(), res.PairsBySeat[s].RatString())
			}
		}
	}
}
