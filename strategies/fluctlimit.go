package strategies

import (
	"context"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctLimitTable returns the table of seat 0 of lineup mu (optimal or best-response; at three to
// eight seats every seat's own optimum, or best-response to the other seats) under the fluctuating
// capacity and the turn limit of model m: a layer per capacity drawn, each a layer per turn left
// (exact.FluctLimitTables, exact.FluctLimitSeatsTables, whose layers under a pass rule hold the
// choice at every pass streak), in exact rationals up to limit pairs and in float64 beyond.
func fluctLimitTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs, limit int) (*rules.ChoiceTable, error) {
	var lo int
	var layers [][]*rules.ChoiceTable
	var err error
	switch {
	case mu.Players > 2 && maxPairs <= limit:
		lo, layers, err = exact.FluctLimitSeatsTables(ctx, field.Rat{}, m, mu, maxPairs)
	case mu.Players > 2:
		lo, layers, err = exact.FluctLimitSeatsTables(ctx, field.Float{}, m, mu, maxPairs)
	case maxPairs <= limit:
		lo, layers, err = exact.FluctLimitTables(ctx, field.Rat{}, m, mu, maxPairs)
	default:
		lo, layers, err = exact.FluctLimitTables(ctx, field.Float{}, m, mu, maxPairs)
	}
	if err != nil {
		return nil, err
	}
	byCap := make([]*rules.ChoiceTable, len(layers))
	for i, turns := range layers {
		if byCap[i], err = rules.NewTurnChoiceTable(turns); err != nil {
			return nil, err
		}
	}
	return rules.NewCapacityChoiceTable(lo, byCap)
}

// fluctLimited reports whether model m is a fluctuating capacity under a turn limit, which the
// model alone does not validate (its matchups do, exact.Lineup.Validate; tableModel has checked
// the player's).
func fluctLimited(m exact.Model) bool { return m.Memory.Fluctuation > 0 && m.Variant.TurnLimit > 0 }
