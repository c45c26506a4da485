package answer

import (
	"context"
	"fmt"
	"io"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// WriteFluctTable writes, under the fluctuating capacity of model m (docs/models.md §4.4, §4.8),
// the table of seat 0's policy in lineup mu as the card-level engine reads it
// (rules.ChoiceTable.LookupCapacity) as a PolicyTable in JSON, one line: solitaire's optimum (one
// player), or at two seats the optimum (optimal against optimal) or best-response to an
// opponent. Its cells are those of every capacity drawn from the smallest the model draws to the
// largest that binds in a deal of maxPairs pairs (which stands for that capacity or more), then
// of every state with 1 to maxPairs pairs, then unknown pairs from the least the capacity leaves
// (under lru, at most the capacity drawn known cards) to n; under the pass rules two-known and
// always each cell has the choice just after a pass by the other seat as well. The model has no
// singletons and no turn limit. An error is the solver's or the writer's.
func WriteFluctTable[T any](ctx context.Context, w io.Writer, f field.Field[T], m exact.Model, mu exact.Lineup, maxPairs int) error {
	if m.Memory.Fluctuation == 0 || m.Singletons > 0 || m.Variant.TurnLimit > 0 {
		return fmt.Errorf("the fluctuating capacity's JSON table is of a model of pairs with a fluctuating capacity and no turn limit")
	}
	var tab *rules.ChoiceTable
	var err error
	switch {
	case mu.Players == 1:
		tab, err = exact.FluctSoloTable(ctx, f, m, maxPairs)
	case mu.Players == 2 && mu.Policy == rules.PolicyBestResponse:
		tab, err = exact.FluctReplyTable(ctx, f, m, mu.Opponent, maxPairs)
	case mu.Players == 2 && mu.Policy == rules.PolicyOptimal && mu.Opponent == rules.PolicyOptimal:
		tab, err = exact.FluctTable(ctx, f, m, maxPairs)
	default:
		return fmt.Errorf("the fluctuating capacity's JSON table is of solitaire's optimum, or at two seats of optimal or best-response, not of %s against %s at %d seats", mu.Policy, mu.Opponent, mu.Players)
	}
	if err != nil {
		return err
	}
	lo, hi, ok := tab.Capacities()
	if !ok {
		return fmt.Errorf("the table has no layer per capacity drawn")
	}
	head := model(f, m, 0)
	head.PairsMax, head.Players, head.Policy = maxPairs, mu.Players, mu.Policy.String()
	if mu.Players > 1 {
		head.Opponent = mu.Opponent.String()
	}
	cw := cellWriter{w: w}
	if err := cw.open(head); err != nil {
		return err
	}
	passes := m.Pass != rules.PassNever && mu.Players > 1
	for c := lo; c <= hi; c++ {
		known := m.Memory.Capacity + m.Memory.Fluctuation // handover-uniform forgets at the hand-over
		if m.Memory.Forget == rules.ForgetLRU {
			known = c // lru forgets beyond the capacity drawn at the draw
		}
		for n := 1; n <= maxPairs; n++ {
			for j := max(1, n-known); j <= n; j++ {
				st := rules.State{N: n, J: j}
				ch, ok := tab.LookupCapacity(st, false, c)
				if !ok {
					return fmt.Errorf("the table has no choice in %v with capacity %d", st, c)
				}
				cell := PolicyCell{Capacity: c, Pairs: n, Unknown: j, Choice: ch.String()}
				if passes {
					after, ok := tab.LookupCapacity(st, true, c)
					if !ok {
						return fmt.Errorf("the table has no choice after a pass in %v with capacity %d", st, c)
					}
					cell.ChoiceAfterPass = after.String()
				}
				if err := cw.add(&cell); err != nil {
					return err
				}
			}
		}
	}
	return cw.close()
}
