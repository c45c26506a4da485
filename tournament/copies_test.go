package tournament_test

import (
	"strings"
	"testing"

	"memsim/sim/rules"
)

// Under copies alone the players of the copies model have it as their exact model: optimal and
// best-response play its table, and every seating of optimal, best-response, safe and daring has
// an exact model with the variant; random has none; under blind flips safe and daring have the
// copies model under blind flips.
func TestExactModelUnderCopies(t *testing.T) {
	tr, err := parse(t, `rules: {pairs: [4, 12], copies: 4}
players:
  - {name: opt, policy: optimal}
  - {name: safe, policy: safe}
  - {name: br, policy: best-response, opponent: safe}
  - {name: rnd, policy: random}
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		n     int
		seats []int
		exact bool
	}{{4, []int{0, 1}, true}, {12, []int{1, 0}, true}, {12, []int{2, 1}, true}, {12, []int{0, 2}, false}, {4, []int{0, 3}, false}} {
		model, _, ok := tr.ExactModel(tt.n, tt.seats)
		if ok != tt.exact {
			t.Errorf("n %d, seats %v: exact model %v, want %v", tt.n, tt.seats, ok, tt.exact)
		}
		if ok && model.Variant.CopiesOf() != 4 {
			t.Errorf("n %d, seats %v: model variant %v", tt.n, tt.seats, model.Variant)
		}
	}
	if got := tr.Players[0].Table; !strings.Contains(got, "copies 4") {
		t.Errorf("optimal's table %q does not name the copies", got)
	}
	if tr.Players[0].Player.Table.Copies() == nil {
		t.Error("optimal's table is not read by the state of faces")
	}
	tr, err = parse(t, "rules: {pairs: 4, copies: 4, flips: blind}\nplayers:\n  - {name: a, policy: safe}\n  - {name: b, policy: daring}\n")
	if err != nil {
		t.Fatal(err)
	}
	if model, _, ok := tr.ExactModel(4, []int{0, 1}); !ok || model.Variant.Flips != rules.FlipsBlind {
		t.Errorf("blind flips with copies 4: exact model %v, variant %v; want the copies model under blind flips", ok, model.Variant)
	}
	_, err = parse(t, "rules: {pairs: 4, copies: 4}\nplayers:\n  - {name: a, policy: optimal, memory: {capacity: 3, forget: lru}}\n  - {name: b, policy: daring}\n")
	if err == nil || !strings.Contains(err.Error(), "copies 4") {
		t.Errorf("optimal with lru memory under copies: %v", err)
	}
}
