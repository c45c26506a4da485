package main

import (
	"bufio"
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds memsim solve --table --players P --policy best-response --opponent X with P of
// 3 or more: the table of seat 0's best reply to X at every other seat (docs/models.md §4.7, "A
// best reply at three or more seats"), printed from the table the engine plays
// (exact.PolicyTable), under a pass rule a choice per pass streak.

// seatsReplyTableQuery checks the flags of the table of a best reply at three or more seats and
// completes q for it.
func (fl *solveFlags) seatsReplyTableQuery(q *solveQuery, set map[string]bool) error {
	if !set["policy"] {
		return usagef("--opponent with --table --players %d: give --policy best-response (the table at 3 or more seats is of every seat for itself, or of a best reply to --opponent)", fl.players)
	}
	p, err := parsePolicy("--policy", fl.policy)
	if err != nil {
		return err
	}
	if p != rules.PolicyBestResponse {
		return usagef("--policy %s --opponent with --table --players %d: the table of a reply at 3 or more seats is of best-response (optimal and win-optimal take no --opponent)", fl.policy, fl.players)
	}
	opp, err := parsePolicy("--opponent", fl.opponent)
	if err != nil {
		return err
	}
	m := q.model
	switch {
	case m.Variant.TurnLimit > 0:
		return usagef("--turn-limit %d with --table --players %d --policy best-response: the reply's table under a turn limit is not printed at 3 or more seats (leave out --table for its values and choices)", m.Variant.TurnLimit, fl.players)
	case q.json:
		return usagef("--json with --table --players %d --policy best-response: the reply's table at 3 or more seats is printed as text, a letter per pass streak (leave out --json)", fl.players)
	}
	q.matchup = exact.Lineup{Players: fl.players, Policy: p, Opponent: opp}
	return q.checkMatchup(true, false)
}

// writeSeatsReplyTable writes the table of seat 0's best reply in q's lineup of three or more
// seats as the engine reads it: a row per count state with the choice, under a pass rule a choice
// per pass streak 0 .. P-1 (the seats that passed in a row just before the turn).
func writeSeatsReplyTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	mu := q.matchup
	p := mu.Players
	tab, err := exact.PolicyTable(ctx, f, q.model, mu, q.pairsMax)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# best-response to %s strategy table, %d players (seat 0 replies, every other seat plays %s): %s memory, pass %s%s, singletons %d (unseen %d)\n",
		mu.Opponent, p, mu.Opponent, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant), q.state.S, q.state.F)
	streaks := 1
	if q.model.Pass != rules.PassNever {
		streaks = p
		fmt.Fprintf(w, "# row n j (unknown pairs, from 1 or the least the memory allows): the reply's choice after 0, 1, ..., %d seats passed in a row (after %d a pass ends the game in a stalemate)\n", p-1, p-1)
	} else {
		fmt.Fprintln(w, "# row n j (unknown pairs, from 1 or the least the memory allows): the reply's choice")
	}
	fmt.Fprintln(w, "# choices: D daring, S safe, K known-first, P pass (the first best in that order by the reply's own expected pairs, the lineup played afterwards: the choices the engine reads)")
	var line []byte
	for n := 1; n <= q.pairsMax; n++ {
		for j := 1; j <= n; j++ {
			st := rules.State{N: n, J: j, S: q.model.Singletons, F: q.state.F}
			if st.Validate(q.model.Memory) != nil {
				continue
			}
			line = fmt.Appendf(line[:0], "%d %d:", n, j)
			for k := range streaks {
				c, ok := tab.LookupPasses(st, k)
				if !ok {
					return fmt.Errorf("the reply's table has no choice in %v after %d passes", st, k)
				}
				line = append(line, ' ', choiceLetters[c])
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}
