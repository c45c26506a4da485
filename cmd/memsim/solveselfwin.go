package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
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

// selfWin reports whether the request is win-optimal at three or more seats (at every seat or at
// some, --seats), or asks for every seat's P(most pairs) from --standings.
func (q *solveQuery) selfWin() bool {
	if q.standings != nil {
		return true
	}
	if q.matchup.Players < 3 {
		return false
	}
	for _, p := range q.matchup.SeatPolicies() {
		if p.PlaysToWin() {
			return true
		}
	}
	return false
}

// samePolicy reports whether every seat of the request plays one policy.
func (q *solveQuery) samePolicy() bool {
	pol := q.matchup.SeatPolicies()
	for _, p := range pol {
		if p != pol[0] {
			return false
		}
	}
	return true
}

// setStandings checks --standings, every seat's pairs so far, seat 0's first, against the request.
func (q *solveQuery) setStandings(list string) error {
	mu := q.matchup
	ok := mu.Players >= 3 && !mu.TwoPlayerOptimal
	for _, p := range mu.SeatPolicies() {
		ok = ok && (p == rules.PolicyWinOptimal || p == rules.PolicyOptimal || p.Fixed())
	}
	if !ok {
		return usagef("--standings goes with --players P (3 or more) and one policy at every seat, or --seats, each win-optimal, optimal, safe, daring or parity (2 players: --lead)")
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
	if q.dist {
		if err := answer.AddSeatsDistribution(ctx, f, q.model, q.matchup, q.state, q.standings, res); err != nil {
			return err
		}
	}
	if q.json {
		return json.NewEncoder(w).Encode(res)
	}
	fmt.Fprintf(w, "%s, %s memory, pass %s%s%s, %s arithmetic\n", q.state.Counts(), q.model.Memory, q.model.Pass,
		choicesNote(q.model.Choices), variantNote(q.model.Variant), res.Model.Arithmetic)
	writeSelfWinBody(q, res, w)
	return nil
}

// writeSelfWinBody writes the values res of a lineup of three or more seats in which a seat
// plays to win, after the line that names the state and the model.
func writeSelfWinBody(q *solveQuery, res *answer.SelfWin, w io.Writer) {
	standings := make([]string, len(res.Standings))
	for i, v := range res.Standings {
		standings[i] = strconv.Itoa(v)
	}
	pol := q.matchup.Policy
	play := "every seat " + pol.String()
	after := pol.String() + " for every seat"
	switch {
	case !q.samePolicy():
		play = "seats " + strings.ReplaceAll(seatNames(q.matchup), ",", ", ")
		if strings.Contains(play, rules.PolicyWinOptimal.String()) {
			play += " (win-optimal maximises its own P(most pairs), a tie for the most shared)"
		}
		after = "every seat's own policy"
	case pol == rules.PolicyWinOptimal:
		play += " (each maximises its own P(most pairs), a tie for the most shared)"
	case pol == rules.PolicyOptimal:
		play += " (each maximises its own expected pairs)"
	}
	fmt.Fprintf(w, "%d players, %s; pairs so far %s (seat 0 first)\n", q.matchup.Players, play, strings.Join(standings, ","))
	if q.first != nil {
		if q.samePolicy() {
			fmt.Fprintf(w, "seat 0 (to move) plays %s now, then %s like every seat\n", *q.first, pol)
		} else {
			fmt.Fprintf(w, "seat 0 (to move) plays %s now, then %s\n", *q.first, after)
		}
	}
	for i := range res.ScoreBySeat {
		fmt.Fprintf(w, "seat %d: P(most pairs) %s; alone %s, tied %s\n", i, human(res.ScoreBySeat[i]), human(res.WinBySeat[i]), human(res.DrawBySeat[i]))
	}
	for i, v := range res.ExpectedBySeat {
		fmt.Fprintf(w, "expected pairs, seat %d: %s\n", i, human(v))
	}
	if res.SeatDistributions != nil && q.standings != nil {
		fmt.Fprintf(w, "score distributions: each seat's share of the %d pairs left, its pairs so far not counted\n", q.state.N)
	}
	writeSeatShares(res.SeatDistributions, w)
	cv := res.ChoiceValues
	if cv == nil {
		return
	}
	fmt.Fprintf(w, "seat 0's legal choices (of {%s}), each played now, then %s afterwards:\n",
		strings.ReplaceAll(cv.Choices, ",", ", "), after)
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
}

// selfWinCost returns the estimated cost of the request, win-optimal at three or more seats.
// Another policy than win-optimal sweeps the same states, following its table; a lineup of
// several policies sweeps them once per mover's seat.
func (q *solveQuery) selfWinCost() (exact.Cost, error) {
	c, err := q.selfWinValuesCost()
	if err != nil || !q.dist {
		return c, err
	}
	d, err := exact.Estimate(q.model, q.matchup, q.state.N, exact.Options{Call: exact.CallDistribution, Float: q.float})
	return c.Then(d), err
}

// selfWinValuesCost returns the estimated cost of the values of the request, win-optimal at three
// or more seats.
func (q *solveQuery) selfWinValuesCost() (exact.Cost, error) {
	if !q.samePolicy() {
		return exact.Estimate(q.model, q.matchup, q.state.N, exact.Options{Call: exact.CallEvaluate, Float: q.float})
	}
	mu := exact.Lineup{Players: q.matchup.Players, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	c, err := exact.Estimate(q.model, mu, q.state.N, exact.Options{Call: exact.CallEvaluate, Float: q.float})
	if err != nil || q.matchup.Policy == rules.PolicyWinOptimal {
		return c, err
	}
	t, err := exact.Estimate(q.model, q.matchup, q.state.N, exact.Options{Call: exact.CallPolicyTable, Float: q.float})
	return t.Then(c), err
}
