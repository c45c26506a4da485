package rules

import "testing"

// A table for a turn limit reads the layer of the turns left, and the last layer for more turns
// left than it has or for a game without a limit; a layer that covers other states is refused.
func TestTurnChoiceTable(t *testing.T) {
	st := State{N: 2, J: 1}
	var layers []*ChoiceTable
	for _, c := range []Choice{Pass, Safe, Daring} {
		l, err := NewChoiceTable(3, 0)
		if err != nil {
			t.Fatal(err)
		}
		l.Set(st, false, c)
		layers = append(layers, l)
	}
	table, err := NewTurnChoiceTable(layers)
	if err != nil {
		t.Fatal(err)
	}
	if table.TurnLimit() != 3 {
		t.Errorf("TurnLimit() = %d, want 3", table.TurnLimit())
	}
	for _, tc := range []struct {
		left int
		want Choice
	}{{1, Pass}, {2, Safe}, {3, Daring}, {4, Daring}, {0, Daring}} {
		if c, ok := table.LookupTurnsLeft(st, false, tc.left); !ok || c != tc.want {
			t.Errorf("%d turns left: %v %v, want %v", tc.left, c, ok, tc.want)
		}
	}
	if c, ok := table.Lookup(st, false); !ok || c != Daring {
		t.Errorf("Lookup: %v %v, want the last layer's daring", c, ok)
	}
	if _, ok := table.LookupTurnsLeft(st, true, 1); ok {
		t.Error("a choice after a pass, which no layer holds")
	}
	if c, ok := layers[0].LookupTurnsLeft(st, false, 3); !ok || c != Pass {
		t.Errorf("a table without layers: %v %v, want its own choice", c, ok)
	}
	other, err := NewChoiceTable(4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewTurnChoiceTable([]*ChoiceTable{layers[0], other}); err == nil {
		t.Error("layers of different sizes accepted")
	}
	if _, err := NewTurnChoiceTable(nil); err == nil {
		t.Error("no layer accepted")
	}
}
