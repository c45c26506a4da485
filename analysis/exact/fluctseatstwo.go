package exact

import (
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The two-player optimum's choices at three to eight seats under a fluctuating capacity
// (Lineup.TwoPlayerOptimal, docs/models.md §4.7 "The two-player table at more seats"): every seat
// that plays optimal makes the choice of the two-player optimum (fluct.go, both seats maximising
// their lead) in the state after the draw, and the seats' values are those of a policy per seat,
// solved as for fixed policies (fluctSeats.multiRow, multiPassRow). Under a pass rule the
// two-player table's choice at pass streak 0 is its choice after no pass, and at every longer
// streak its choice just after a pass: a pass leaves the state as it is (the hand-over keeps the
// capacity drawn), so one pass or several leave the same state, and the engine's table player
// reads a two-player table so (rules.ChoiceTable.LookupCapacityPasses).

// twoPlayerSeats holds the two-player optimum's sweep that a fluctSeats steps row by row beside
// its own rows.
type twoPlayerSeats[T any] struct {
	sw   *fluctSweep[T]
	rows int
}

// newTwoPlayerSeats returns the two-player optimum's sweep of model m, before its first row.
func newTwoPlayerSeats[T any](f field.Field[T], m Model) (*twoPlayerSeats[T], error) {
	sw, err := newFluctSweep(f, m, Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
	if err != nil {
		return nil, fmt.Errorf("the two-player optimum: %w", err)
	}
	zeros := []T{sw.zero}
	sw.prev = fluctRow[T]{w: [2][]T{zeros, zeros}, opt: zeros}
	sw.prev2 = sw.prev
	sw.optChoice, sw.optAfter = [][][]rules.Choice{nil}, [][][]rules.Choice{nil}
	return &twoPlayerSeats[T]{sw: sw}, nil
}

// upTo solves the two-player optimum's rows up to n pairs.
func (t *twoPlayerSeats[T]) upTo(n int) error {
	for t.rows < n {
		r := t.rows + 1
		if err := t.sw.row(r); err != nil {
			return fmt.Errorf("the two-player optimum: %w", err)
		}
		t.sw.prev2, t.sw.prev, t.sw.cur = t.sw.prev, t.sw.cur, fluctRow[T]{}
		t.rows = r
	}
	return nil
}

// choice returns the two-player optimum's choice in (n, k) with capacity c drawn at pass streak
// l: after no pass at l = 0, just after a pass otherwise.
func (t *twoPlayerSeats[T]) choice(n, k, c, l int) rules.Choice {
	if l > 0 && t.sw.passes() {
		return t.sw.optAfter[n][c][k]
	}
	return t.sw.optChoice[n][c][k]
}
