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

// Every seat's distribution under a turn limit with singletons under a handover-uniform memory
// at three or more seats: each seat's probabilities add up to one and its mean is the limit
// model's value of that seat (exact), float64 agrees with exact, and with a capacity of 2n + s
// (nothing forgotten, so every game ends within a bounded number of turns) a limit that never
// binds gives the distribution without a limit and perfect memory's under the same limit.
func TestHandoverSingletonsSeatsLimitDistributionIdentities(t *testing.T) {
	type tc struct {
		pairs, singles, capacity, players, limit int
		pass                                     rules.PassRule
		seats                                    []rules.Policy
		short                                    bool
	}
	opt := func(p int) []rules.Policy {
		out := make([]rules.Policy, p)
		for i := range out {
			out[i] = rules.PolicyOptimal
		}
		return out
	}
	cases := []tc{
		{2, 1, 2, 3, 4, rules.PassNever, opt(3), true},
		{3, 2, 3, 3, 8, rules.PassTwoKnown, opt(3), false},
		{3, 1, 2, 4, 7, rules.PassAlways, opt(4), false},
		{3, 1, 3, 3, 6, rules.PassAlways, []rules.Policy{rules.PolicyDaring, rules.PolicyBestResponse, rules.PolicySafe}, false},
		{3, 2, 3, 5, 9, rules.PassNever, []rules.Policy{rules.PolicyOptimal, rules.PolicyParity, rules.PolicySafe, rules.PolicyBestResponse, rules.PolicyDaring}, false},
	}
	ctx := context.Background()
	lineup := func(seats []rules.Policy) Lineup {
		if isSelfishSeats(seats) {
			return Lineup{Players: len(seats), Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		}
		return SeatLineup(seats...)
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		t.Run(fmt.Sprintf("%d+%ds/m%d/p%d/T%d/%s/%v", c.pairs, c.singles, c.capacity, c.players, c.limit, c.pass, c.seats), func(t *testing.T) {
			m := husModel(c.singles, c.capacity)
			m.Pass, m.Variant.TurnLimit = c.pass, c.limit
			mu := lineup(c.seats)
			st := rules.State{N: c.pairs, J: c.pairs, S: c.singles, F: c.singles}
			ex, err := SeatsScoreDistribution(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			fl, err := SeatsScoreDistribution(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			v, err := Evaluate(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			f := field.Rat{}
			for b := range c.players {
				sum := new(big.Rat)
				for i, q := range ex.Prob[b] {
					sum.Add(sum, q)
					if x, _ := q.Float64(); math.Abs(x-fl.Prob[b][i]) > 1e-12 {
						t.Errorf("seat %d, share %d: float64 %v, exact %v", b, i, fl.Prob[b][i], q.RatString())
					}
				}
				if sum.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("seat %d: the probabilities add up to %s", b, sum.RatString())
				}
				if mean := ex.Mean(f, b); mean.Cmp(v.PairsBySeat[b]) != 0 {
					t.Errorf("seat %d: mean %s, the limit model's value %s", b, mean.RatString(), v.PairsBySeat[b].RatString())
				}
			}
		})
	}
	// A capacity of 2n + s forgets nothing: every turn but a pass flips an unknown card or takes
	// a pair, so 2(2n+s) + p turns never bind.
	never := []tc{
		{2, 1, 5, 3, 13, rules.PassNever, opt(3), false},
		{3, 1, 7, 3, 18, rules.PassTwoKnown, []rules.Policy{rules.PolicySafe, rules.PolicyBestResponse, rules.PolicyOptimal}, false},
		{3, 2, 8, 4, 20, rules.PassAlways, opt(4), false},
	}
	for _, c := range never {
		if testing.Short() && !c.short {
			continue
		}
		t.Run(fmt.Sprintf("never binding %d+%ds/p%d/T%d/%s", c.pairs, c.singles, c.players, c.limit, c.pass), func(t *testing.T) {
			m := husModel(c.singles, c.capacity)
			m.Pass, m.Variant.TurnLimit = c.pass, c.limit
			mu := lineup(c.seats)
			st := rules.State{N: c.pairs, J: c.pairs, S: c.singles, F: c.singles}
			got, err := SeatsScoreDistribution(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			free := m
			free.Variant.TurnLimit = 0
			want, err := SeatsScoreDistribution(ctx, field.Rat{}, free, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			perfect := m
			perfect.Memory = rules.Memory{}
			pm, err := SeatsScoreDistribution(ctx, field.Rat{}, perfect, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			for b := range c.players {
				for i := range got.Prob[b] {
					if got.Prob[b][i].Cmp(want.Prob[b][i]) != 0 {
						t.Errorf("seat %d, share %d: %s under the limit, %s without", b, i, got.Prob[b][i].RatString(), want.Prob[b][i].RatString())
					}
					if got.Prob[b][i].Cmp(pm.Prob[b][i]) != 0 {
						t.Errorf("seat %d, share %d: %s, perfect memory under the limit %s", b, i, got.Prob[b][i].RatString(), pm.Prob[b][i].RatString())
					}
				}
			}
		})
	}
}
