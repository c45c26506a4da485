package answer

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// SolveCapacity is SolveWith under a fluctuating capacity (docs/models.md §4.4) with capacity c
// drawn for seat 0's turn in st, the state after the draw (exact.FluctChoiceValues): the lineup's
// value there, every legal choice's, and with o.First the value of making that choice now. The
// score distribution is not given after a draw (o.Distribution is refused). Under the pass rules
// two-known and always o.AfterPass values the state just after a pass by the other seat
// (exact.FluctChoiceValuesAfterPass).
func SolveCapacity[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st rules.State, c int, o Options) (*Result, error) {
	if o.Distribution {
		return nil, fmt.Errorf("the score distribution is computed before the capacity is drawn, not with capacity %d drawn", c)
	}
	values := exact.FluctChoiceValues[T]
	if o.AfterPass {
		values = exact.FluctChoiceValuesAfterPass[T]
	}
	cs, err := values(ctx, f, m, mu, st, c)
	if err != nil {
		return nil, err
	}
	value := cs.Value
	if o.First != nil {
		v, ok := cs.Of(*o.First)
		if !ok {
			return nil, fmt.Errorf("%s is not legal in %v", *o.First, st)
		}
		value = exact.Result[T]{State: st, Players: mu.Players, ExpectedPairs: v.Pairs, ExpectedLead: v.Lead, PairsBySeat: v.PairsBySeat}
	}
	out := resultOf(f, m, mu, st, value)
	out.Model.Capacity, out.Model.AfterPass = c, o.AfterPass
	if o.First != nil {
		out.Model.First = o.First.String()
	}
	if o.Choices {
		out.ChoiceValues = choiceValuesOf(f, m, mu, cs)
		out.ChoiceValues.WinLeftOut = o.WinLeftOut
	}
	return out, nil
}
