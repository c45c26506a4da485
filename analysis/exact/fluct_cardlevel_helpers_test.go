package exact_test

import (
	"slices"
	"testing"

	"memsim/sim/rules"
)

// newFlDeal returns the card-level table at the start of a deal of n pairs (cards 2i and 2i+1
// of pair i), every card on the table, none remembered long, the cards known remembered.
func newFlDeal(n int, known []int) *flGame {
	g := &flGame{present: make([]bool, 2*n), old: make([]bool, 2*n), mem: slices.Clone(known)}
	for i := range g.present {
		g.present[i] = true
	}
	return g
}

// fspFixed returns the chooser of the fixed policy p.
func fspFixed(p rules.Policy) fspChooser {
	return func(st rules.State, _, _ int, _ bool) rules.Choice { return p.Decide(st) }
}

// fspFromTable returns the chooser that reads tab's layer of the capacity drawn, at the pass
// streak under a pass rule, and fails the test (name in the message) where the layer has no
// choice legal under pass; onPass, unless nil, is called with the streak of every pass chosen.
func fspFromTable(t *testing.T, name string, pass rules.PassRule, tab *rules.ChoiceTable, onPass func(streak int)) fspChooser {
	return func(st rules.State, c, streak int, _ bool) rules.Choice {
		var ch rules.Choice
		var ok bool
		if pass == rules.PassNever {
			ch, ok = tab.LookupCapacity(st, false, c)
		} else {
			ch, ok = tab.LookupCapacityPasses(st, streak, c)
		}
		if !ok || !rules.Legal(st, ch, pass) {
			t.Fatalf("%s: no legal choice in %v with capacity %d at streak %d (%v, %t)", name, st, c, streak, ch, ok)
		}
		if ch == rules.Pass && onPass != nil {
			onPass(streak)
		}
		return ch
	}
}
