package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctSeatLineups are the lineups of three seats the identities check.
var fluctSeatLineups = []Lineup{
	SeatLineup(rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal),
	SeatLineup(rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring),
	SeatLineup(rules.PolicyDaring, rules.PolicyOptimal, rules.PolicySafe),
	SeatLineup(rules.PolicySafe, rules.PolicyDaring, rules.PolicyDaring),
}

// TestFluctSeatsIdentities checks, in exact rationals, the fluctuating capacity at three seats
// against other models: with σ = 0 it gives the fixed capacity's values of every seat (under lru
// of capacity 4 from (8, 4) on, where a state has two equilibria and §4.7 takes the one that gives
// the mover more), with a capacity that never binds perfect memory's; every seat's values add up to the pairs; and
// float64 agrees with the rationals.
func TestFluctSeatsIdentities(t *testing.T) {
	ctx := context.Background()
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, mu := range fluctSeatLineups {
			for _, tc := range []struct {
				m, sigma, n int
				want        rules.Memory // the memory whose values the fluctuating one must equal
			}{
				{2, 0, 5, rules.Memory{Capacity: 2, Forget: forget}},
				{3, 0, 6, rules.Memory{Capacity: 3, Forget: forget}},
				{4, 0, 9, rules.Memory{Capacity: 4, Forget: forget}}, // lru: (8, 4) has two equilibria
				{8, 2, 5, rules.Memory{}},                            // m - σ = n + 1: never binds
				{3, 1, 5, rules.Memory{}},                            // only the sum is checked
			} {
				mem := rules.Memory{Capacity: tc.m, Forget: forget, Fluctuation: tc.sigma}
				name := fmt.Sprintf("%s σ=%d/%v/n=%d", mem, tc.sigma, mu.Seats[:3], tc.n)
				st := rules.State{N: tc.n, J: tc.n}
				got, err := evaluateFluctSeats(ctx, field.Rat{}, Model{Memory: mem}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sum := new(big.Rat)
				for _, v := range got.PairsBySeat {
					sum.Add(sum, v)
				}
				if sum.Cmp(big.NewRat(int64(tc.n), 1)) != 0 {
					t.Errorf("%s: seats' values add up to %s, want %d", name, sum.FloatString(12), tc.n)
				}
				if tc.m-tc.sigma > tc.n || tc.sigma == 0 {
					want, err := Evaluate(ctx, field.Rat{}, Model{Memory: tc.want}, mu, st)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for i := range want.PairsBySeat {
						if got.PairsBySeat[i].Cmp(want.PairsBySeat[i]) != 0 {
							t.Errorf("%s: seat %d: %s, %s gives %s", name, i, got.PairsBySeat[i].FloatString(12), tc.want, want.PairsBySeat[i].FloatString(12))
						}
					}
				}
				fl, err := evaluateFluctSeats(ctx, field.Float{}, Model{Memory: mem}, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for i, v := range got.PairsBySeat {
					if r, _ := v.Float64(); math.Abs(fl.PairsBySeat[i]-r) > 1e-12 {
						t.Errorf("%s: seat %d: float64 %.15f, rational %.15f", name, i, fl.PairsBySeat[i], r)
					}
				}
			}
		}
	}
}

// TestFluctSeatsTwoSeatsEqualTwoPlayerModel checks that the solver of every seat for itself, at
// two seats, gives the two-player model's values (two seats that maximise their own pairs
// maximise their lead).
func TestFluctSeatsTwoSeatsEqualTwoPlayerModel(t *testing.T) {
	ctx := context.Background()
	for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, pair := range [][2]rules.Policy{
			{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicyOptimal, rules.PolicySafe}, {rules.PolicyDaring, rules.PolicyOptimal},
		} {
			mem := rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 2}
			mu := Lineup{Players: 2, Policy: pair[0], Opponent: pair[1]}
			st := rules.State{N: 6, J: 6}
			got, err := evaluateFluctSeats(ctx, field.Rat{}, Model{Memory: mem}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			want, err := evaluateFluct(ctx, field.Rat{}, Model{Memory: mem}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 {
				t.Errorf("%s %s-%s: seat 0 %s, two-player model %s", mem, pair[0], pair[1], got.ExpectedPairs.FloatString(12), want.ExpectedPairs.FloatString(12))
			}
		}
	}
}

// TestFluctSeatsGapsWithoutFluctuation checks that with σ = 0 FluctSelfishGaps lists the states
// SelfishGaps lists for the fixed capacity (handover-uniform of capacity 11, four seats: one state
// at 14 pairs), with the same choice and gain.
func TestFluctSeatsGapsWithoutFluctuation(t *testing.T) {
	ctx := context.Background()
	m := Model{Memory: rules.Memory{Capacity: 11, Forget: rules.ForgetHandoverUniform}}
	got, err := FluctSelfishGaps(ctx, field.Float{}, m, 4, 14)
	if err != nil {
		t.Fatal(err)
	}
	want, err := SelfishGaps(ctx, field.Float{}, m, 4, 14)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("the fixed capacity has no gap: the test cannot compare them")
	}
	if len(got) != len(want) {
		t.Fatalf("gaps %v, the fixed capacity's %v", got, want)
	}
	for i, g := range got {
		w := want[i]
		if g.State != w.State || g.Choice != w.Choice || math.Abs(g.Gain-w.Gain) > 1e-9 {
			t.Errorf("gap %d: %v (capacity %d) %s gains %.12f, the fixed capacity's %v %s %.12f", i, g.State, g.Capacity, g.Choice, g.Gain, w.State, w.Choice, w.Gain)
		}
	}
}
