package main

import (
	"bufio"
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// writeFluctLimitSeatsTable writes the table of every seat for itself at three or more seats under
// a fluctuating capacity and a turn limit (exact.FluctLimitSeatsTables, the choices the engine
// reads): a block per capacity drawn (c=C, the largest that binds in a deal of pairs-max pairs
// standing for it and any larger), in it a block per turns left (t=A, or t=A..B for equal blocks),
// each with a row per n and the optimum's choice per j the capacity allows, under a pass rule one
// letter per pass streak (the seats that passed in a row before the turn, 0 first).
func writeFluctLimitSeatsTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	p := q.matchup.Players
	mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	lo, layers, err := exact.FluctLimitSeatsTables(ctx, f, q.model, mu, q.pairsMax)
	if err != nil {
		return err
	}
	hi := lo + len(layers) - 1
	passes := q.model.Pass != rules.PassNever
	fmt.Fprintf(w, "# optimal strategy table, %d players, every seat for itself (each maximises its own expected pairs within the turns left): %s memory, pass %s%s, turn limit %d\n",
		p, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices), q.model.Variant.TurnLimit)
	fmt.Fprintf(w, "# blocks c=C: the capacity drawn for the turn (c=%d: that capacity or more); in it blocks t=A or t=A..B: the turns left, this one included (the same rows for each t of a range); in a block, row n, then one choice per j (unknown pairs) from j = 1 (or the least j the capacity allows) to n\n", hi)
	streaks := 1
	if passes {
		streaks = p
		fmt.Fprintf(w, "# under pass %s each j has %d letters: the choice after 0, 1, ..., %d seats passed in a row (a pass after %d ends the game in a stalemate)\n", q.model.Pass, p, p-1, p-1)
		fmt.Fprintln(w, "# choices: D daring, S safe, K known-first, P pass (the first best in that order, every seat for itself afterwards)")
	} else {
		fmt.Fprintln(w, "# choices: D daring, S safe, K known-first (the first best in that order, every seat for itself afterwards)")
	}
	for c := lo; c <= hi; c++ {
		fmt.Fprintf(w, "c=%d\n", c)
		tabs := layers[c-lo]
		err := limitBlocks(w, len(tabs), func(t int, dst []byte) ([]byte, error) {
			for n := 1; n <= q.pairsMax; n++ {
				dst = fmt.Appendf(dst, "%d:", n)
				for j := max(1, n-fluctKnownAfterDraw(q.model.Memory, c)); j <= n; j++ {
					dst = append(dst, ' ')
					st := rules.State{N: n, J: j}
					for l := range streaks {
						ch, ok := tabs[t-1].LookupPasses(st, l)
						if !ok {
							return dst, fmt.Errorf("the table has no choice in %v with capacity %d, %d turns left and pass streak %d", st, c, t, l)
						}
						dst = append(dst, choiceLetters[ch])
					}
				}
				dst = append(dst, '\n')
			}
			return dst, nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
