package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestCopiesHandoverLimitIdentities checks the turn-limited handover-uniform copies model, in
// exact rationals, against other models: a memory that holds every card gives the perfect-memory
// copies model under the same limit; two copies of a face give the pairs game's handover-uniform
// model under the limit; and with no card ever forgotten (a capacity of at least the faces) a
// limit of three turns a pair never binds, giving the values without a limit.
func TestCopiesHandoverLimitIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	lineups := copiesMemLineups
	limits := []int{5}
	if testing.Short() {
		lineups = []Lineup{copiesMemLineups[0], copiesMemLineups[4]}
	} else {
		limits = append(limits, 2, 9)
	}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
		for _, limit := range limits {
			for _, mu := range lineups {
				name := fmt.Sprintf("pass %s, turn limit %d, %s", pass, limit, lineupName(mu))
				// A memory that holds every card: perfect memory.
				st, _ := StartCopiesState(4, 4)
				m := handoverCopies(8, 4)
				m.Pass, m.Variant.TurnLimit = pass, limit
				got, err := EvaluateCopies(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				perfect := Model{Variant: m.Variant, Pass: pass}
				want, err := EvaluateCopies(ctx, f, perfect, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 || got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 {
					t.Errorf("%s, capacity 8: lead %v, pairs %v; perfect memory %v, %v", name, got.ExpectedLead, got.ExpectedPairs, want.ExpectedLead, want.ExpectedPairs)
				}
				// Two copies of a face: the pairs game.
				for _, capacity := range []int{2, 3} {
					st2, _ := StartCopiesState(5, 2)
					m2 := handoverCopies(capacity, 2)
					m2.Pass, m2.Variant.TurnLimit = pass, limit
					got, err := evaluateCopiesMem(ctx, f, m2, mu, st2)
					if err != nil {
						t.Fatal(err)
					}
					want, err := Evaluate(ctx, f, Model{Memory: m2.Memory, Pass: pass, Variant: rules.Variant{TurnLimit: limit}}, mu, rules.State{N: 5, J: 5})
					if err != nil {
						t.Fatal(err)
					}
					if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 || got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 {
						t.Errorf("%s, two copies, capacity %d: lead %v, pairs %v; pairs model %v, %v", name, capacity, got.ExpectedLead, got.ExpectedPairs, want.ExpectedLead, want.ExpectedPairs)
					}
				}
			}
		}
	}
	// A limit that never binds (pass never: every turn takes a pair or turns up a card).
	st, _ := StartCopiesState(4, 4)
	for _, mu := range lineups {
		m := handoverCopies(2, 4)
		want, err := EvaluateCopies(ctx, f, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		m.Variant.TurnLimit = 3 * 4
		got, err := EvaluateCopies(ctx, f, m, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if got.ExpectedLead.Cmp(want.ExpectedLead) != 0 || got.ExpectedPairs.Cmp(want.ExpectedPairs) != 0 {
			t.Errorf("%s, capacity 2, 2 faces, turn limit 12: lead %v, pairs %v; no limit %v, %v", lineupName(mu), got.ExpectedLead, got.ExpectedPairs, want.ExpectedLead, want.ExpectedPairs)
		}
	}
}
