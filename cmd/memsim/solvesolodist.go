package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds solitaire's distribution of the number of turns (memsim solve --distribution
// --players 1) and its strategy table (memsim solve --table --players 1), docs/models.md §4.8 and
// §4.9.

// writeTurnsText writes solitaire's distribution of the number of turns: every number of turns of
// positive probability up to the bound, then the probability of more and, under a turn limit, of
// the limit ending the game before the table is cleared.
func writeTurnsText(d *answer.TurnsDistribution, w io.Writer) {
	fmt.Fprintf(w, "distribution of the number of turns (exactly t turns, t <= %d):\n", d.MaxTurns)
	for _, p := range d.Turns {
		if p.Probability.Float != 0 || (p.Probability.Exact != "" && p.Probability.Exact != "0") {
			fmt.Fprintf(w, "  turns %3d: %s\n", p.Turns, human(p.Probability))
		}
	}
	fmt.Fprintf(w, "  more than %d turns: %s\n", d.MaxTurns, human(d.More))
	if d.Stopped != nil {
		fmt.Fprintf(w, "  stopped by the turn limit with pairs on the table (counted at the limit): %s\n", human(*d.Stopped))
	}
}

// solitaireTableQuery checks the flags of solitaire's table (--table --players 1) and completes q
// for it.
func (fl *solveFlags) solitaireTableQuery(q *solveQuery, set map[string]bool) error {
	if set["opponent"] {
		return usagef("--opponent with --table --players 1: solitaire has no opponent")
	}
	if set["policy"] && fl.policy != rules.PolicyOptimal.String() {
		return usagef("--policy %s with --table --players 1: the solitaire table is of optimal (the fewest expected turns)", fl.policy)
	}
	if err := exact.CheckSolitaireTurns(q.model); err != nil && q.model.Memory.Fluctuation == 0 {
		return usagef("--table with --players 1: %v", err)
	}
	q.matchup = exact.Lineup{Players: 1, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	return q.checkMatchup(false, false)
}

// writeSolitaireTable streams solitaire's optimal strategy table: for every state with n <=
// pairs-max (and, with singletons, the requested number of unseen singletons) the choice of
// fewest expected turns, the other choices as good, and the expected turns.
func writeSolitaireTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	if q.json {
		return answer.WriteSolitaireTable(ctx, w, f, q.model, q.pairsMax, q.state.F)
	}
	fmt.Fprintf(w, "# solitaire optimal strategy table (the fewest expected turns): %s memory, pass %s%s, singletons %d (unseen %d)\n",
		q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant), q.state.S, q.state.F)
	fmt.Fprintln(w, "# row n j (unknown pairs, from 1 or the least the memory allows): the choice, then the expected turns")
	fmt.Fprintln(w, "# choices: D daring, S safe, K known-first (the first best in that order), =X for each other choice as good; turns to 6 decimals (--json: exact, with every choice's expected turns)")
	var line []byte
	return exact.SolitaireTable(ctx, f, q.model, q.pairsMax, func(c *exact.SolitaireCell[T]) error {
		st := c.State
		if st.F != q.state.F || st.J == 0 {
			return nil
		}
		line = fmt.Appendf(line[:0], "%d %d: ", st.N, st.J)
		line = appendChoice(line, c.Choice, c.Best)
		line = append(line, ' ')
		line = strconv.AppendFloat(line, f.Float64(c.Turns), 'f', 6, 64)
		line = append(line, '\n')
		_, err := w.Write(line)
		return err
	})
}
