package exact

import (
	"context"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestHandoverSingletonsSeatsDistributionIdentities checks every seat's score distribution at
// three or more seats for singletons under a handover-uniform memory against identities: each
// seat's probabilities add up to one, their means are the values' expected pairs by seat, float64
// agrees with exact rationals, and a capacity of 2n+s gives perfect memory's distribution
// (seatsdist.go).
func TestHandoverSingletonsSeatsDistributionIdentities(t *testing.T) {
	type tc struct {
		pairs, singles, capacity int
		pass                     rules.PassRule
		seats                    []rules.Policy
		short                    bool
	}
	opt := func(p int) []rules.Policy {
		out := make([]rules.Policy, p)
		for i := range out {
			out[i] = rules.PolicyOptimal
		}
		return out
	}
	cases := []tc{
		{2, 1, 2, rules.PassNever, opt(3), true},
		{3, 2, 3, rules.PassAlways, opt(3), false},
		{3, 1, 2, rules.PassTwoKnown, []rules.Policy{rules.PolicyParity, rules.PolicyBestResponse, rules.PolicySafe}, false},
		{3, 1, 7, rules.PassNever, opt(4), false},
		{2, 1, 5, rules.PassAlways, opt(3), false},
	}
	ctx := context.Background()
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		m := husModel(c.singles, c.capacity)
		m.Pass = c.pass
		mu := SeatLineup(c.seats...)
		st := startOf(m, c.pairs)
		d, err := SeatsScoreDistribution(ctx, field.Rat{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Evaluate(ctx, field.Rat{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		df, err := SeatsScoreDistribution(ctx, field.Float{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		for b := range mu.Players {
			sum := new(big.Rat)
			for i, p := range d.Prob[b] {
				sum.Add(sum, p)
				if x, _ := p.Float64(); math.Abs(x-df.Prob[b][i]) > 1e-12 {
					t.Errorf("%+v seat %d share %d: exact %v, float64 %v", c, b, i, p, df.Prob[b][i])
				}
			}
			if sum.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%+v seat %d: probabilities add up to %v", c, b, sum)
			}
			if mean := d.Mean(field.Rat{}, b); mean.Cmp(res.PairsBySeat[b]) != 0 {
				t.Errorf("%+v seat %d: mean %v, expected pairs %v", c, b, mean, res.PairsBySeat[b])
			}
		}
		if c.capacity < 2*c.pairs+c.singles {
			continue
		}
		perfect := Model{Singletons: c.singles, Pass: c.pass}
		pd, err := SeatsScoreDistribution(ctx, field.Rat{}, perfect, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		for b := range mu.Players {
			for i, p := range d.Prob[b] {
				if p.Cmp(pd.Prob[b][i]) != 0 {
					t.Errorf("%+v seat %d share %d: capacity %d %v, perfect memory %v", c, b, i, c.capacity, p, pd.Prob[b][i])
				}
			}
		}
	}
}
