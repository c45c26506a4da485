package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// copiesMemPassRules are the pass rules under which a pass may be made.
var copiesMemPassRules = []rules.PassRule{rules.PassTwoKnown, rules.PassAlways}

// TestCopiesHandoverPassLargeCapacityIsPerfectMemory checks that, under pass rules two-known and
// always, a handover-uniform memory that holds every card of the deck gives the perfect-memory
// copies model's values and every choice's values from the start, in exact rationals.
func TestCopiesHandoverPassLargeCapacityIsPerfectMemory(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ pairs, copies int }
	decks := []deck{{4, 4}, {6, 6}}
	if !testing.Short() {
		decks = append(decks, deck{8, 4}, deck{6, 4})
	}
	for _, pass := range copiesMemPassRules {
		for _, d := range decks {
			st, err := StartCopiesState(d.pairs, d.copies)
			if err != nil {
				t.Fatal(err)
			}
			// A state with remembered cards of faces of different sizes, where a pass is legal.
			v := make(copiesVec, d.copies)
			v[copiesClass(d.copies, 1)], v[copiesClass(2, 1)], v[copiesClass(2, 0)] = 1, 1, 1
			for _, from := range []CopiesState{st, v.state()} {
				for _, mu := range copiesMemLineups {
					name := fmt.Sprintf("pass %s, %v, %s", pass, from, lineupName(mu))
					m := handoverCopies(2*d.pairs, d.copies)
					m.Pass = pass
					perfect := Model{Variant: m.Variant, Pass: pass}
					got, err := CopiesChoiceValues(ctx, f, m, mu, from)
					if err != nil {
						t.Fatal(err)
					}
					want, err := CopiesChoiceValues(ctx, f, perfect, mu, from)
					if err != nil {
						t.Fatal(err)
					}
					if got.Value.ExpectedLead.Cmp(want.Value.ExpectedLead) != 0 {
						t.Errorf("%s: lead %v, perfect memory %v", name, got.Value.ExpectedLead, want.Value.ExpectedLead)
					}
					if len(got.Values) != len(want.Values) {
						t.Fatalf("%s: %d choices, perfect memory %d", name, len(got.Values), len(want.Values))
					}
					for i := range got.Values {
						if got.Values[i].Choice != want.Values[i].Choice || got.Values[i].Lead.Cmp(want.Values[i].Lead) != 0 {
							t.Errorf("%s: %s %v, perfect memory %s %v", name, got.Values[i].Choice, got.Values[i].Lead, want.Values[i].Choice, want.Values[i].Lead)
						}
					}
				}
			}
		}
	}
}

// TestCopiesHandoverPassTwoCopiesIsPairsModel checks that, under pass rules two-known and always,
// two copies of a face give the pairs game's handover-uniform model (§4.4) exactly, every lineup,
// capacities 2 to 4.
func TestCopiesHandoverPassTwoCopiesIsPairsModel(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	maxPairs := 5
	if !testing.Short() {
		maxPairs = 8
	}
	for _, pass := range copiesMemPassRules {
		for capacity := 2; capacity <= 4; capacity++ {
			for n := 1; n <= maxPairs; n++ {
				st, err := StartCopiesState(n, 2)
				if err != nil {
					t.Fatal(err)
				}
				for _, mu := range copiesMemLineups {
					m := handoverCopies(capacity, 2)
					m.Pass = pass
					got, err := evaluateCopiesMem(ctx, f, m, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					want, err := Evaluate(ctx, f, Model{Memory: m.Memory, Pass: pass}, mu, rules.State{N: n, J: n})
					if err != nil {
						t.Fatal(err)
					}
					if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 {
						t.Errorf("pass %s, handover-uniform(%d), %d pairs, %s: lead %v, pairs model %v", pass, capacity, n, lineupName(mu), got.ExpectedLead, want.ExpectedLead)
					}
				}
			}
		}
	}
}
