package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesDecayPassWithoutForgettingIsPerfectMemory checks that, under pass rules two-known and
// always, decay with q = 0 and no capacity gives the perfect-memory copies model's values under
// the same rule, from the start and from a state where a pass is legal, in exact rationals.
func TestCopiesDecayPassWithoutForgettingIsPerfectMemory(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ pairs, copies int }
	decks := []deck{{4, 4}}
	if !testing.Short() {
		decks = append(decks, deck{6, 4}, deck{6, 6})
	}
	for _, pass := range copiesMemPassRules {
		for _, d := range decks {
			st, err := StartCopiesState(d.pairs, d.copies)
			if err != nil {
				t.Fatal(err)
			}
			v := make(copiesVec, d.copies)
			v[copiesClass(d.copies, 1)], v[copiesClass(2, 1)], v[copiesClass(2, 0)] = 1, 1, 1
			for _, from := range []CopiesState{st, v.state()} {
				for _, mu := range copiesMemLineups {
					name := fmt.Sprintf("pass %s, %v, %s", pass, from, lineupName(mu))
					m := decayCopies(0.5, 0, d.copies)
					m.Pass = pass
					s, err := newCopiesDecaySolverAt(ctx, f, m, mu, from, 0, 1)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.solve(); err != nil {
						t.Fatal(err)
					}
					want, err := EvaluateCopies(ctx, f, Model{Variant: m.Variant, Pass: pass}, mu, from)
					if err != nil {
						t.Fatal(err)
					}
					if got := s.result(from).ExpectedLead; got.Cmp(want.ExpectedLead) != 0 {
						t.Errorf("%s: lead %v, perfect memory %v", name, got, want.ExpectedLead)
					}
				}
			}
		}
	}
}

// TestCopiesDecayPassTwoCopiesIsPairsDecay checks that, under pass rules two-known and always, two
// copies of a face give the decay model of the standard game under the same rule (§4.14)
// exactly, with and without a capacity.
func TestCopiesDecayPassTwoCopiesIsPairsDecay(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type cfg struct {
		pairs, capacity int
		q               float64
	}
	cfgs := []cfg{{3, 0, 0.3}, {4, 2, 0.25}}
	if !testing.Short() {
		cfgs = append(cfgs, cfg{5, 0, 0.1}, cfg{6, 3, 0.5})
	}
	for _, pass := range copiesMemPassRules {
		for _, c := range cfgs {
			st, err := StartCopiesState(c.pairs, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, mu := range copiesMemLineups {
				name := fmt.Sprintf("pass %s, %d pairs, decay(%v) capacity %d, %s", pass, c.pairs, c.q, c.capacity, lineupName(mu))
				m := decayCopies(c.q, c.capacity, 2)
				m.Pass = pass
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
}
