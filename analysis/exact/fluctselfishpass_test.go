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

// TestFluctSeatsPassIdentities checks, in exact rationals, the fluctuating capacity at three and
// four seats under the pass rules two-known and always against other models: with σ = 0 it gives
// the fixed capacity's values of every seat under the same pass rule (selfishlimitpass.go), with
// a capacity that never binds perfect memory's under it; every seat's values add up to the pairs;
// and float64 agrees with the rationals.
func TestFluctSeatsPassIdentities(t *testing.T) {
	ctx := context.Background()
	type tcase struct {
		m, sigma, n int
		perfect     bool // the fluctuating capacity never binds: compare with perfect memory
	}
	cases := []tcase{{2, 0, 4, false}, {7, 2, 4, true}, {3, 1, 4, false}}
	seatCounts := []int{3}
	if !testing.Short() {
		cases = append(cases, tcase{3, 0, 6, false}, tcase{4, 0, 9, false}, tcase{2, 0, 8, false}, tcase{8, 2, 5, true}, tcase{3, 1, 6, false})
		seatCounts = append(seatCounts, 4)
	}
	// Under -short every lineup meets every case once over the pass rules and forgettings, not
	// at each of them: skip reports the combinations left to the long run.
	skip := func(pi, fi, li, ci int) bool {
		return testing.Short() && (pi*2+fi+li+ci)%len(cases) != 0
	}
	for pi, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for fi, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			for _, players := range seatCounts {
				o, s, d := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
				lineups := []Lineup{SeatLineup(o, o, o), SeatLineup(o, o, s), SeatLineup(o, s, d), SeatLineup(d, o, o), SeatLineup(s, d, d)}
				if players == 4 {
					lineups = []Lineup{SeatLineup(o, o, o, o), SeatLineup(d, o, s, o)}
				}
				for li, mu := range lineups {
					for ci, tc := range cases {
						if skip(pi, fi, li, ci) {
							continue
						}
						mem := rules.Memory{Capacity: tc.m, Forget: forget, Fluctuation: tc.sigma}
						name := fmt.Sprintf("%s %s σ=%d/%v/n=%d", pass, mem, tc.sigma, mu.Seats[:players], tc.n)
						st := rules.State{N: tc.n, J: tc.n}
						m := Model{Memory: mem, Pass: pass}
						got, err := evaluateFluctSeats(ctx, field.Rat{}, m, mu, st)
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
						if tc.perfect || tc.sigma == 0 {
							ref := Model{Memory: rules.Memory{Capacity: tc.m, Forget: forget}, Pass: pass}
							if tc.perfect {
								ref.Memory = rules.Memory{}
							}
							want, err := Evaluate(ctx, field.Rat{}, ref, mu, st)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							for i := range want.PairsBySeat {
								if got.PairsBySeat[i].Cmp(want.PairsBySeat[i]) != 0 {
									t.Errorf("%s: seat %d: %s, %s gives %s", name, i, got.PairsBySeat[i].FloatString(12), ref.Memory, want.PairsBySeat[i].FloatString(12))
								}
							}
						}
						fl, err := evaluateFluctSeats(ctx, field.Float{}, m, mu, st)
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
	}
}

// TestFluctSeatsPassTwoSeatsEqualTwoPlayerModel checks that the solver of every seat for itself
// under a pass rule, at two seats (a pass at streak 1 being the stalemate), gives the two-player
// model's values under the same pass rule (fluctpass.go).
func TestFluctSeatsPassTwoSeatsEqualTwoPlayerModel(t *testing.T) {
	ctx := context.Background()
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, forget := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
			for _, pair := range [][2]rules.Policy{
				{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicyOptimal, rules.PolicySafe}, {rules.PolicyDaring, rules.PolicyOptimal},
			} {
				m := Model{Memory: rules.Memory{Capacity: 3, Forget: forget, Fluctuation: 2}, Pass: pass}
				mu := Lineup{Players: 2, Policy: pair[0], Opponent: pair[1]}
				states := []rules.State{{N: 4, J: 2}}
				if !testing.Short() {
					states = append(states, rules.State{N: 6, J: 6}, rules.State{N: 6, J: 3})
				}
				for _, st := range states {
					got, err := evaluateFluctSeats(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					want, err := evaluateFluct(ctx, field.Rat{}, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 {
						t.Errorf("%s %s %s-%s %v: seat 0 %s, two-player model %s", pass, m.Memory, pair[0], pair[1], st, got.ExpectedPairs.FloatString(12), want.ExpectedPairs.FloatString(12))
					}
				}
			}
		}
	}
}
