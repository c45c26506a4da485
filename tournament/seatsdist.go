package tournament

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/stats"
	"memsim/sim"
	"memsim/sim/rules"
)

// SeatsDistributionSeconds bounds the estimated time (exact.Estimate, in float64) of every seat's
// exact score distribution at three or more seats: a seating whose distribution would take longer
// has its means checked, not its distributions. The distribution costs several times the values
// (at 8 seats, 12 pairs and pass rule always about 80 s against 2 s).
const SeatsDistributionSeconds = 5

// hasSeatsDistribution reports whether the solver gives every seat's score distribution of a
// seating of three or more seats at n pairs (exact.SeatsScoreDistribution): the pairs objective
// under perfect memory, limited memory of a fixed capacity (lru, handover-uniform), a fluctuating
// capacity or decay forgetting, and under a turn limit; a seating in which a seat plays to win
// with perfect memory, without a turn limit (exact.CheckSeatsDistribution); each within
// SeatsDistributionSeconds.
func hasSeatsDistribution(model exact.Model, mu exact.Lineup, n int) bool {
	if mu.Players < 3 || n > DistributionLimit || exact.CheckSeatsDistribution(model, mu) != nil {
		return false
	}
	c, err := exact.Estimate(model, mu, n, exact.Options{Call: exact.CallDistribution, Float: true})
	return err == nil && c.Seconds() <= SeatsDistributionSeconds
}

// seatsDistributionChecks compares every seat's distribution of its share in one seat order's
// tally with the exact one, by a G test per seat ("/distribution seat s"), bins pooled up to
// minExpected games as the two-seat test pools them. The solver gives each seat's distribution
// (its marginal), not their joint distribution, so the tests are one per seat; they are
// dependent (the seats' shares add up to the pairs dealt), and the Holm correction across the
// suite, which Validate applies, bounds the family-wise error rate under any dependence. No
// seat's marginal follows from the others' (only their joint would give it), so none is left out.
// swap (the negative control) tests seat s against seat s+1's distribution (the last seat
// against seat 0's).
func seatsDistributionChecks(ctx context.Context, model exact.Model, mu exact.Lineup, n int, tally *sim.Tally, swap bool) ([]Check, error) {
	st := rules.State{N: n, J: n, S: model.Singletons, F: model.Singletons}
	d, err := exact.SeatsScoreDistribution(ctx, field.Float{}, model, mu, st)
	if err != nil {
		return nil, fmt.Errorf("every seat's exact distribution: %w", err)
	}
	var out []Check
	for s := range mu.Players {
		want := d.Prob[s]
		if swap {
			want = d.Prob[(s+1)%mu.Players]
		}
		prob, err := sharesOfTally(want, d.Unit, tally)
		if err != nil {
			return nil, fmt.Errorf("seat %d: %w", s, err)
		}
		observed := make([]float64, len(tally.Share[s]))
		for i, c := range tally.Share[s] {
			observed[i] = float64(c)
		}
		if g, ok := stats.GTest(observed, prob, minExpected); ok {
			df := g.DF
			out = append(out, Check{Name: fmt.Sprintf("/distribution seat %d", s), Test: "G", Statistic: finite(g.G), Df: &df, PValue: g.P})
		}
	}
	return out, nil
}

// sharesOfTally spreads a distribution of shares in units of 1/unit pairs (prob[i]: a share of
// i/unit pairs) over the bins of a tally, whose shares count in 1/tally.Seats pairs: a bin no
// share falls on has probability 0.
func sharesOfTally(prob []float64, unit int, tally *sim.Tally) ([]float64, error) {
	bins := tally.Pairs*tally.Seats + 1
	if unit < 1 || tally.Seats%unit != 0 || len(prob) != tally.Pairs*unit+1 {
		return nil, fmt.Errorf("a distribution of %d shares in 1/%d pairs does not fit a tally of %d pairs in 1/%d pairs", len(prob), unit, tally.Pairs, tally.Seats)
	}
	out := make([]float64, bins)
	step := tally.Seats / unit
	for i, p := range prob {
		out[i*step] = p
	}
	return out, nil
}
