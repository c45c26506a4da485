package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// choicesNote describes a restricted choice set for text output ("" for the full game).
func choicesNote(s rules.ChoiceSet) string {
	if s.Full() {
		return ""
	}
	return ", choices {" + strings.ReplaceAll(s.String(), ",", ", ") + "}"
}

// variantNote describes a rule variant for text output ("" for the standard game), for example
// ", blind flips, turn limit 52".
func variantNote(v rules.Variant) string {
	if v.Standard() {
		return ""
	}
	return ", " + v.String()
}

// human formats a value for people: a decimal and the exact fraction, whole, or where it is longer
// than maxShownFraction a pointer to --json, which prints every fraction whole.
func human(n answer.Number) string {
	s := strconv.FormatFloat(n.Float, 'f', 6, 64)
	switch e := n.Exact; {
	case e == "" || e == s:
	case len(e) <= maxShownFraction:
		s += " (" + e + ")"
	default:
		s += fmt.Sprintf(" (exactly a fraction of %d characters: see --json)", len(e))
	}
	return s
}

// maxShownFraction is the longest exact fraction the text output prints whole.
const maxShownFraction = 200

func writeResultText(q *solveQuery, res *answer.Result, w io.Writer) error {
	fmt.Fprintf(w, "%s, %s memory, pass %s%s%s, %s arithmetic\n", q.state, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices),
		variantNote(q.model.Variant), res.Model.Arithmetic)
	mu := q.matchup
	switch {
	case q.capacity > 0 && q.afterPass:
		fmt.Fprintf(w, "capacity %d drawn for seat 0's turn, just after a pass by seat 1\n", q.capacity)
	case q.capacity > 0 && mu.Players > 2 && q.model.Pass != rules.PassNever:
		fmt.Fprintln(w, streakLine(q.capacity, q.streak, mu.Players))
	case q.capacity > 0:
		fmt.Fprintf(w, "capacity %d drawn for seat 0's turn\n", q.capacity)
	}
	fmt.Fprintln(w, seatsLine(q))
	if mu.Players == 1 {
		if res.ExpectedPairs != nil {
			fmt.Fprintf(w, "expected pairs taken:   %s\n", human(*res.ExpectedPairs))
		}
		fmt.Fprintf(w, "expected turns:         %s\n", human(*res.ExpectedTurns))
		fmt.Fprintf(w, "expected lucky matches: %s\n", human(*res.ExpectedLucky))
		if res.TurnsDistribution != nil {
			writeTurnsText(res.TurnsDistribution, w)
		}
		if res.ChoiceValues != nil {
			writeChoicesText(q, res.ChoiceValues, w)
		}
		return nil
	}
	for i, v := range res.ExpectedBySeat {
		fmt.Fprintf(w, "expected pairs, seat %d: %s\n", i, human(v))
	}
	if mu.Players == 2 {
		fmt.Fprintf(w, "expected lead, seat 0:  %s\n", human(*res.ExpectedLead))
	}
	if res.Win != nil {
		fmt.Fprintf(w, "seat 0 wins %s, draws %s, loses %s\n", human(*res.Win), human(*res.Draw), human(*res.Loss))
		fmt.Fprintf(w, "seat 0's score (a win 1, a draw 1/2): %s\n", human(*res.Score))
	}
	for _, p := range res.ScoreDistribution {
		if p.Probability.Float != 0 {
			fmt.Fprintf(w, "  share %4.1f: %s\n", p.Share, human(p.Probability))
		}
	}
	writeSeatShares(res.SeatDistributions, w)
	if res.ChoiceValues != nil {
		writeChoicesText(q, res.ChoiceValues, w)
	}
	return nil
}

// writeSeatShares writes every seat's distribution of its share at three or more seats, the
// shares of probability 0 left out.
func writeSeatShares(seats []answer.SeatShares, w io.Writer) {
	for _, sd := range seats {
		fmt.Fprintf(w, "score distribution, seat %d:\n", sd.Seat)
		for _, p := range sd.Shares {
			if p.Probability.Float != 0 {
				fmt.Fprintf(w, "  share %s: %s\n", seatShareText(p.Share), human(p.Probability))
			}
		}
	}
}

// seatShareText writes a share of a seat at three or more seats: whole pairs as %4.1f does, a
// share after a stalemate to four decimals.
func seatShareText(x float64) string {
	if x == math.Trunc(x) || 2*x == math.Trunc(2*x) {
		return fmt.Sprintf("%4.1f", x)
	}
	return fmt.Sprintf("%.4f", x)
}

// choiceLetters abbreviates the choices in the text of a win table.
var choiceLetters = [rules.NumChoices]byte{rules.Daring: 'D', rules.Safe: 'S', rules.KnownFirst: 'K', rules.Pass: 'P'}

func runQuery[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	if q.table && q.matchup.Players == 1 && q.model.Memory.Fluctuation > 0 {
		return writeFluctSoloTable(ctx, q, f, w) // solvefluctsolo.go
	}
	if q.table && q.matchup.Players == 1 {
		return writeSolitaireTable(ctx, q, f, w) // solvesolodist.go
	}
	if q.selfWin() && !q.table {
		return writeSelfWin(ctx, q, f, w)
	}
	if q.table && q.selfWin() && q.model.Memory.Fluctuation > 0 {
		return writeFluctSelfWinTable(ctx, q, f, w)
	}
	if q.table && q.matchup.Players >= 3 && q.model.Memory.Fluctuation > 0 && q.model.Variant.TurnLimit > 0 {
		return writeFluctLimitSeatsTable(ctx, q, f, w) // solvefluctlimitseats.go
	}
	if q.table && q.matchup.Players >= 3 && q.model.Memory.Fluctuation > 0 {
		return writeFluctSeatsTable(ctx, q, f, w)
	}
	if q.table && q.matchup.Players >= 3 {
		return writeSeatsTable(ctx, q, f, w)
	}
	if q.policyTableText() {
		return writePolicyTable(ctx, q, f, w) // solvepolicytable.go
	}
	if q.table && q.matchup.Policy.PlaysToWin() && q.model.Memory.Fluctuation > 0 {
		return writeFluctWinTable(ctx, q, f, w)
	}
	if q.table && q.matchup.Policy.PlaysToWin() {
		return writeWinTable(ctx, q, f, w)
	}
	if q.table && q.model.Memory.Fluctuation > 0 {
		return writeFluctTable(ctx, q, f, w)
	}
	if q.table {
		return writeTable(ctx, q, f, w)
	}
	o := answer.Options{Distribution: q.dist, MaxTurns: q.turnsMax, Choices: q.choices, WinLineup: q.winLineup, WinLeftOut: q.winLeftOut, First: q.first, AfterPass: q.afterPass, Streak: q.streak}
	var res *answer.Result
	var err error
	if q.capacity > 0 {
		res, err = answer.SolveCapacity(ctx, f, q.model, q.matchup, q.state, q.capacity, o)
	} else {
		res, err = answer.SolveWith(ctx, f, q.model, q.matchup, q.state, o)
	}
	if err != nil {
		return err
	}
	if q.json {
		return json.NewEncoder(w).Encode(res)
	}
	return writeResultText(q, res, w)
}
