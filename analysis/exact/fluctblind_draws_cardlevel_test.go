package exact_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctBlindTwoPairsKnownWholeDrawTwice plays card by card the turn under blind flips that
// hands the next seat two pairs known whole, under lru with a capacity that can fall below the
// cards left remembered: with lru(3, σ 2) (capacities 2, 3, 4, 5) and five pairs each half known,
// a daring turn with capacity 5 drawn recognises both cards it turns, so the next seat takes the
// two pairs in two turns, each drawing a capacity that forgets beyond it, before its own turn
// draws a third. Every legal choice is played once from there (the optimum's table afterwards)
// and compared with FluctChoiceValues (daring alone in the short form; known-first with safe naming
// the newest card only); a single draw before the next seat's own turn gives other values.
func TestFluctBlindTwoPairsKnownWholeDrawTwice(t *testing.T) {
	ctx := context.Background()
	const n, c, depth = 5, 5, 14
	mem := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 2}
	m := exact.Model{Memory: mem, Variant: rules.Variant{Flips: rules.FlipsBlind}}
	tab, err := exact.FluctTable(ctx, field.Float{}, m, n)
	if err != nil {
		t.Fatal(err)
	}
	opt := func(st rules.State, c int) rules.Choice {
		ch, ok := tab.LookupCapacity(st, false, c)
		if !ok || !rules.Legal(st, ch, rules.PassNever) {
			t.Fatalf("%s: no legal choice in %v with capacity %d (%v, %t)", mem, st, c, ch, ok)
		}
		return ch
	}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	st := rules.State{N: n, J: 0}
	vals, err := exact.FluctChoiceValues(ctx, field.Float{}, m, mu, st, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(vals.Values) == 0 {
		t.Fatalf("%s, %v, capacity %d: no choice values", mem, st, c)
	}
	for _, v := range vals.Values {
		if v.Choice != rules.Daring && testing.Short() {
			continue // the other choices play longer games
		}
		for _, pickNewest := range []bool{false, true} {
			if v.Choice == rules.KnownFirst && !pickNewest {
				continue // the longest game; the newest named by safe plays it within the budget
			}
			name := fmt.Sprintf("%s, %v, capacity %d, %v once (newest=%t)", mem, st, c, v.Choice, pickNewest)
			var known []int
			for i := range n {
				known = append(known, 2*i)
			}
			g := newFlDeal(n, known)
			for _, x := range known {
				g.old[x] = true
			}
			pl := &flPlayer{lru: true, m: mem.Capacity, sigma: mem.Fluctuation, blind: true, pickNewest: pickNewest,
				choose: [2]func(rules.State, int) rules.Choice{opt, opt}, memo: map[string][2]float64{}}
			got, tail := pl.play(g, 0, depth, c, v.Choice, false)
			if d := math.Abs(got - v.Lead); d > float64(n)*tail+1e-9 {
				t.Errorf("%s: card play %.12f (unfinished %.2g), FluctChoiceValues %.12f", name, got, tail, v.Lead)
			}
		}
	}
}
