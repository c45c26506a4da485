package answer

import (
	"context"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// SolveCopiesSelfWin is SolveSelfWin in the copies model (docs/models.md §4.16): the values of
// lineup mu, mu.Players (3 or more) seats of which one or more plays to win
// (exact.EvaluateCopiesSelfWin), from the state of faces st, the seats having taken standings
// pairs so far (nil: none). Model.Copies gives the cards of a face, Model.Faces the state.
func SolveCopiesSelfWin[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, st exact.CopiesState, standings []int, first *rules.Choice, choices bool) (*SelfWin, error) {
	res, err := exact.EvaluateCopiesSelfWin(ctx, f, m, mu, st, standings)
	if err != nil {
		return nil, err
	}
	out, err := selfWinOf(f, m, mu, res, first, choices)
	if err != nil {
		return nil, err
	}
	out.Model.Copies, out.Model.Faces = st.Copies(), st.String()
	return out, nil
}
