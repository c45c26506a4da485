package exact

import (
	"context"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSingletonsSeatsHandOverOfAKnownPairMatchesCardPlay checks, at three seats with two
// pairs and a singleton under capacity 2 ± 1, the states in which a hand-over leaves a pair known
// whole (the next seat takes it and moves on in a row of fewer pairs, in its own order): every
// seat's pairs before the draw, each seat to move, against the card-level reference
// (fluctsingles_seats_cardlevel_test.go) playing every seat daring, which flips two unknown cards
// whenever it can and so hands such pairs over.
func TestFluctSingletonsSeatsHandOverOfAKnownPairMatchesCardPlay(t *testing.T) {
	const pairs, singles, capacity, sigma, players = 2, 1, 2, 1, 3
	m := fluctSinglesModel(singles, capacity, sigma)
	mu := SeatLineup(rules.PolicyDaring, rules.PolicySafe, rules.PolicyDaring)
	s, err := newFSSSolver(context.Background(), field.Float{}, m, mu, pairs)
	if err != nil {
		t.Fatal(err)
	}
	pol := mu.SeatPolicies()
	card := fssCardLevel(pairs, singles, capacity, sigma, players, rules.PassNever, func(t, _ int, st rules.State, _ int) rules.Choice {
		return pol[t].Decide(st)
	})
	handed := 0
	for _, c := range s.cells {
		for _, arcs := range c.arcs {
			for _, a := range arcs {
				if !a.keep && a.handed > 0 && s.cells[a.to].key.st.N > 0 {
					handed++
				}
			}
		}
	}
	if handed == 0 {
		t.Fatal("no hand-over leaves a pair known whole with pairs left after it")
	}
	for st, ds := range s.draws {
		if st.N == 0 {
			continue
		}
		for key, want := range card[st].val {
			got := make([]float64, players)
			for _, d := range ds {
				for i, x := range s.vals[d.to].seats[key[1]][key[0]] {
					got[i] += d.p * x
				}
			}
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-9 {
					t.Errorf("%v seat %d to move: solver %v, card level %v", st, key[0], got, want)
					break
				}
			}
		}
	}
}
