package main

import (
	"bufio"
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
)

// writeFluctSoloTable writes solitaire's optimum under a fluctuating capacity (docs/models.md
// §4.8): a block per capacity drawn, each with a row per n and the choice of fewest expected
// turns per j, as the engine reads it (rules.ChoiceTable.LookupCapacity); with --json the cells
// of answer.WriteFluctTable.
func writeFluctSoloTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	if q.json {
		return answer.WriteFluctTable(ctx, w, f, q.model, q.matchup, q.pairsMax)
	}
	t, err := exact.FluctSoloTable(ctx, f, q.model, q.pairsMax)
	if err != nil {
		return fmt.Errorf("solitaire's table: %w", err)
	}
	lo, hi, _ := t.Capacities()
	fmt.Fprintf(w, "# solitaire optimal strategy table: %s memory%s\n", q.model.Memory, choicesNote(q.model.Choices))
	fmt.Fprintf(w, "# blocks c=C: the capacity drawn for the turn (c=%d: that capacity or more); in a block, row n, then one choice per j (unknown pairs) from j = 1 (or the least j the capacity allows) to n\n", hi)
	fmt.Fprintln(w, "# choices: D daring, S safe, K known-first (the first of the fewest expected turns in that order, optimal afterwards)")
	return writeCapacityBlocks(w, q, t, lo, hi, false, false)
}
