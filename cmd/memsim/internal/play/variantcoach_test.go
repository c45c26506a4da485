package play

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// Under a turn limit beyond MaxExactLimitPairs pairs the coach solves in float64, and its values
// at the start are the solver's in float64; at or below, in exact rationals, the solver's
// exactly.
func TestVariantCoachArithmetic(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		pairs int
		exact bool
	}{{MaxExactLimitPairs, true}, {MaxExactLimitPairs + 2, false}} {
		v := rules.Variant{TurnLimit: 2 * tc.pairs}
		c, err := NewVariantCoach(ctx, record.Rules{Pairs: tc.pairs, Seats: 2, Variant: v})
		if err != nil {
			t.Fatal(err)
		}
		if c.Exact() != tc.exact {
			t.Fatalf("%d pairs: exact %v, want %v", tc.pairs, c.Exact(), tc.exact)
		}
		tb := NewTable(tc.pairs, 0, []Seat{{Name: "you", Person: true}, {Name: "b"}})
		tb.Variant = v
		next, last, err := c.Values(tb)
		if err != nil || next == nil || last != nil {
			t.Fatalf("%d pairs: next %v, last %v, %v", tc.pairs, next, last, err)
		}
		mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		st := rules.State{N: tc.pairs, J: tc.pairs}
		m := exact.Model{Variant: v}
		if tc.exact {
			cs, err := exact.ChoiceValues(ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if got := next.Options[0].Pairs; got.Cmp(cs.Values[0].Pairs) != 0 {
				t.Errorf("%d pairs: %v, the solver's %v", tc.pairs, got, cs.Values[0].Pairs)
			}
			continue
		}
		cs, err := exact.ChoiceValues(ctx, field.Float{}, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := next.Options[0].Pairs.Float64(); got != cs.Values[0].Pairs {
			t.Errorf("%d pairs: %v, the solver's %v", tc.pairs, got, cs.Values[0].Pairs)
		}
	}
}
