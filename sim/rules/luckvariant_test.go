package rules

import (
	"math"
	"strings"
	"testing"
)

// TestVariantLuckTableLayers checks that a turn limit's table keeps a value and an advantage per
// number of turns left, and a copies table one per state of faces, each read back where it was
// set and nowhere else.
func TestVariantLuckTableLayers(t *testing.T) {
	lim, err := NewVariantLuckTable(Variant{TurnLimit: 3}, Memory{}, PassNever, 0, 2, 4, "ref")
	if err != nil {
		t.Fatal(err)
	}
	st := State{N: 3, J: 1}
	for left := 1; left <= 3; left++ {
		lim.SetTurnValue(st, false, left, []float64{float64(left), -float64(left)})
		lim.SetTurnAdvantage(st, false, left, Safe, []float64{10 * float64(left), 0})
	}
	for left := 1; left <= 3; left++ {
		if v := lim.TurnValues(st, false, left); v[0] != float64(left) || v[1] != -float64(left) {
			t.Errorf("turn limit: values %v with %d turns left", v, left)
		}
		if a := lim.TurnAdvantages(st, false, left, Safe); a[0] != 10*float64(left) {
			t.Errorf("turn limit: advantage %v with %d turns left", a, left)
		}
		if v := lim.TurnValues(st, true, left); !math.IsNaN(v[0]) {
			t.Errorf("turn limit: value %v after a pass, never set", v)
		}
	}
	for _, left := range []int{0, 4} {
		if v := lim.TurnValues(st, false, left); v != nil {
			t.Errorf("turn limit 3: values %v with %d turns left, want none", v, left)
		}
	}
	if v := lim.Values(st, false); v != nil {
		t.Errorf("turn limit: values %v without the turns left, want none", v)
	}

	cp, err := NewVariantLuckTable(Variant{Copies: 4}, Memory{}, PassNever, 0, 2, 6, "ref")
	if err != nil {
		t.Fatal(err)
	}
	a, b := []int{0, 0, 3, 0}, []int{1, 0, 1, 1}
	cp.SetCopiesValue(a, []float64{1, 2})
	cp.SetCopiesValue(b, []float64{3, 4})
	cp.SetCopiesAdvantage(b, KnownFirst, []float64{-1, 1})
	if got := cp.CopiesValues(AppendCopiesKey(nil, a)); got[0] != 1 || got[1] != 2 {
		t.Errorf("copies: values %v of %v", got, a)
	}
	if got := cp.CopiesAdvantages(AppendCopiesKey(nil, b), KnownFirst); got[0] != -1 || got[1] != 1 {
		t.Errorf("copies: advantages %v of %v", got, b)
	}
	if got := cp.CopiesAdvantages(AppendCopiesKey(nil, a), KnownFirst); !math.IsNaN(got[0]) {
		t.Errorf("copies: advantage %v never set", got)
	}
	if got := cp.CopiesValues(AppendCopiesKey(nil, []int{0, 1, 0, 0})); got != nil || cp.CopiesStates() != 2 {
		t.Errorf("copies: values %v of a state never set, %d states", got, cp.CopiesStates())
	}
}

// TestCopiesLimitLuckTableLayers checks that a table of copies under a turn limit keeps a value
// and an advantage per state of faces and number of turns left, each read back where it was set
// and nowhere else, and that it is read neither without the turns left nor by the count state.
func TestCopiesLimitLuckTableLayers(t *testing.T) {
	cp, err := NewVariantLuckTable(Variant{Copies: 4, TurnLimit: 3}, Memory{}, PassNever, 0, 2, 6, "ref")
	if err != nil {
		t.Fatal(err)
	}
	a, b := []int{0, 0, 3, 0}, []int{1, 0, 1, 1}
	for left := 1; left <= 3; left++ {
		cp.SetCopiesTurnValue(a, left, []float64{float64(left), -float64(left)})
		cp.SetCopiesTurnAdvantage(b, left, Safe, []float64{10 * float64(left), 0})
	}
	ka, kb := AppendCopiesKey(nil, a), AppendCopiesKey(nil, b)
	for left := 1; left <= 3; left++ {
		if v := cp.CopiesTurnValues(ka, left); v == nil || v[0] != float64(left) || v[1] != -float64(left) {
			t.Errorf("values %v of %v with %d turns left", v, a, left)
		}
		if v := cp.CopiesTurnAdvantages(kb, left, Safe); v == nil || v[0] != 10*float64(left) {
			t.Errorf("advantages %v of %v with %d turns left", v, b, left)
		}
		if v := cp.CopiesTurnValues(kb, left); v == nil || !math.IsNaN(v[0]) {
			t.Errorf("value %v of %v never set, want NaN", v, b)
		}
	}
	for _, left := range []int{0, 4} {
		if v := cp.CopiesTurnValues(ka, left); v != nil {
			t.Errorf("values %v with %d turns left, want none", v, left)
		}
	}
	if v := cp.CopiesValues(ka); v != nil {
		t.Errorf("values %v without the turns left, want none", v)
	}
	if v := cp.TurnValues(State{N: 4, J: 4}, false, 2); v != nil {
		t.Errorf("values %v by the count state, want none", v)
	}
	if n := cp.CopiesStates(); n != 6 {
		t.Errorf("%d states of faces and turns left, want 6", n)
	}
}

// TestVariantLuckTableErrors checks the variants a luck table is refused for.
func TestVariantLuckTableErrors(t *testing.T) {
	for _, c := range []struct {
		v    Variant
		pass PassRule
		want string
	}{
		{Variant{Copies: 4, Flips: FlipsBlind}, PassTwoKnown, "only pass rule never"},
		{Variant{Copies: 4, TurnLimit: 5}, PassTwoKnown, "only pass rule never"},
		{Variant{Copies: 4}, PassAlways, "only pass rule never"},
		{Variant{Copies: 5}, PassNever, "copies 5"},
	} {
		_, err := NewVariantLuckTable(c.v, Memory{}, c.pass, 0, 2, 4, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, pass %s: error %v, want one containing %q", c.v, c.pass, err, c.want)
		}
	}
}
