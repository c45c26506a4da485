package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSeatsReplyAgainstOtherMethods checks best-response at one of three seats under a
// fluctuating capacity, in exact rationals: with σ = 0 it gives the fixed capacity's best reply
// (§4.7's, solved by the sweep of the standard game); with a capacity that never binds perfect
// memory's; it gives the replying seat at least what optimal, safe and daring give it there; a
// reply to optimal at every other seat gives it the optimum's own value (an equilibrium, where
// FluctSelfishGaps lists no state); its choice after the draw is a best one of the choices'
// values, and float64 agrees.
func TestFluctSeatsReplyAgainstOtherMethods(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	o, s, d, br := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type rule struct {
		pass   rules.PassRule
		forget rules.Forgetting
	}
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	combos := []rule{{rules.PassNever, lru}, {rules.PassAlways, hu}}
	lineups := [][]rules.Policy{{br, s, s}, {o, br, d}, {br, o, o}}
	n := 3
	if !testing.Short() {
		n = 6
		combos = append(combos, rule{rules.PassNever, hu}, rule{rules.PassAlways, lru}, rule{rules.PassTwoKnown, lru}, rule{rules.PassTwoKnown, hu})
		lineups = append(lineups, []rules.Policy{d, s, br})
	}
	for _, cb := range combos {
		for _, seats := range lineups {
			mu := exact.SeatLineup(seats...)
			r := slices.Index(seats, br)
			name := fmt.Sprintf("%s %s %v", cb.pass, cb.forget, seats)
			st := rules.State{N: n, J: n - 1}
			// σ = 0: the fixed capacity's best reply.
			fixed := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: cb.forget}, Pass: cb.pass}
			fl := fixed
			fl.Memory.Fluctuation = 0
			got, err := exact.Evaluate(ctx, f, fl, mu, st)
			if err != nil {
				t.Fatalf("%s σ=0: %v", name, err)
			}
			want, err := exact.Evaluate(ctx, f, fixed, mu, st)
			if err != nil {
				t.Fatalf("%s fixed: %v", name, err)
			}
			sameSeats(t, name+" σ=0", got.PairsBySeat, want.PairsBySeat)
			// A capacity that never binds: perfect memory's best reply.
			wide := exact.Model{Memory: rules.Memory{Capacity: 2*n + 1, Forget: cb.forget, Fluctuation: 1}, Pass: cb.pass}
			if got, err = exact.Evaluate(ctx, f, wide, mu, st); err != nil {
				t.Fatalf("%s wide: %v", name, err)
			}
			if want, err = exact.Evaluate(ctx, f, exact.Model{Pass: cb.pass}, mu, st); err != nil {
				t.Fatalf("%s perfect: %v", name, err)
			}
			sameSeats(t, name+" wide", got.PairsBySeat, want.PairsBySeat)
			// A capacity that binds: no fixed policy of the replying seat does better.
			m := exact.Model{Memory: rules.Memory{Capacity: 3, Forget: cb.forget, Fluctuation: 1}, Pass: cb.pass}
			reply, err := exact.Evaluate(ctx, f, m, mu, st)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, alt := range []rules.Policy{o, s, d} {
				other := slices.Clone(seats)
				other[r] = alt
				v, err := exact.Evaluate(ctx, f, m, exact.SeatLineup(other...), st)
				if err != nil {
					t.Fatalf("%s %s at seat %d: %v", name, alt, r, err)
				}
				if v.PairsBySeat[r].Cmp(reply.PairsBySeat[r]) > 0 {
					t.Errorf("%s: %s at seat %d gives it %s, the best reply %s", name, alt, r, v.PairsBySeat[r].RatString(), reply.PairsBySeat[r].RatString())
				}
				if alt != o || slices.ContainsFunc(other, func(p rules.Policy) bool { return p != o }) {
					continue
				}
				gaps, err := exact.FluctSelfishGaps(ctx, f, m, 3, n)
				if err != nil {
					t.Fatal(err)
				}
				if len(gaps) == 0 && v.PairsBySeat[r].Cmp(reply.PairsBySeat[r]) != 0 {
					t.Errorf("%s: the reply to the optimum gives seat %d %s, the optimum %s", name, r, reply.PairsBySeat[r].RatString(), v.PairsBySeat[r].RatString())
				}
			}
			if r != 0 {
				continue
			}
			for c := 2; c <= 4; c++ {
				cs, err := exact.FluctSeatsChoiceValues(ctx, f, m, mu, st, c, 0)
				if err != nil {
					t.Fatalf("%s c=%d: %v", name, c, err)
				}
				if !slices.Contains(cs.Best, cs.PolicyChoice) {
					t.Errorf("%s c=%d: the reply plays %s, the best are %v", name, c, cs.PolicyChoice, cs.Best)
				}
				fc, err := exact.FluctSeatsChoiceValues(ctx, field.Float{}, m, mu, st, c, 0)
				if err != nil {
					t.Fatalf("%s c=%d float64: %v", name, c, err)
				}
				for i, v := range cs.Values {
					for seat, x := range v.PairsBySeat {
						want, _ := x.Float64()
						if math.Abs(fc.Values[i].PairsBySeat[seat]-want) > 1e-9 {
							t.Errorf("%s c=%d: %s seat %d: float64 %.12f, exact %.12f", name, c, v.Choice, seat, fc.Values[i].PairsBySeat[seat], want)
						}
					}
				}
			}
		}
	}
}

// sameSeats checks that got and want hold the same values for every seat.
func sameSeats(t *testing.T, name string, got, want []*big.Rat) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d seats, want %d", name, len(got), len(want))
	}
	for i := range got {
		if got[i].Cmp(want[i]) != 0 {
			t.Errorf("%s: seat %d: %s, want %s", name, i, got[i].RatString(), want[i].RatString())
		}
	}
}
