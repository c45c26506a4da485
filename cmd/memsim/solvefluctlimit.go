package main

import (
	"bufio"
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// writeFluctLimitTable writes the optimal strategy table (or best-response's to q's opponent) under a fluctuating capacity and a turn
// limit (two seats, exact.FluctLimitTables, the choices the engine reads): a block per capacity
// drawn (c=C, the largest that binds in a deal of pairs-max pairs standing for it and any larger),
// and in it a block per turns left (t=A, or t=A..B for equal blocks), each with a row per n and
// the optimum's choice per j the capacity allows; under a pass rule each capacity's block is
// followed by one of the choices just after a pass by the other seat.
func writeFluctLimitTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	name, after := "optimal", "optimal afterwards"
	if q.matchup.Policy == rules.PolicyBestResponse {
		mu = q.matchup
		name = "best-response to " + mu.Opponent.String()
		after = fmt.Sprintf("the reply and %s afterwards", mu.Opponent)
	}
	lo, layers, err := exact.FluctLimitTables(ctx, f, q.model, mu, q.pairsMax)
	if err != nil {
		return err
	}
	hi := lo + len(layers) - 1
	passes := q.model.Pass != rules.PassNever
	fmt.Fprintf(w, "# %s strategy table: %s memory, pass %s%s, turn limit %d\n", name, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices), q.model.Variant.TurnLimit)
	fmt.Fprintf(w, "# blocks c=C: the capacity drawn for the turn (c=%d: that capacity or more); in it blocks t=A or t=A..B: the turns left, this one included (the same rows for each t of a range); in a block, row n, then one choice per j (unknown pairs) from j = 1 (or the least j the capacity allows) to n\n", hi)
	if passes {
		fmt.Fprintln(w, "# blocks c=C after a pass: the same, just after a pass by the other seat (a pass there ends the game in a stalemate)")
		fmt.Fprintf(w, "# choices: D daring, S safe, K known-first, P pass (the first of largest lead within the turns left in that order, %s)\n", after)
	} else {
		fmt.Fprintf(w, "# choices: D daring, S safe, K known-first (the first of largest lead within the turns left in that order, %s)\n", after)
	}
	block := func(c int, afterPass bool) error {
		tabs := layers[c-lo]
		return limitBlocks(w, len(tabs), func(t int, dst []byte) ([]byte, error) {
			for n := 1; n <= q.pairsMax; n++ {
				dst = fmt.Appendf(dst, "%d:", n)
				for j := max(1, n-fluctKnownAfterDraw(q.model.Memory, c)); j <= n; j++ {
					st := rules.State{N: n, J: j}
					ch, ok := tabs[t-1].Lookup(st, afterPass)
					if !ok {
						return dst, fmt.Errorf("the table has no choice in %v with capacity %d and %d turns left (after a pass: %t)", st, c, t, afterPass)
					}
					dst = append(dst, ' ', choiceLetters[ch])
				}
				dst = append(dst, '\n')
			}
			return dst, nil
		})
	}
	return eachCapacityBlock(w, lo, hi, passes, block)
}
