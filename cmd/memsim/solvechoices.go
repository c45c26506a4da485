package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/sim/rules"
)

// This file holds what memsim solve says about the choices of the state: --first, the check of
// the choice it names, and the list of every legal choice's value ("what should I play here?")
// with its values to win, in text.

// setFirst checks --first name: a choice legal in the state, with the values the policies' own
// (no score distribution).
func (q *solveQuery) setFirst(name string) error {
	c, err := rules.ParseChoice(name)
	if err != nil {
		return usagef("--first %q: unknown choice (allowed: %s)", name, choiceList(rules.FullChoices))
	}
	if q.dist {
		return usagef("--first with --distribution: the score distribution is of the policies' own choices (leave out one of the two)")
	}
	var legal []string
	for _, l := range rules.Choices() {
		if q.model.Legal(q.state, l) {
			legal = append(legal, l.String())
		}
	}
	switch {
	case !q.model.Choices.Has(c):
		return usagef("--first %s: not in --choices %s (legal in %v: %s)", c, q.model.Choices, q.state, strings.Join(legal, ", "))
	case !q.model.Legal(q.state, c):
		return usagef("--first %s: not legal in %v with pass %s (legal there: %s)", c, q.state, q.model.Pass, strings.Join(legal, ", "))
	}
	q.first = &c
	return nil
}

// winChoicesSeconds is the most the values to win of the choices may be estimated to take on one
// core (exact.Cost.Seconds) for solve to compute them without --big.
const winChoicesSeconds = 5

// planWinChoices decides, for two players, whether the list of choices gives their values to
// win, with the lineup answer.WinLineupOf names afterwards: when that is within the solver's
// bounds and its estimated cost within winChoicesSeconds and bigBytes, or big; otherwise
// winLeftOut says why not.
func (q *solveQuery) planWinChoices(big bool) {
	if !q.choices || q.matchup.Players != 2 {
		return
	}
	wl := answer.WinLineupOf(q.matchup)
	if wl == q.matchup {
		// The lineup plays to win: its values to win are computed anyway.
		q.winLineup = &wl
		return
	}
	var se *exact.SizeError
	if err := exact.CheckSize(q.model, wl, q.state.N, q.float); errors.As(err, &se) {
		q.winLeftOut = fmt.Sprintf("%d pairs: play to win is solved for at most %d", se.Pairs, se.MaxPairs)
		if !se.TooManyPairs() {
			q.winLeftOut = fmt.Sprintf("%.0f states with the leads, at most %.0f", se.States, se.MaxStates)
		}
		if !q.float {
			q.winLeftOut += " in exact arithmetic; --float goes further"
		}
		return
	} else if err != nil {
		q.winLeftOut = err.Error()
		return
	}
	c, err := exact.Estimate(q.model, wl, q.state.N, exact.Options{Call: exact.CallWinDrawLoss, Float: q.float})
	switch {
	case err != nil:
		q.winLeftOut = err.Error()
	case !big && (c.Seconds() > winChoicesSeconds || c.Bytes > bigBytes):
		q.winLeftOut = fmt.Sprintf("about %s and %s on one core; --big computes them", duration(c.Seconds()), byteSize(c.Bytes))
		if !q.float {
			f, err := exact.Estimate(q.model, wl, q.state.N, exact.Options{Call: exact.CallWinDrawLoss, Float: true})
			if err == nil && f.Seconds() <= winChoicesSeconds && f.Bytes <= bigBytes {
				q.winLeftOut += ", and so does --float"
			}
		}
	default:
		q.winLineup, q.winCost = &wl, c
	}
}

// choiceList names the choices of s for people: "daring, safe, known-first, pass".
func choiceList(s rules.ChoiceSet) string {
	return strings.ReplaceAll(s.String(), ",", ", ")
}

// seatsLine says who plays: seat 0's policy (its choice now first, with --first) and the other
// seats', and where the latter comes from when --opponent was not given.
func seatsLine(q *solveQuery) string {
	mu := q.matchup
	mover := mu.Policy.String()
	if q.first != nil {
		mover = fmt.Sprintf("%s now, then %s", q.first, mover)
	}
	if mu.Players == 1 {
		return fmt.Sprintf("solitaire: seat 0 plays %s, alone", mover)
	}
	note := ""
	if mu.TwoPlayerOptimal {
		note = " (optimal: the two-player optimum's choices)"
	}
	if mu.PerSeat {
		pols := mu.SeatPolicies()
		rest := make([]string, 0, len(pols)-1)
		for i, p := range pols[1:] {
			rest = append(rest, fmt.Sprintf("seat %d %s", i+1, p))
		}
		return fmt.Sprintf("%d players: seat 0 (to move) plays %s; %s%s", mu.Players, mover, strings.Join(rest, ", "), note)
	}
	others, verb := "seat 1", "plays"
	switch {
	case mu.Players == 3:
		others, verb = "seats 1 and 2", "play"
	case mu.Players > 3:
		others, verb = fmt.Sprintf("seats 1 to %d", mu.Players-1), "play"
	}
	opp := mu.Opponent.String()
	if !q.opponentGiven {
		opp += " (no --opponent: the mover's policy)"
	}
	return fmt.Sprintf("%d players: seat 0 (to move) plays %s; %s %s %s%s", mu.Players, mover, others, verb, opp, note)
}

// afterwards says who plays what after the choice: seat 0 policy, the other seats opponent.
func afterwards(policy, opponent string, players int) string {
	switch {
	case players == 1:
		return policy + " afterwards"
	case policy == opponent && players == 2:
		return policy + " for both seats afterwards"
	case policy == opponent:
		return policy + " for every seat afterwards"
	case players == 2:
		return fmt.Sprintf("seat 0 %s and seat 1 %s afterwards", policy, opponent)
	}
	return fmt.Sprintf("seat 0 %s and the other seats %s afterwards", policy, opponent)
}

// negated returns -n.
func negated(n answer.Number) answer.Number {
	out := answer.Number{Float: -n.Float}
	switch e := n.Exact; {
	case e == "" || e == "0":
		out.Exact = e
	case strings.HasPrefix(e, "-"):
		out.Exact = e[1:]
	default:
		out.Exact = "-" + e
	}
	return out
}

// orList joins names with " or ".
func orList(names []string) string { return strings.Join(names, " or ") }

// writeChoicesText writes the value of every legal choice of seat 0 in the state, then its
// values to win (two players) and the best choices by each measure.
func writeChoicesText(q *solveQuery, cv *answer.ChoiceValues, w io.Writer) {
	players := q.matchup.Players
	then := afterwards(cv.Policy, cv.Opponent, players)
	if q.matchup.PerSeat {
		then = "every seat its policy afterwards"
	}
	fmt.Fprintf(w, "seat 0's legal choices (of {%s}), each played now, then %s:\n", choiceList(q.model.Choices), then)
	several := len(cv.Best) > 1
	limited := q.model.Variant.TurnLimit > 0
	for _, v := range cv.Values {
		var val, tail string
		switch {
		case players == 1 && limited:
			val = fmt.Sprintf("%s pairs, %s turns, %s lucky matches", human(*v.ExpectedPairs), human(*v.ExpectedTurns), human(*v.ExpectedLucky))
			tail = human(negated(v.VsBest)) + " fewer pairs than the best"
			if v.VsBest.Float == 0 {
				tail = "as many pairs as the best, in more turns"
			}
		case players == 1:
			val = fmt.Sprintf("%s turns, %s lucky matches", human(*v.ExpectedTurns), human(*v.ExpectedLucky))
			tail = human(v.VsBest) + " more turns than the best"
		case players == 2 && limited:
			val = fmt.Sprintf("%s pairs, lead %s", human(*v.ExpectedPairs), human(*v.ExpectedLead))
			tail = human(negated(v.VsBest)) + " below the best"
		default:
			val = human(*v.ExpectedPairs) + " pairs"
			tail = human(negated(v.VsBest)) + " fewer than the best"
		}
		switch {
		case len(cv.Values) == 1:
			tail = "the only legal choice"
		case v.Best:
			tail = "best"
		}
		if v.Choice == cv.PolicyChoice && (several || !v.Best) {
			tail += "; " + cv.Policy + " plays it"
		}
		fmt.Fprintf(w, "  %-12s %s, %s\n", v.Choice+":", val, tail)
	}
	measure := "for pairs"
	switch {
	case players == 1 && limited:
		measure = "for pairs, then the fewest turns"
	case players == 1:
		measure = "for the fewest turns"
	case players == 2 && limited:
		measure = "for the lead"
	}
	win := cv.Win
	switch {
	case win != nil:
		fmt.Fprintf(w, "to win at lead %d (score: P(win) + P(draw)/2), each played now, then %s:\n", win.Lead, afterwards(win.Policy, win.Opponent, 2))
		severalWin := len(win.Best) > 1
		for _, v := range win.Values {
			tail := human(negated(v.VsBest)) + " below the best"
			switch {
			case len(win.Values) == 1:
				tail = "the only legal choice"
			case v.Best:
				tail = "best"
			}
			if v.Choice == win.PolicyChoice && (severalWin || !v.Best) {
				tail += "; " + win.Policy + " plays it"
			}
			fmt.Fprintf(w, "  %-12s score %s, %s\n", v.Choice+":", human(v.Score), tail)
		}
	case cv.WinLeftOut != "":
		fmt.Fprintf(w, "to win: the choices' scores are left out (%s)\n", cv.WinLeftOut)
	}
	switch best := orList(cv.Best); {
	case win == nil:
		fmt.Fprintf(w, "best: %s %s\n", best, measure)
	case best == orList(win.Best):
		fmt.Fprintf(w, "best: %s, %s and to win\n", best, measure)
	default:
		fmt.Fprintf(w, "best: %s %s, %s to win (they differ)\n", best, measure, orList(win.Best))
	}
}
