package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesDecayLimitIdentities checks the turn-limited decay copies model, in exact rationals,
// against other models: q = 0 (nothing forgotten) gives the perfect-memory copies model under the
// same limit and pass rule, with and without a capacity of the whole deck; two copies of a face
// give the pairs game's decay model under the limit; and the best choice's value is the
// optimum's.
func TestCopiesDecayLimitIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	lineups := []Lineup{copiesMemLineups[0], copiesMemLineups[3]}
	limits := []int{5}
	passes := []rules.PassRule{rules.PassNever, rules.PassAlways}
	if !testing.Short() {
		lineups = copiesMemLineups
		limits = append(limits, 2, 9)
		passes = append(passes, rules.PassTwoKnown)
	}
	for _, pass := range passes {
		for _, limit := range limits {
			for _, mu := range lineups {
				name := fmt.Sprintf("pass %s, turn limit %d, %s", pass, limit, lineupName(mu))
				// q = 0: perfect memory.
				st, _ := StartCopiesState(4, 4)
				m := decayCopies(0.5, 0, 4)
				m.Pass, m.Variant.TurnLimit = pass, limit
				s, err := newCopiesDecaySolverAt(ctx, f, m, mu, st, 0, 1)
				if err != nil {
					t.Fatal(err)
				}
				l, err := newCMLimitOver(s.copiesMemSolver, limit)
				if err != nil {
					t.Fatal(err)
				}
				got := l.result(st)
				want, err := EvaluateCopies(ctx, f, Model{Variant: m.Variant, Pass: pass}, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 || got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 {
					t.Errorf("%s, q = 0: lead %v, pairs %v; perfect memory %v, %v", name, got.ExpectedLead, got.ExpectedPairs, want.ExpectedLead, want.ExpectedPairs)
				}
				// Two copies of a face: the pairs game's decay model.
				for _, capacity := range []int{0, 2} {
					st2, _ := StartCopiesState(4, 2)
					m2 := decayCopies(0.25, capacity, 2)
					m2.Pass, m2.Variant.TurnLimit = pass, limit
					got, err := evaluateCopiesDecay(ctx, f, m2, mu, st2)
					if err != nil {
						t.Fatal(err)
					}
					want, err := Evaluate(ctx, f, Model{Memory: m2.Memory, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}, mu, rules.State{N: 4, J: 4})
					if err != nil {
						t.Fatal(err)
					}
					if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 || got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 {
						t.Errorf("%s, two copies, capacity %d: lead %v, pairs %v; pairs model %v, %v", name, capacity, got.ExpectedLead, got.ExpectedPairs, want.ExpectedLead, want.ExpectedPairs)
					}
				}
				// The best choice is worth the optimum's lead.
				if mu.Policy == rules.PolicyOptimal && mu.Opponent == rules.PolicyOptimal {
					m3 := decayCopies(0.3, 3, 4)
					m3.Pass, m3.Variant.TurnLimit = pass, limit
					cs, err := CopiesChoiceValues(ctx, f, m3, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					for _, cv := range cs.Values {
						if cv.Best && cv.Lead.Cmp(cs.Value.ExpectedLead) != 0 {
							t.Errorf("%s, decay(0.3) capacity 3: best choice %s is worth %v, the optimum %v", name, cv.Choice, cv.Lead, cs.Value.ExpectedLead)
						}
					}
				}
			}
		}
	}
}
