package exact_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The two-player optimum's choice just after a pass by the other seat, which the solvers at three
// or more seats and the engine read at every pass streak of 1 or more (--two-player-optimal), is
// its choice after no pass wherever a pass leaves the state as it is (perfect memory, singletons
// too, lru and handover-uniform of a fixed capacity, blind flips): the first best choice just after
// a pass, worked out from every choice's expected pairs (exact.ChoiceValues: a turn other than a
// pass is valued as without a pass just made; a pass there is a stalemate, n/2 pairs each), is
// the table's choice at streak 0 and at streak 1, in every state of the table.
func TestTwoPlayerOptimumAfterPassIsItsChoiceWithoutPass(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := field.Rat{}
	maxPairs := 4
	if !testing.Short() {
		maxPairs = 6
	}
	models := []exact.Model{
		{},
		{Singletons: 1},
		{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}},
		{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}},
		{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}, Variant: rules.Variant{Flips: rules.FlipsBlind}},
	}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	passes, checked := 0, 0
	for _, base := range models {
		for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			m := base
			m.Pass = pass
			tab, err := exact.PolicyTable(ctx, f, m, mu, maxPairs)
			if err != nil {
				t.Fatalf("%v pass %v: %v", m.Memory, pass, err)
			}
			for n := 1; n <= maxPairs; n++ {
				for j := 0; j <= n; j++ {
					for unseen := 0; unseen <= m.Singletons; unseen++ {
						st := rules.State{N: n, J: j, S: m.Singletons, F: unseen}
						if st.Validate(m.Memory) != nil {
							continue
						}
						cv, err := exact.ChoiceValues(ctx, f, m, mu, st)
						if err != nil {
							t.Fatalf("%v pass %v %v: %v", m.Memory, pass, st, err)
						}
						stalemate := f.Div(f.FromInt(int64(n)), f.FromInt(2))
						best, top := rules.Choice(0), f.FromInt(-1)
						for _, v := range cv.Values { // in the order daring, safe, known-first, pass
							pairs := v.Pairs
							if v.Choice == rules.Pass {
								pairs = stalemate
							}
							if f.Cmp(pairs, top) > 0 {
								best, top = v.Choice, pairs
							}
						}
						if best == rules.Pass {
							passes++
						}
						for k := range 2 {
							got, ok := tab.LookupPasses(st, k)
							if !ok {
								continue
							}
							checked++
							if got != best {
								t.Errorf("%v pass %v %v: the table's choice at streak %d is %v, the first best just after a pass %v", m.Memory, pass, st, k, got, best)
							}
						}
					}
				}
			}
		}
	}
	if checked < 100 || passes == 0 {
		t.Errorf("checked %d choices, %d of them passes: too few to tell", checked, passes)
	}
}
