package strategies_test

import (
	"testing"

	"memsim/sim/rules"
)

// checkCapacityLayers checks that a player's table got has a layer per capacity drawn, lo .. hi,
// each holding the choice of the solver's table want at every count state of up to maxPairs
// pairs (under lru only those with at most the capacity drawn remembered: lru forgets down to
// it). It returns the number of states whose choice depends on the capacity drawn, so that a
// caller can check that the layers are told apart.
func checkCapacityLayers(t *testing.T, name string, got, want *rules.ChoiceTable, lo, hi, maxPairs int, lru bool) int {
	t.Helper()
	if l, h, ok := got.Capacities(); !ok || l != lo || h != hi {
		t.Fatalf("%s: the player's table has capacities %d .. %d (%v), want %d .. %d", name, l, h, ok, lo, hi)
	}
	differ := 0
	for n := 1; n <= maxPairs; n++ {
		for k := 0; k <= min(n, hi); k++ {
			st := rules.State{N: n, J: n - k}
			var seen []rules.Choice
			for c := lo; c <= hi; c++ {
				if lru && k > c {
					continue // lru forgets down to the capacity drawn
				}
				g, ok := got.LookupCapacity(st, false, c)
				w, wok := want.LookupCapacity(st, false, c)
				if !ok || !wok || g != w {
					t.Errorf("%s: %v, capacity %d: the player plays %v (%v), the model %v (%v)", name, st, c, g, ok, w, wok)
				}
				seen = append(seen, g)
			}
			for _, c := range seen {
				if c != seen[0] {
					differ++
					break
				}
			}
		}
	}
	return differ
}
