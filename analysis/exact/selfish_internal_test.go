package exact

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestSelfishTwoSeatsIsTheTwoPlayerOptimum runs the optimum of every seat for itself with two
// seats, where maximising one's own pairs is maximising the lead, and compares it with the
// two-player optimum in every state: the mover's pairs and the choice.
func TestSelfishTwoSeatsIsTheTwoPlayerOptimum(t *testing.T) {
	models := []Model{
		{}, {Singletons: 2},
		{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}},
		{Memory: rules.Memory{Capacity: 4, Forget: rules.ForgetHandoverUniform}},
		{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}},
	}
	const maxN = 12
	f := field.Rat{}
	for _, m := range models {
		mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
		w, err := newSweep[*big.Rat](f, m, mu, startOf(m, maxN))
		if err != nil {
			t.Fatal(err)
		}
		w.needSelf = true
		compared := 0
		err = w.run(context.Background(), maxN, func(st rules.State) error {
			if st.N == 0 {
				return nil
			}
			c := w.at(st)
			want := pairsFromLead(f, f.FromInt(int64(st.N)), w.optAt(st))
			compared++
			if c.self[0].Cmp(want) != 0 || w.selfChoice != w.optChoice {
				t.Errorf("%+v %v: every seat for itself %s (%v), two-player optimum %s (%v)", m, st, c.self[0].RatString(), w.selfChoice, want.RatString(), w.optChoice)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if compared == 0 {
			t.Fatal("nothing compared")
		}
	}
}
