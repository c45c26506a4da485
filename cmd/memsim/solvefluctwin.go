package main

import (
	"bufio"
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// writeFluctWinTable writes the table of a policy that plays to win under a fluctuating capacity
// (two seats): a block per capacity drawn, from the smallest to the largest that binds in a deal
// of pairs-max pairs, each with a row per n and lead d (|d| <= pairs-max - n) and the policy's
// choice per j; under a pass rule each capacity's block is followed by one of the choices just
// after a pass by the other seat. The choices are those the engine reads
// (rules.ChoiceTable.LookupCapacity with the mover's lead).
func writeFluctWinTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	mu := q.matchup
	t, err := exact.FluctWinTable(ctx, f, q.model, mu, q.pairsMax)
	if err != nil {
		return err
	}
	lo, hi, _ := t.Capacities()
	passes := q.model.Pass != rules.PassNever
	name := mu.Policy.String()
	if mu.Policy == rules.PolicyWinBestResponse {
		name += " to " + mu.Opponent.String()
	}
	fmt.Fprintf(w, "# %s strategy table: %s memory, pass %s%s\n", name, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices))
	fmt.Fprintf(w, "# blocks c=C: the capacity drawn for the turn (c=%d: that capacity or more); in a block, row n and d (the mover's lead: its pairs minus the other's, |d| <= pairs-max - n), then one choice per j (unknown pairs) from j = 1 (or the least j the capacity allows) to n\n", hi)
	if passes {
		fmt.Fprintln(w, "# blocks c=C after a pass: the same, just after a pass by the other seat (a pass there ends the game in a stalemate)")
	}
	fmt.Fprintln(w, "# choices: D daring, S safe, K known-first, P pass (the first best in that order; P(win) + P(draw)/2, both policies played afterwards)")
	return writeCapacityBlocks(w, q, t, lo, hi, passes, true)
}
