package main

import (
	"context"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
)

// This file holds solitaire's distribution of the number of turns with k copies of a face
// (memsim solve --copies K --players 1 --distribution), docs/models.md §4.8 and §4.16.

// copiesSolitaireTurns checks --distribution and --turns-max with --copies: with one player the
// distribution of the number of turns, from the start of a game, with perfect memory and no turn
// limit; with more, the score distribution (checked by solveCopies).
func (q *solveQuery) copiesSolitaireTurns(fl solveFlags, set map[string]bool, st exact.CopiesState) error {
	solo := q.dist && q.matchup.Players == 1
	if set["turns-max"] && !solo {
		return usagef("--turns-max goes with --distribution --players 1 (solitaire's distribution of the number of turns)")
	}
	if set["turns-max"] && fl.turnsMax < 1 {
		return usagef("--turns-max %d: must be at least 1", fl.turnsMax)
	}
	if !solo {
		return nil
	}
	if err := exact.CheckSolitaireTurnsOf(q.model); err != nil {
		return usagef("--distribution with --players 1 --copies %d: %v", st.Copies(), err)
	}
	start, err := exact.StartCopiesState(st.Pairs(), st.Copies())
	if err != nil {
		return usagef("--pairs %d: %v", st.Pairs(), err)
	}
	if st.String() != start.String() {
		return usagef("--faces %q with --distribution --players 1: the distribution of the number of turns is computed from the start of a game (leave --faces out, give --pairs)", st.String())
	}
	q.turnsMax = fl.turnsMax
	return nil
}

// copiesTurnsDistribution returns solitaire's distribution of the number of turns from the start
// of a game of st's pairs with k copies of a face, up to --turns-max (default
// exact.DefaultMaxTurns).
func copiesTurnsDistribution[T any](ctx context.Context, f field.Field[T], q *solveQuery, st exact.CopiesState) (*answer.TurnsDistribution, error) {
	rs := st.RulesState()
	maxTurns := q.turnsMax
	if maxTurns == 0 {
		maxTurns = exact.DefaultMaxTurns(rs.N, rs.S)
	}
	d, err := exact.SolitaireTurns(ctx, f, q.model, q.matchup.Policy, rs, maxTurns)
	if err != nil {
		return nil, err
	}
	out := &answer.TurnsDistribution{MaxTurns: d.MaxTurns, More: answer.NumberOf(f, d.Tail)}
	for t, p := range d.Prob {
		out.Turns = append(out.Turns, answer.TurnsPoint{Turns: t, Probability: answer.NumberOf(f, p)})
	}
	return out, nil
}
