package exact

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestSelfishPassTwoSeatsIsTheTwoPlayerOptimum runs the optimum of every seat for itself under the
// pass rules with two seats, where the stalemate follows a pass answered by a pass as in the
// two-player model and maximising one's own pairs is maximising the lead, and compares it with the
// two-player optimum in every state: the mover's pairs and the choice.
func TestSelfishPassTwoSeatsIsTheTwoPlayerOptimum(t *testing.T) {
	const maxN = 12
	f := field.Rat{}
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, m := range []Model{{Pass: rule}, {Pass: rule, Singletons: 2}} {
			mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			w, err := newSweep[*big.Rat](f, m, mu, startOf(m, maxN))
			if err != nil {
				t.Fatal(err)
			}
			w.needSelf, w.streak = true, newPassStreak[*big.Rat](2)
			compared, passes := 0, 0
			err = w.run(context.Background(), maxN, func(st rules.State) error {
				if st.N == 0 {
					return nil
				}
				c := w.at(st)
				want := pairsFromLead(f, f.FromInt(int64(st.N)), w.optAt(st))
				compared++
				if w.selfChoice == rules.Pass {
					passes++
				}
				if c.self[0].Cmp(want) != 0 || w.selfChoice != w.optChoice {
					t.Errorf("%+v %v: every seat for itself %s (%v), two-player optimum %s (%v)", m, st, c.self[0].RatString(), w.selfChoice, want.RatString(), w.optChoice)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if compared == 0 || passes == 0 {
				t.Fatalf("%+v: %d states compared, %d with a pass", m, compared, passes)
			}
		}
	}
}
