package strategies

import (
	"context"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctSeatsTable returns the table of the optimum of every seat for itself at mu.Players seats
// under the fluctuating capacity of model m: a layer per capacity drawn, in exact rationals up
// to limit pairs, float64 beyond.
func fluctSeatsTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs, limit int) (*rules.ChoiceTable, error) {
	if maxPairs <= limit {
		return exact.FluctSelfishTable(ctx, field.Rat{}, m, mu.Players, maxPairs)
	}
	return exact.FluctSelfishTable(ctx, field.Float{}, m, mu.Players, maxPairs)
}
