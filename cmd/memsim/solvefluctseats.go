package main

import (
	"bufio"
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// writeFluctSeatsTable writes the table of every seat for itself at three or more seats under a
// fluctuating capacity: a block per capacity drawn, from the smallest to the largest that binds in
// a deal of pairs-max pairs, each with a row per n and the optimum's choice per j, under a pass
// rule one letter per pass streak (the seats that passed in a row before the turn, 0 first). The
// choices are those the engine reads (rules.ChoiceTable.LookupCapacity, LookupCapacityPasses).
func writeFluctSeatsTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	p := q.matchup.Players
	t, err := exact.FluctSelfishTable(ctx, f, q.model, p, q.pairsMax)
	if err != nil {
		return err
	}
	lo, hi, _ := t.Capacities()
	passes := q.model.Pass != rules.PassNever
	fmt.Fprintf(w, "# optimal strategy table, %d players, every seat for itself (each maximises its own expected pairs): %s memory, pass %s%s\n",
		p, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices))
	fmt.Fprintf(w, "# blocks c=C: the capacity drawn for the turn (c=%d: that capacity or more); in a block, row n, then one choice per j (unknown pairs) from j = 1 (or the least j the capacity allows) to n\n", hi)
	if passes {
		fmt.Fprintf(w, "# under pass %s each j has %d letters: the choice after 0, 1, ..., %d seats passed in a row (a pass after %d ends the game in a stalemate)\n", q.model.Pass, p, p-1, p-1)
		fmt.Fprintln(w, "# choices: D daring, S safe, K known-first, P pass (the first best in that order, every seat for itself afterwards)")
	} else {
		fmt.Fprintln(w, "# choices: D daring, S safe, K known-first (the first best in that order, every seat for itself afterwards)")
	}
	streaks := 1
	if passes {
		streaks = p
	}
	for c := lo; c <= hi; c++ {
		fmt.Fprintf(w, "c=%d\n", c)
		for n := 1; n <= q.pairsMax; n++ {
			fmt.Fprintf(w, "%d:", n)
			for j := max(1, n-fluctKnownAfterDraw(q.model.Memory, c)); j <= n; j++ {
				w.WriteByte(' ')
				st := rules.State{N: n, J: j}
				for l := range streaks {
					ch, ok := t.LookupCapacityPasses(st, l, c)
					if !ok {
						return fmt.Errorf("the table has no choice in %v with capacity %d at pass streak %d", st, c, l)
					}
					w.WriteByte(choiceLetters[ch])
				}
			}
			w.WriteByte('\n')
		}
	}
	return nil
}
