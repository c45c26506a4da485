package main

import (
	"bufio"
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds memsim solve --table: the checks of its flags and the strategy tables it
// writes, as text or JSON.

// tableQuery checks the flags that go with --table and completes q for a table.
func (fl *solveFlags) tableQuery(q *solveQuery, set map[string]bool) error {
	for _, name := range []string{"first", "value-only"} {
		if set[name] {
			return usagef("--%s does not go with --table (it is about the one state of --pairs)", name)
		}
	}
	for _, name := range []string{"pairs", "unknown", "seats", "two-player-optimal", "lead", "standings", "distribution"} {
		if set[name] && !(name == "seats" && fl.fluctSelfWinTable(set)) {
			return usagef("--%s does not go with --table (the table is of every state with n <= --pairs-max, every seat playing one policy)", name)
		}
	}
	switch {
	case !set["pairs-max"]:
		return requiredWith("--pairs-max N", "--table", "the largest deal size of the table, at least 1")
	case fl.pairsMax < 1:
		return usagef("--pairs-max %d: must be at least 1", fl.pairsMax)
	}
	q.pairsMax = fl.pairsMax
	unseen, err := fl.unseenSingletons(set)
	if err != nil {
		return err
	}
	q.state = rules.State{S: fl.singletons, F: unseen}
	if fl.fluctSelfWinTable(set) {
		return fl.fluctSelfWinTableQuery(q, set) // solvefluctselfwin.go
	}
	if set["players"] && fl.players == 1 {
		return fl.solitaireTableQuery(q, set) // solvesolodist.go
	}
	if set["players"] && fl.players != 2 {
		return fl.seatsTableQuery(q, set)
	}
	q.matchup = exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	if !set["policy"] && !set["opponent"] {
		return nil
	}
	p, err := parsePolicy("--policy", fl.policy)
	if err != nil {
		return err
	}
	if !p.PlaysToWin() && p != rules.PolicyBestResponse {
		if p != rules.PolicyOptimal || set["opponent"] {
			return usagef("--policy %s with --table: the table is of the optimal policy, of a policy that plays to win (win-optimal, or win-best-response with --opponent), or of best-response with --opponent", fl.policy)
		}
		return nil
	}
	if mem, limit := q.model.Memory, q.model.Variant.TurnLimit; mem.Fluctuation > 0 && limit > 0 && p.PlaysToWin() {
		return usagef("--policy %s with --table --fluctuation %d --turn-limit %d: the table of a policy that plays to win under a fluctuating capacity and a turn limit is not printed (its values and --capacity choices are solved: leave out --table)", fl.policy, mem.Fluctuation, limit)
	}
	q.matchup.Policy, q.matchup.Opponent = p, p
	if set["opponent"] {
		if q.matchup.Opponent, err = parsePolicy("--opponent", fl.opponent); err != nil {
			return err
		}
	}
	return q.checkMatchup(set["opponent"], false)
}

// writeTable streams the strategy table: every state with n <= pairs-max (and, with singletons,
// the requested number of unseen singletons).
func writeTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	if q.json {
		return answer.WriteTable(ctx, w, f, q.model, q.pairsMax, q.state.F)
	}
	fmt.Fprintf(w, "# optimal strategy table: %s memory, pass %s%s, singletons %d (unseen %d)\n",
		q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant), q.state.S, q.state.F)
	if q.model.Variant.TurnLimit > 0 {
		return writeLimitTable(ctx, q, f, w)
	}
	fmt.Fprintln(w, "# row n, then one code per j (unknown pairs) from j = 1 (or the least j the memory allows) to n")
	fmt.Fprintln(w, "# codes: 0 safe is better, 1 daring is better, 2 equal or no choice (daring against safe, optimal afterwards)")
	row := -1
	err := exact.Table(ctx, f, q.model, q.pairsMax, func(c *exact.TableCell[T]) error {
		st := c.State
		if st.F != q.state.F || st.J == 0 {
			return nil
		}
		if st.N != row {
			if row >= 0 {
				w.WriteByte('\n')
			}
			row = st.N
			fmt.Fprintf(w, "%d:", st.N)
		}
		_, err := fmt.Fprintf(w, " %d", c.Code)
		return err
	})
	if err != nil {
		return err
	}
	if row >= 0 {
		w.WriteByte('\n')
	}
	return nil
}

// writeWinTable streams the table of a policy that plays to win: its choice in every state with
// n <= pairs-max and every lead |d| <= pairs-max - n (and, with singletons, the requested number
// of unseen singletons); the JSON cells add every best choice and the value P(win) + P(draw)/2.
func writeWinTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	mu := q.matchup
	if q.json {
		return answer.WriteWinTable(ctx, w, f, q.model, mu, q.pairsMax, q.state.F)
	}
	name := mu.Policy.String()
	if mu.Policy == rules.PolicyWinBestResponse {
		name += " to " + mu.Opponent.String()
	}
	fmt.Fprintf(w, "# %s strategy table: %s memory, pass %s%s, singletons %d (unseen %d)\n",
		name, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant), q.state.S, q.state.F)
	fmt.Fprintln(w, "# row n and d (the mover's lead: its pairs minus the other's, |d| <= pairs-max - n), then one choice per j (unknown pairs) from j = 1 (or the least j the memory allows) to n")
	fmt.Fprintln(w, "# choices: D daring, S safe, K known-first, P pass (the first best in that order; P(win) + P(draw)/2, both policies played afterwards)")
	// The text rows of one n, by lead, flushed when n changes.
	row, rows := -1, map[int][]byte{}
	flush := func() {
		for d := -(q.pairsMax - row); d <= q.pairsMax-row; d++ {
			if len(rows[d]) > 0 {
				fmt.Fprintf(w, "%d d=%d:%s\n", row, d, rows[d])
			}
		}
		clear(rows)
	}
	err := exact.WinTable(ctx, f, q.model, mu, q.pairsMax, func(c *exact.WinCell[T]) error {
		st := c.State
		if st.F != q.state.F || st.J == 0 {
			return nil
		}
		if st.N != row {
			if row >= 0 {
				flush()
			}
			row = st.N
		}
		rows[st.Lead] = append(rows[st.Lead], ' ', choiceLetters[c.Choice])
		return nil
	})
	if err != nil {
		return err
	}
	if row >= 0 {
		flush()
	}
	return nil
}

// writeLimitTable writes the text of the optimal strategy table under a turn limit: a block of
// rows per number of turns left t, as the table without a limit writes its rows, with the codes
// comparing the mover's lead; consecutive numbers of turns left whose blocks are the same are
// written once, under "t=A..B".
func writeLimitTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	fmt.Fprintln(w, "# blocks t=A or t=A..B: the turns left (the same rows for each t of a range); in a block, row n, then one code per j (unknown pairs) from j = 1 (or the least j the memory allows) to n")
	fmt.Fprintln(w, "# codes: 0 safe is better, 1 daring is better, 2 equal or no choice (daring against safe by the mover's lead within the turns left, optimal afterwards)")
	var block, prev []byte
	from, t, row := 0, 0, -1
	flush := func(to int) {
		if from == 0 {
			return
		}
		if from == to {
			fmt.Fprintf(w, "t=%d\n", from)
		} else {
			fmt.Fprintf(w, "t=%d..%d\n", from, to)
		}
		w.Write(prev)
	}
	// endBlock closes the block of t turns left, writing the range before it when they differ.
	endBlock := func() {
		if row >= 0 {
			block = append(block, '\n')
		}
		if from > 0 && string(block) == string(prev) {
			block, row = block[:0], -1
			return
		}
		flush(t - 1)
		prev, block = append(prev[:0], block...), block[:0]
		from, row = t, -1
	}
	err := exact.Table(ctx, f, q.model, q.pairsMax, func(c *exact.TableCell[T]) error {
		st := c.State
		if c.TurnsLeft != t {
			if t > 0 {
				endBlock()
			}
			t = c.TurnsLeft
		}
		if st.F != q.state.F || st.J == 0 {
			return nil
		}
		if st.N != row {
			if row >= 0 {
				block = append(block, '\n')
			}
			row = st.N
			block = fmt.Appendf(block, "%d:", st.N)
		}
		block = fmt.Appendf(block, " %d", c.Code)
		return nil
	})
	if err != nil {
		return err
	}
	if t > 0 {
		endBlock()
		t++
	}
	flush(t - 1)
	return nil
}
