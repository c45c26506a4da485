package rules_test

import (
	"testing"

	"memsim/sim/rules"
)

// A capacity table whose layers are standings tables reads, with capacity c drawn, the standings
// of c's layer (the nearest beyond the range); layers that mix standings with plain tables, or
// standings of different seats, are refused.
func TestCapacityTableOfStandingsReadsTheLayerOfTheCapacityDrawn(t *testing.T) {
	const maxPairs = 2
	st := rules.State{N: 2, J: 1}
	pairs := []int{0, 1, 0}
	d := []int{1, 0, 1}
	choices := []rules.Choice{rules.Safe, rules.Daring, rules.KnownFirst}
	var layers []*rules.ChoiceTable
	for _, c := range choices {
		s, err := rules.NewStandingsTable(3, maxPairs, 0)
		if err != nil {
			t.Fatal(err)
		}
		s.Set(st, d, c)
		l, err := rules.NewStandingsChoiceTable(s)
		if err != nil {
			t.Fatal(err)
		}
		layers = append(layers, l)
	}
	tab, err := rules.NewCapacityChoiceTable(2, layers)
	if err != nil {
		t.Fatal(err)
	}
	for c, want := range map[int]rules.Choice{0: rules.Safe, 2: rules.Safe, 3: rules.Daring, 4: rules.KnownFirst, 9: rules.KnownFirst} {
		got, ok := tab.StandingsAt(0, c).Lookup(st, pairs)
		if !ok || got != want {
			t.Errorf("capacity %d: %v (%v), want %v", c, got, ok, want)
		}
	}
	if got, ok := tab.Standings().Lookup(st, pairs); !ok || got != rules.KnownFirst {
		t.Errorf("without the capacity: %v (%v), want the last layer's %v", got, ok, rules.KnownFirst)
	}
	plain, err := rules.NewChoiceTable(maxPairs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rules.NewCapacityChoiceTable(2, []*rules.ChoiceTable{layers[0], plain}); err == nil {
		t.Error("a standings layer beside a plain one is accepted")
	}
	four, err := rules.NewStandingsTable(4, maxPairs, 0)
	if err != nil {
		t.Fatal(err)
	}
	l4, err := rules.NewStandingsChoiceTable(four)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rules.NewCapacityChoiceTable(2, []*rules.ChoiceTable{layers[0], l4}); err == nil {
		t.Error("standings layers of three and four seats are accepted")
	}
}
