package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

func decayCopies(q float64, capacity, copies int) Model {
	return Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: q}, Variant: rules.Variant{Copies: copies}}
}

// TestCopiesDecayWithoutForgettingIsPerfectMemory checks that decay with q = 0 and no capacity
// gives the perfect-memory copies model's values, in exact rationals.
func TestCopiesDecayWithoutForgettingIsPerfectMemory(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ pairs, copies int }
	decks := []deck{{4, 4}, {3, 6}}
	if !testing.Short() {
		decks = append(decks, deck{6, 4}, deck{8, 8})
	}
	for _, d := range decks {
		st, err := StartCopiesState(d.pairs, d.copies)
		if err != nil {
			t.Fatal(err)
		}
		for _, mu := range copiesMemLineups {
			name := fmt.Sprintf("%d pairs of %d cards, %s", d.pairs, d.copies, lineupName(mu))
			s, err := newCopiesDecaySolverAt(ctx, f, decayCopies(0.5, 0, d.copies), mu, st, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solve(); err != nil {
				t.Fatal(err)
			}
			want, err := EvaluateCopies(ctx, f, Model{Variant: rules.Variant{Copies: d.copies}}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.result(st).ExpectedLead; got.Cmp(want.ExpectedLead) != 0 {
				t.Errorf("%s: lead %v, perfect memory %v", name, got, want.ExpectedLead)
			}
		}
	}
}

// TestCopiesDecayTwoCopiesIsPairsDecay checks that two copies of a face give the decay model of
// the standard game (§4.14) exactly, with and without a capacity.
func TestCopiesDecayTwoCopiesIsPairsDecay(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type cfg struct {
		pairs, capacity int
		q               float64
	}
	cfgs := []cfg{{4, 0, 0.3}, {4, 2, 0.25}}
	if !testing.Short() {
		cfgs = append(cfgs, cfg{6, 0, 0.1}, cfg{6, 3, 0.5})
	}
	for _, c := range cfgs {
		st, err := StartCopiesState(c.pairs, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, mu := range copiesMemLineups {
			name := fmt.Sprintf("%d pairs, decay(%v) capacity %d, %s", c.pairs, c.q, c.capacity, lineupName(mu))
			m := decayCopies(c.q, c.capacity, 2)
			got, err := EvaluateCopies(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			m.Variant = rules.Variant{}
			want, err := Evaluate(ctx, f, m, mu, rules.State{N: c.pairs, J: c.pairs})
			if err != nil {
				t.Fatal(err)
			}
			if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
				t.Errorf("%s: lead %v, decay model %v", name, got.ExpectedLead, want.ExpectedLead)
			}
		}
	}
}

// TestCopiesDecayIdentities checks, with four and six copies of a face, that best-response to
// optimal gains nothing over optimal, that the float64 values agree with the exact ones, and
// that the best choice's value is the optimum's.
func TestCopiesDecayIdentities(t *testing.T) {
	ctx := context.Background()
	type cfg struct {
		pairs, copies, capacity int
		q                       float64
	}
	cfgs := []cfg{{4, 4, 0, 0.3}, {6, 6, 3, 0.2}}
	if !testing.Short() {
		cfgs = append(cfgs, cfg{8, 4, 0, 0.3}, cfg{8, 4, 4, 0.1})
	}
	opt := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	br := Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyOptimal}
	for _, c := range cfgs {
		name := fmt.Sprintf("%d pairs of %d cards, decay(%v) capacity %d", c.pairs, c.copies, c.q, c.capacity)
		m := decayCopies(c.q, c.capacity, c.copies)
		st, err := StartCopiesState(c.pairs, c.copies)
		if err != nil {
			t.Fatal(err)
		}
		o, err := EvaluateCopies(ctx, field.Rat{}, m, opt, st)
		if err != nil {
			t.Fatal(err)
		}
		b, err := EvaluateCopies(ctx, field.Rat{}, m, br, st)
		if err != nil {
			t.Fatal(err)
		}
		if o.ExpectedLead.Cmp(b.ExpectedLead) != 0 {
			t.Errorf("%s: best-response to optimal %v, optimal %v", name, b.ExpectedLead, o.ExpectedLead)
		}
		fl, err := EvaluateCopies(ctx, field.Float{}, m, opt, st)
		if err != nil {
			t.Fatal(err)
		}
		if x, _ := o.ExpectedLead.Float64(); math.Abs(x-fl.ExpectedLead) > 1e-12 {
			t.Errorf("%s: float64 lead %v, exact %v", name, fl.ExpectedLead, x)
		}
		cs, err := CopiesChoiceValues(ctx, field.Rat{}, m, opt, st)
		if err != nil {
			t.Fatal(err)
		}
		best := new(big.Rat).Set(cs.Values[0].Lead)
		for _, cv := range cs.Values[1:] {
			if cv.Lead.Cmp(best) > 0 {
				best.Set(cv.Lead)
			}
		}
		if best.Cmp(o.ExpectedLead) != 0 {
			t.Errorf("%s: best choice's lead %v, optimal %v", name, best, o.ExpectedLead)
		}
	}
}

// TestCopiesDecayRefusals checks that the models the copies decay model does not cover (three
// players under a pass rule or a turn limit, solitaire under a pass rule) are refused with an
// error, never a wrong value.
func TestCopiesDecayRefusals(t *testing.T) {
	ctx, f := context.Background(), field.Float{}
	st, err := StartCopiesState(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	m := decayCopies(0.3, 0, 4)
	m.Pass = rules.PassAlways
	if _, err := EvaluateCopies(ctx, f, m, Lineup{Players: 1, Policy: rules.PolicyOptimal}, st); err == nil {
		t.Error("solitaire under pass rule always, decay with copies: no error")
	}
	m.Variant.TurnLimit = 10
	if _, err := EvaluateCopies(ctx, f, m, Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, st); err == nil {
		t.Error("three players under a turn limit, decay with copies: no error")
	}
	m = decayCopies(0.3, 0, 4)
	m.Variant.TurnLimit = 10
	if _, err := EvaluateCopies(ctx, f, m, Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, st); err == nil {
		t.Error("three players under a turn limit, decay with copies: no error")
	}
}
