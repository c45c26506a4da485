package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctBlindSeatsIdentities checks, in exact rationals, a fluctuating capacity under blind
// flips at three seats (docs/models.md §4.4, §4.7, §4.17) against other models: with σ = 0 the
// sweep of every seat for itself and of policies per seat gives the fixed capacity's blind values
// at three seats, and a capacity that never binds (m - σ >= n + 2) blind perfect memory's; the
// seats' values add up to n. The optimum of every seat for itself is compared under pass rule
// never only: under a pass rule the two sweeps can reach different equilibria (the fixed
// capacity's and perfect memory's blind model the one that gives a state's mover the most, the
// fluctuating one's policy iteration another: from the full deal of 5 pairs under always, every
// seat passing, 5/3 pairs each), and break a tie between a pass and a turn differently, which
// fixed policies beside an optimal seat then feel. At two seats the rows of fixed policies give the two-player model's
// values and score distributions; float64 agrees with the rationals.
func TestFluctBlindSeatsIdentities(t *testing.T) {
	ctx := context.Background()
	o, s, d := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	blind := rules.Variant{Flips: rules.FlipsBlind}
	lineups := []Lineup{SeatLineup(o, o, o), SeatLineup(o, s, d), SeatLineup(d, s, s)}
	type idCase struct {
		m, sigma, n int
		forget      rules.Forgetting
		pass        rules.PassRule
		want        rules.Memory // the memory whose blind values the fluctuating one must equal
	}
	cases := []idCase{
		{3, 0, 5, rules.ForgetLRU, rules.PassNever, rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}},
		{3, 0, 4, rules.ForgetHandoverUniform, rules.PassNever, rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}},
		{7, 1, 4, rules.ForgetHandoverUniform, rules.PassNever, rules.Memory{}}, // m - σ = n + 2: never binds
		{2, 0, 4, rules.ForgetLRU, rules.PassAlways, rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}},
	}
	if !testing.Short() {
		cases = append(cases,
			idCase{3, 0, 6, rules.ForgetHandoverUniform, rules.PassTwoKnown, rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}},
			idCase{7, 2, 5, rules.ForgetLRU, rules.PassNever, rules.Memory{}},
			idCase{8, 1, 5, rules.ForgetHandoverUniform, rules.PassAlways, rules.Memory{}},
			idCase{4, 0, 7, rules.ForgetLRU, rules.PassNever, rules.Memory{Capacity: 4, Forget: rules.ForgetLRU}})
	}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := Model{Memory: mem, Variant: blind, Pass: tc.pass}
		st := rules.State{N: tc.n, J: tc.n}
		for _, mu := range lineups {
			if tc.pass != rules.PassNever && mu.Seats[0] == o {
				continue
			}
			name := fmt.Sprintf("%s %s σ=%d/%v/n=%d", tc.pass, mem, tc.sigma, mu.Seats[:3], tc.n)
			got, err := evaluateFluctSeats(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := Evaluate(ctx, field.Rat{}, Model{Memory: tc.want, Variant: blind, Pass: tc.pass}, mu, st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sum := field.Rat{}.FromInt(0)
			for i := range 3 {
				if got.PairsBySeat[i].Cmp(want.PairsBySeat[i]) != 0 {
					t.Errorf("%s: seat %d %s, blind %s gives %s", name, i, got.PairsBySeat[i].FloatString(12), tc.want, want.PairsBySeat[i].FloatString(12))
				}
				sum = field.Rat{}.Add(sum, got.PairsBySeat[i])
			}
			if sum.Cmp(field.Rat{}.FromInt(int64(tc.n))) != 0 {
				t.Errorf("%s: the seats' pairs add up to %s, not %d", name, sum.FloatString(12), tc.n)
			}
			fl, err := evaluateFluctSeats(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i := range 3 {
				if r, _ := got.PairsBySeat[i].Float64(); math.Abs(fl.PairsBySeat[i]-r) > 1e-12 {
					t.Errorf("%s: seat %d: float64 %.15f, rational %.15f", name, i, fl.PairsBySeat[i], r)
				}
			}
		}
	}
}

// TestFluctBlindSeatsAtTwoSeatsIsTheTwoPlayerModel solves the rows of three or more seats
// (fluctselfish.go, fluctseatsdist.go) at two seats with fixed policies, whose choices do not
// depend on the solver, under blind flips, and compares both seats' values and score
// distributions with the two-player model's (fluct.go, fluctdist.go), exactly.
func TestFluctBlindSeatsAtTwoSeatsIsTheTwoPlayerModel(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	s, d := rules.PolicySafe, rules.PolicyDaring
	type tcase struct {
		mem  rules.Memory
		pass rules.PassRule
		st   rules.State
	}
	cases := []tcase{
		{rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}, rules.PassNever, rules.State{N: 4, J: 4}},
		{rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}, rules.PassAlways, rules.State{N: 3, J: 2}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}, rules.PassNever, rules.State{N: 5, J: 5}},
			tcase{rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}, rules.PassAlways, rules.State{N: 4, J: 3}},
			tcase{rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform, Fluctuation: 2}, rules.PassNever, rules.State{N: 5, J: 4}})
	}
	for _, tc := range cases {
		m := Model{Memory: tc.mem, Pass: tc.pass, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		lineups := [][]rules.Policy{{s, d}, {d, s}, {d, d}}
		if testing.Short() {
			lineups = lineups[:1]
		}
		for _, seats := range lineups {
			name := fmt.Sprintf("%s %s/%v/%v", tc.pass, tc.mem, seats, tc.st)
			mu := SeatLineup(seats...)
			two := Lineup{Players: 2, Policy: seats[0], Opponent: seats[1]}
			got, err := evaluateFluctSeats(ctx, f, m, mu, tc.st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := evaluateFluct(ctx, f, m, two, tc.st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for seat := range 2 {
				if got.PairsBySeat[seat].Cmp(want.PairsBySeat[seat]) != 0 {
					t.Errorf("%s: seat %d: the rows of every seat %s, the two-player model %s", name, seat, got.PairsBySeat[seat].FloatString(12), want.PairsBySeat[seat].FloatString(12))
				}
			}
			gotD, err := fluctSeatsDistribution(ctx, f, m, mu, tc.st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			wantD, err := Distribution(ctx, f, m, two, tc.st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			step := 2 / gotD.Unit // wantD counts half pairs; gotD 1/Unit of a pair
			for seat := range 2 {
				for i, p := range wantD.SeatProb(seat) {
					g := f.FromInt(0)
					if i%step == 0 {
						g = gotD.Prob[seat][i/step]
					}
					if g.Cmp(p) != 0 {
						t.Errorf("%s: seat %d takes %d/2 pairs: every seat's rows %s, the two-player model %s", name, seat, i, g.RatString(), p.RatString())
					}
				}
			}
		}
	}
}
