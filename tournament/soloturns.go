package tournament

import (
	"context"
	"errors"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/analysis/stats"
	"memsim/sim"
	"memsim/sim/rules"
)

// soloTurnsCheck is the G test of a solitaire tally's counts of games by their length
// (sim.Tally.Turns) against the exact distribution of the number of turns (exact.SolitaireTurns):
// one bin per number of turns below the tally's last, whose exact mass is the probability of
// that many turns or more; bins expecting fewer than minExpected games are pooled in order. It
// reports false where there is nothing to test: a model whose distribution the solver does not
// give, a tally without the counts, or a length that every game has. spread, a negative control,
// replaces the exact distribution by its mixture with itself a turn earlier and a turn later
// (half each): the same mean, a wider distribution, which the check must reject.
func soloTurnsCheck(ctx context.Context, model exact.Model, p rules.Policy, st rules.State, tally *sim.Tally, spread bool) (Check, bool, error) {
	if tally.Turns == nil || exact.CheckSolitaireTurnsOf(model) != nil {
		return Check{}, false, nil
	}
	last := len(tally.Turns) - 1
	if last < 1 {
		return Check{}, false, errors.New("solitaire's counts of games by their length: fewer than two bins")
	}
	d, err := exact.SolitaireTurns(ctx, field.Float{}, model, p, st, last)
	if err != nil {
		return Check{}, false, err
	}
	prob := make([]float64, last+1)
	copy(prob, d.Prob[:last])
	prob[last] = max(0, d.Prob[last]+d.Tail) // last turns or more
	if spread {
		wide := make([]float64, len(prob))
		for t, x := range prob {
			if t > 0 {
				wide[t-1] += x / 2
			}
			wide[min(t+1, last)] += x / 2
		}
		prob = wide
	}
	observed := make([]float64, len(tally.Turns))
	for t, c := range tally.Turns {
		observed[t] = float64(c)
	}
	g, ok := stats.GTest(observed, prob, minExpected)
	if !ok {
		return Check{}, false, nil
	}
	df := g.DF
	return Check{Name: "/distribution of turns", Test: "G", Statistic: finite(g.G), Df: &df, PValue: g.P}, true, nil
}
