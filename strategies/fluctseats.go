package strategies

import (
	"context"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctSeatsTable returns the table of the optimum of every seat for itself at mu.Players seats
// under the fluctuating capacity of model m, or of best-response to mu.Opponent at every other
// seat: a layer per capacity drawn, in exact rationals up to limit pairs, float64 beyond.
func fluctSeatsTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs, limit int) (*rules.ChoiceTable, error) {
	if mu.Policy == rules.PolicyBestResponse {
		if maxPairs <= limit {
			return exact.FluctSeatsReplyTable(ctx, field.Rat{}, m, mu.Players, mu.Opponent, maxPairs)
		}
		return exact.FluctSeatsReplyTable(ctx, field.Float{}, m, mu.Players, mu.Opponent, maxPairs)
	}
	if maxPairs <= limit {
		return exact.FluctSelfishTable(ctx, field.Rat{}, m, mu.Players, maxPairs)
	}
	return exact.FluctSelfishTable(ctx, field.Float{}, m, mu.Players, maxPairs)
}
