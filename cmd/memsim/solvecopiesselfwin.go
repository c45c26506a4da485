package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds memsim solve --copies K --players P with a seat playing to win, P of 3 or
// more: the win objective of every seat for itself under k copies of a face (docs/models.md
// §4.7, §4.16), from the start of a game or --faces, and --standings, under a turn limit too.

// The largest number of values (exact.CopiesSelfWinCells) memsim solve --copies K --players P
// (3 or more) --policy win-optimal solves without --big, in exact rationals and in float64: about
// 30 s on one core (copies 4, 3 seats: 20 pairs exact, 1.45 million, 26 s; 32 pairs float64,
// 16.8 million, 19 s).
const (
	copiesSelfWinBigCells      = 1500000
	copiesSelfWinBigFloatCells = 25000000
)

// solveCopiesSelfWin answers the request q, a lineup of three or more seats with a seat playing
// to win, in the copies model from the state of faces st.
func solveCopiesSelfWin(ctx context.Context, fl solveFlags, q *solveQuery, st exact.CopiesState, set map[string]bool, inv invocation) error {
	if set["standings"] {
		if err := q.setStandings(fl.standings); err != nil {
			return err
		}
	}
	if err := exact.CheckCopiesSelfWin(q.model, q.matchup); err != nil {
		return usagef("--copies %d --players %d: %v", st.Copies(), q.matchup.Players, err)
	}
	limit := int64(copiesSelfWinBigCells)
	if fl.float {
		limit = copiesSelfWinBigFloatCells
	}
	tl := q.model.Variant.TurnLimit
	s := exact.CopiesSelfWinLimitCells(st.Pairs(), st.Copies(), q.matchup.Players, !q.samePolicy(), tl, q.model.Pass)
	what := "count states times standings"
	switch {
	case tl > 0 && q.model.Pass != rules.PassNever:
		what += ", turns left and pass streaks"
	case tl > 0:
		what += " and turns left"
	case q.model.Pass != rules.PassNever:
		what += " and pass streaks"
	}
	if !fl.big && (s < 0 || s > limit) {
		return usagef("--pairs %d with --copies %d --players %d%s: about %d %s, more than %d (estimated more than 30 s; --big solves it anyway%s)",
			st.Pairs(), st.Copies(), q.matchup.Players, turnLimitNote(tl), s, what, limit, map[bool]string{false: ", or use --float", true: ""}[fl.float])
	}
	out := checkedStdout(inv.stdout)
	var err error
	if fl.float {
		err = writeCopiesSelfWin(ctx, field.Float{}, q, st, out)
	} else {
		err = writeCopiesSelfWin[*big.Rat](ctx, field.Rat{}, q, st, out)
	}
	return out.result(err)
}

// writeCopiesSelfWin solves and writes the values of the request q, as text or JSON.
func writeCopiesSelfWin[T any](ctx context.Context, f field.Field[T], q *solveQuery, st exact.CopiesState, w io.Writer) error {
	res, err := answer.SolveCopiesSelfWin(ctx, f, q.model, q.matchup, st, q.standings, q.first, q.choices)
	if err != nil {
		return err
	}
	if q.json {
		return json.NewEncoder(w).Encode(res)
	}
	fmt.Fprintf(w, "copies %d, %d pairs, faces %s, perfect memory, pass %s%s%s%s, %s arithmetic\n",
		st.Copies(), st.Pairs(), st.String(), q.model.Pass, choicesNote(q.model.Choices), blindText(q.model.Variant.Flips), turnLimitText(q.model.Variant.TurnLimit), res.Model.Arithmetic)
	writeSelfWinBody(q, res, w)
	return nil
}
