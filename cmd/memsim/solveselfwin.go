package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds memsim solve --players P --policy win-optimal with P of 3 or more: the win
// objective of every seat for itself (docs/models.md §4.7), from a state and the seats' pairs so
// far (--standings).

// selfWin reports whether the request is win-optimal at three or more seats, or asks for every
// seat's P(most pairs) from --standings.
func (q *solveQuery) selfWin() bool {
	return (q.matchup.Players >= 3 && !q.matchup.PerSeat && q.matchup.Policy.PlaysToWin()) || q.standings != nil
}

// setStandings checks --standings, every seat's pairs so far, seat 0's first, against the request.
func (q *solveQuery) setStandings(list string) error {
	mu := q.matchup
	if mu.Players < 3 || mu.PerSeat || mu.Policy != mu.Opponent || mu.TwoPlayerOptimal ||
		(mu.Policy != rules.PolicyWinOptimal && mu.Policy != rules.PolicyOptimal && !mu.Policy.Fixed()) {
		return usagef("--standings goes with --players P (3 or more) and one policy at every seat: win-optimal, optimal, safe, daring or parity (2 players: --lead)")
	}
	parts := strings.Split(list, ",")
	if len(parts) != q.matchup.Players {
		return usagef("--standings %q: %d counts, need one per seat (%d)", list, len(parts), q.matchup.Players)
	}
	q.standings = make([]int, len(parts))
	for i, s := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 0 || v > exact.MaxLead {
			return usagef("--standings %q: seat %d: %q is not a count of pairs (0 to %d)", list, i, s, exact.MaxLead)
		}
		q.standings[i] = v
	}
	return nil
}

// writeSelfWin solves and writes win-optimal's values at three or more seats.
func writeSelfWin[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	res, err := answer.SolveSelfWin(ctx, f, q.model, q.matchup, q.state, q.standings, q.first, q.choices)
	if err != nil {
		return err
	}
	if q.json {
		return json.NewEncoder(w).Encode(res)
	}
	fmt.Fprintf(w, "%s, %s memory, pass %s%s, %s arithmetic\n", q.state.Counts(), q.model.Memory, q.model.Pass,
		choicesNote(q.model.Choices), res.Model.Arithmetic)
	standings := make([]string, len(res.Standings))
	for i, v := range res.Standings {
		standings[i] = strconv.Itoa(v)
	}
	pol := q.matchup.Policy
	play := "every seat " + pol.String()
	switch pol {
	case rules.PolicyWinOptimal:
		play += " (each maximises its own P(most pairs), a tie for the most shared)"
	case rules.PolicyOptimal:
		play += " (each maximises its own expected pairs)"
	}
	fmt.Fprintf(w, "%d players, %s; pairs so far %s (seat 0 first)\n", q.matchup.Players, play, strings.Join(standings, ","))
	if q.first != nil {
		fmt.Fprintf(w, "seat 0 (to move) plays %s now, then %s like every seat\n", *q.first, pol)
	}
	for i := range res.ScoreBySeat {
		fmt.Fprintf(w, "seat %d: P(most pairs) %s; alone %s, tied %s\n", i, human(res.ScoreBySeat[i]), human(res.WinBySeat[i]), human(res.DrawBySeat[i]))
	}
	for i, v := range res.ExpectedBySeat {
		fmt.Fprintf(w, "expected pairs, seat %d: %s\n", i, human(v))
	}
	cv := res.ChoiceValues
	if cv == nil {
		return nil
	}
	fmt.Fprintf(w, "seat 0's legal choices (of {%s}), each played now, then %s for every seat afterwards:\n",
		strings.ReplaceAll(cv.Choices, ",", ", "), pol)
	for _, v := range cv.Values {
		note := ", best"
		switch {
		case len(cv.Values) == 1:
			note = ", the only legal choice"
		case !v.Best:
			note = fmt.Sprintf(", %s less", human(answer.Number{Exact: strings.TrimPrefix(v.VsBest.Exact, "-"), Float: -v.VsBest.Float}))
		}
		fmt.Fprintf(w, "  %-12s P(most pairs) %s%s\n", v.Choice+":", human(v.ScoreBySeat[0]), note)
	}
	fmt.Fprintf(w, "best: %s to win (%s plays %s)\n", strings.Join(cv.Best, ", "), pol, cv.PolicyChoice)
	return nil
}

// selfWinCost returns the estimated cost of the request, win-optimal at three or more seats.
// Another policy than win-optimal sweeps the same states, following its table.
func (q *solveQuery) selfWinCost() (exact.Cost, error) {
	mu := exact.Lineup{Players: q.matchup.Players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	c, err := exact.Estimate(q.model, mu, q.state.N, exact.Options{Call: exact.CallEvaluate, Float: q.float})
	if err != nil || q.matchup.Policy == rules.PolicyWinOptimal {
		return c, err
	}
	t, err := exact.Estimate(q.model, q.matchup, q.state.N, exact.Options{Call: exact.CallPolicyTable, Float: q.float})
	return t.Then(c), err
}
