package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSeatsDistributionAtTwoSeatsIsTheTwoPlayerOnes plays the rows of every seat's score
// distribution (fluctseatsdist.go) at two seats with fixed policies, whose choices do not depend
// on the solver, and compares seat 0's and seat 1's distributions with Distribution's, the
// two-player model's own lead distributions (fluctdist.go), exactly.
func TestFluctSeatsDistributionAtTwoSeatsIsTheTwoPlayerOnes(t *testing.T) {
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
			tcase{rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}, rules.PassAlways, rules.State{N: 5, J: 4}},
			tcase{rules.Memory{Capacity: 4, Forget: rules.ForgetLRU, Fluctuation: 2}, rules.PassTwoKnown, rules.State{N: 6, J: 4}})
	}
	for _, tc := range cases {
		m := Model{Memory: tc.mem, Pass: tc.pass}
		for _, seats := range [][]rules.Policy{{s, d}, {d, s}, {d, d}} {
			name := fmt.Sprintf("%s %s/%v/%v", tc.pass, tc.mem, seats, tc.st)
			mu := SeatLineup(seats...)
			got, err := fluctSeatsDistribution(ctx, f, m, mu, tc.st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := Distribution(ctx, f, m, Lineup{Players: 2, Policy: seats[0], Opponent: seats[1]}, tc.st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			// want counts half pairs; got 1/Unit of a pair.
			step := 2 / got.Unit
			for seat := range 2 {
				w := want.SeatProb(seat)
				for i, p := range w {
					g := f.FromInt(0)
					if i%step == 0 {
						g = got.Prob[seat][i/step]
					}
					if g.Cmp(p) != 0 {
						t.Errorf("%s: seat %d takes %d/2 pairs: every seat's rows %s, the two-player model %s", name, seat, i, g.RatString(), p.RatString())
					}
				}
			}
		}
	}
}
