package exact

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestStreakRowsOfTwoSeatsAreTheDecayPassOptimum solves the rows of every seat for itself with the
// pass streak at two seats, where the seats share the pairs and each maximising its own pairs is
// maximising the lead, and compares them, exactly, with the two-player decay model under the pass
// rules (decaypass.go): the mover's lead at streak 0 is the optimum's lead without a pass just
// made, and at streak 1 the lead just after a pass.
func TestStreakRowsOfTwoSeatsAreTheDecayPassOptimum(t *testing.T) {
	const maxN = 4
	f := field.Rat{}
	mems := []rules.Memory{
		{Forget: rules.ForgetDecay, Decay: 0.25},
		{Forget: rules.ForgetDecay, Decay: 0.5, Capacity: 2},
	}
	for _, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for _, mem := range mems {
			m := Model{Pass: rule, Memory: mem}
			mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			want := map[rules.State][2]*big.Rat{}
			w, err := newSweep[*big.Rat](f, m, mu, rules.State{N: maxN, J: maxN})
			if err != nil {
				t.Fatal(err)
			}
			err = w.run(context.Background(), maxN, func(st rules.State) error {
				want[st] = [2]*big.Rat{w.at(st).opt, w.at(st).optAfterPass}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			s, err := newSweep[*big.Rat](f, m, mu, rules.State{N: maxN, J: maxN})
			if err != nil {
				t.Fatal(err)
			}
			s.needOpt, s.needSelf, s.streak = false, true, newPassStreak[*big.Rat](2)
			compared := 0
			err = s.run(context.Background(), maxN, func(st rules.State) error {
				if st.N == 0 {
					return nil
				}
				for l, wantLead := range want[st] {
					v := s.streak.self[l]
					if lead := new(big.Rat).Sub(v[0], v[1]); lead.Cmp(wantLead) != 0 {
						t.Errorf("%v, %s, %v, streak %d: lead %s, the two-player model %s", mem, rule, st, l, lead.RatString(), wantLead.RatString())
					}
					compared++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if compared == 0 {
				t.Errorf("%v, %s: nothing compared", mem, rule)
			}
		}
	}
}
