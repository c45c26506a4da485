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

// With more than two copies of a face the coach gives win scores, the copies model's at the
// state of faces and the lead (at the start, two faces of four cards unseen, lead 0), in exact
// rationals while the table to win holds at most MaxExactCopiesWinCells values, and beyond in
// float64 (only the arithmetic is checked there: the float64 path is the exact one's in another
// field).
func TestVariantCoachOfCopiesWinScores(t *testing.T) {
	ctx := context.Background()
	v := rules.Variant{Copies: 4}
	c, err := NewVariantCoach(ctx, record.Rules{Pairs: 4, Seats: 2, Variant: v})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Exact() || !c.Win() {
		t.Fatalf("4 pairs of copies 4: exact %v, win %v; want both", c.Exact(), c.Win())
	}
	tb := NewTable(4, 0, []Seat{{Name: "you", Person: true}, {Name: "b"}})
	tb.Variant = v
	next, _, err := c.Values(tb)
	if err != nil || next == nil {
		t.Fatalf("4 pairs of copies 4: next %v, %v", next, err)
	}
	st, err := exact.ParseCopiesState("4:2u", 4)
	if err != nil {
		t.Fatal(err)
	}
	wmu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	ws, err := exact.CopiesWinChoiceValues(ctx, field.Rat{}, exact.Model{Variant: v}, wmu, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Options) != len(ws.Values) {
		t.Fatalf("4 pairs of copies 4: %d options, the solver's %d", len(next.Options), len(ws.Values))
	}
	for i, o := range next.Options {
		if o.Choice != ws.Values[i].Choice || o.Win.Cmp(ws.Values[i].Score) != 0 {
			t.Errorf("4 pairs of copies 4: %v win %v, the solver's %v %v", o.Choice, o.Win, ws.Values[i].Choice, ws.Values[i].Score)
		}
	}
	for _, tc := range []struct {
		pairs, copies int
		exact         bool
	}{{12, 4, true}, {20, 4, false}, {16, 4, true}, {12, 4, false}} {
		v := rules.Variant{Copies: tc.copies}
		if !tc.exact && tc.pairs == 12 {
			v.TurnLimit = 20 // 113,400 values to win
		}
		want := exact.CopiesWinCells(tc.pairs, tc.copies, v.TurnLimit) <= MaxExactCopiesWinCells
		if want != tc.exact {
			t.Fatalf("%d pairs of copies %d, limit %d: the test expects exact %v, but the table to win has %d values", tc.pairs, tc.copies, v.TurnLimit, tc.exact, exact.CopiesWinCells(tc.pairs, tc.copies, v.TurnLimit))
		}
		c, err := NewVariantCoach(ctx, record.Rules{Pairs: tc.pairs, Seats: 2, Variant: v})
		if err != nil {
			t.Fatal(err)
		}
		if c.Exact() != tc.exact {
			t.Errorf("%d pairs of copies %d, limit %d: exact %v, want %v", tc.pairs, tc.copies, v.TurnLimit, c.Exact(), tc.exact)
		}
	}
}
