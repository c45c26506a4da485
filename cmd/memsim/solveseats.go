package main

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds memsim solve --table --players P with P of 3 or more: the strategy tables of
// every seat for itself (docs/models.md §4.7), in expected pairs (optimal, under every pass rule
// the solver covers, a column per pass streak under a pass rule) and to win (win-optimal, by the
// seats' standings).

// seatsTableQuery checks the flags of a table at three or more seats and completes q for it.
func (fl *solveFlags) seatsTableQuery(q *solveQuery, set map[string]bool) error {
	if fl.players < 3 || fl.players > rules.MaxPlayers {
		return usagef("--players %d with --table: must be 2, or 3 to %d (every seat for itself)", fl.players, rules.MaxPlayers)
	}
	if set["opponent"] {
		return fl.seatsReplyTableQuery(q, set) // solveseatsreply.go
	}
	p := rules.PolicyOptimal
	if set["policy"] {
		var err error
		if p, err = parsePolicy("--policy", fl.policy); err != nil {
			return err
		}
		if p != rules.PolicyOptimal && p != rules.PolicyWinOptimal {
			return usagef("--policy %s with --table --players %d: the table is of optimal or win-optimal (every seat for itself), or of best-response with --opponent", fl.policy, fl.players)
		}
	}
	q.matchup = exact.Lineup{Players: fl.players, Policy: p, Opponent: p}
	if l := q.model.Variant.TurnLimit; l > 0 && q.json {
		return usagef("--json with --table --players %d --turn-limit %d: the table of every seat for itself under a turn limit is printed as text, a block per turns left (leave out --json)", fl.players, l)
	}
	return q.checkMatchup(false, false)
}

// seatsTableCost returns the estimated cost of a table at three or more seats: the sweep of every
// seat for itself, for win-optimal the sweep of every standings twice (once for the values, once
// more for every choice's), and the cells written in JSON (the text of win-optimal's table writes
// a line per count state).
func (q *solveQuery) seatsTableCost() (exact.Cost, error) {
	if q.model.Variant.TurnLimit > 0 {
		return q.seatsLimitTableCost()
	}
	if q.matchup.Policy == rules.PolicyBestResponse {
		return exact.Estimate(q.model, q.matchup, q.pairsMax, exact.Options{Call: exact.CallPolicyTable, Float: q.float})
	}
	self := exact.Lineup{Players: q.matchup.Players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	c, err := exact.Estimate(q.model, self, q.pairsMax, exact.Options{Float: q.float})
	if err != nil {
		return c, err
	}
	win := q.matchup.Policy == rules.PolicyWinOptimal
	if win {
		t, err := exact.Estimate(q.model, q.matchup, q.pairsMax, exact.Options{Call: exact.CallPolicyTable, Float: q.float})
		if err != nil {
			return c, err
		}
		t.Ops *= 2
		c = c.Then(t)
	}
	if q.json {
		cell := float64(opsSeatsCellExact)
		if q.float {
			cell = opsSeatsCellFloat
		}
		c.Ops += seatsTableCells(q.matchup.Players, q.pairsMax, q.model.Pass != rules.PassNever, win) * cell * float64(q.matchup.Players)
	}
	return c, nil
}

// The work of writing one seat's values of a cell of a table at three or more seats in JSON, in
// the operations of exact.Estimate (exact.OpsPerSecond a second), measured on the win-optimal
// tables of 3 seats up to 30 pairs and 4 up to 14 in float64 (27 and 31), and of 3 up to 12 in
// exact rationals (140).
const (
	opsSeatsCellFloat = 30
	opsSeatsCellExact = 140
)

// seatsTableCells returns the cells of a table of p seats up to maxPairs pairs (with the model's
// unseen singletons fixed): a count state per n and j, times the pass streaks, or the standings.
func seatsTableCells(p, maxPairs int, streaks, standings bool) float64 {
	cells := 0.0
	for n := 1; n <= maxPairs; n++ {
		per := 1.0
		switch {
		case standings:
			// The standings with a deficit 0: deficits 0 .. n+1, less those without a 0
			// (deficits 1 .. n+1, as many as the deficits 0 .. n).
			per = float64(rules.StandingsCount(p, n) - rules.StandingsCount(p, n-1))
		case streaks:
			per = float64(p)
		}
		cells += float64(n+1) * per
	}
	return cells
}

// writeSeatsTable streams the table of three or more seats: every state with n <= pairs-max
// (and, with singletons, the requested number of unseen singletons).
func writeSeatsTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	p := q.matchup.Players
	win := q.matchup.Policy == rules.PolicyWinOptimal
	switch {
	case exact.IsHUSingles(q.model):
		return fmt.Errorf("--table with --singletons %d and --forget handover-uniform at %d players: not printed (the engine reads the solved table; the printout of every seat's values is built for two seats and solitaire only)", q.model.Singletons, p)
	case q.matchup.Policy == rules.PolicyBestResponse:
		return writeSeatsReplyTable(ctx, q, f, w) // solveseatsreply.go
	case q.model.Variant.TurnLimit > 0 && win:
		return writeSeatsWinLimitText(ctx, q, f, w)
	case q.model.Variant.TurnLimit > 0:
		return writeSeatsLimitTable(ctx, q, f, w)
	}
	if q.json {
		if win {
			return answer.WriteSeatsWinTable(ctx, w, f, q.model, p, q.pairsMax, q.state.F)
		}
		return answer.WriteSeatsTable(ctx, w, f, q.model, p, q.pairsMax, q.state.F)
	}
	if win {
		return writeSeatsWinText(ctx, q, f, w)
	}
	fmt.Fprintf(w, "# optimal strategy table, %d players, every seat for itself (each maximises its own expected pairs): %s memory, pass %s%s, singletons %d (unseen %d)\n",
		p, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant), q.state.S, q.state.F)
	streaks := q.model.Pass != rules.PassNever
	if streaks {
		fmt.Fprintf(w, "# row n j (unknown pairs, from 1 or the least the memory allows): the mover's choice after 0, 1, ..., %d seats passed in a row, then every seat's expected pairs after none, the mover (seat 0) first\n", p-1)
	} else {
		fmt.Fprintln(w, "# row n j (unknown pairs, from 1 or the least the memory allows): the mover's choice, then every seat's expected pairs, the mover (seat 0) first")
	}
	fmt.Fprintln(w, "# choices: D daring, S safe, K known-first, P pass (the first best in that order), =X for each other choice as good, ! where no choice is a best reply (no equilibrium in pure choices); values to 6 decimals (--json: exact, with every choice's value)")
	var line []byte
	var vals []T
	return exact.SelfishTable(ctx, f, q.model, p, q.pairsMax, func(c *exact.TableCell[T]) error {
		st := c.State
		if st.F != q.state.F || st.J == 0 {
			return nil
		}
		if c.Passes == 0 {
			line = fmt.Appendf(line[:0], "%d %d:", st.N, st.J)
			vals = append(vals[:0], c.BySeat...)
		}
		line = append(line, ' ')
		line = appendChoice(line, c.Choice, c.Best)
		if streaks && c.Passes < p-1 {
			return nil
		}
		line = append(line, ' ')
		for _, v := range vals {
			line = append(line, ' ')
			line = strconv.AppendFloat(line, f.Float64(v), 'f', 6, 64)
		}
		line = append(line, '\n')
		_, err := w.Write(line)
		return err
	})
}

// appendChoice appends choice c, then =X for each other choice of best, or ! when c is not among
// them.
func appendChoice(dst []byte, c rules.Choice, best []rules.Choice) []byte {
	dst = append(dst, choiceLetters[c])
	among := false
	for _, b := range best {
		if b == c {
			among = true
			continue
		}
		dst = append(dst, '=', choiceLetters[b])
	}
	if !among {
		dst = append(dst, '!')
	}
	return dst
}

// writeSeatsWinText writes the text of the win-optimal table at three or more seats: per count
// state the choice of the optimum in expected pairs, and the standings at which win-optimal's
// choice differs from it.
func writeSeatsWinText[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	p := q.matchup.Players
	pairsChoice, err := answer.SelfishStreakChoices(ctx, f, q.model, p, q.pairsMax)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# win-optimal strategy table, %d players, every seat for itself (each maximises its own P(most pairs), a tie for the most shared): %s memory, pass %s%s, singletons %d (unseen %d)\n",
		p, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant), q.state.S, q.state.F)
	fmt.Fprintln(w, "# row n j (unknown pairs, from 1): the choice of the optimum in expected pairs (D daring, S safe, K known-first) and the number of standings; then, for each other choice win-optimal makes, how many standings and which")
	fmt.Fprintln(w, "# standings: every seat's deficit to the most pairs so far, the mover first, n+1 for a seat that can no longer reach the most (--json: every standings, with the seats' P(most pairs))")
	passRule := q.model.Pass != rules.PassNever
	if passRule {
		fmt.Fprintln(w, "# under a pass rule a row per pass streak k, the seats that passed in a row just before the turn: row n j k (P pass)")
	}
	var cur rules.State
	curK := 0
	var other [rules.NumChoices][]string
	count := 0
	flush := func() error {
		if count == 0 {
			return nil
		}
		fmt.Fprintf(w, "%d %d", cur.N, cur.J)
		if passRule {
			fmt.Fprintf(w, " %d", curK)
		}
		fmt.Fprintf(w, ": %c (%d standings)", choiceLetters[pairsChoice(cur, curK)], count)
		for _, c := range rules.Choices() {
			if len(other[c]) > 0 {
				fmt.Fprintf(w, "; %c at %d: %s", choiceLetters[c], len(other[c]), strings.Join(other[c], " "))
				other[c] = other[c][:0]
			}
		}
		count = 0
		_, err := w.WriteString("\n")
		return err
	}
	err = exact.SelfWinTable(ctx, f, q.model, p, q.pairsMax, func(c *exact.SelfWinCell[T]) error {
		st := c.State
		if st.F != q.state.F || st.J == 0 {
			return nil
		}
		if st != cur || c.Passes != curK {
			if err := flush(); err != nil {
				return err
			}
			cur, curK = st, c.Passes
		}
		count++
		if c.Choice != pairsChoice(st, c.Passes) {
			other[c.Choice] = append(other[c.Choice], deficitsText(c.Deficits))
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// deficitsText writes standings as comma-separated deficits.
func deficitsText(d []int) string {
	parts := make([]string, len(d))
	for i, v := range d {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}
