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

// TestCopiesLimitedSeatsPassWithoutForgettingIsPerfectMemory checks that, at three and four seats
// under pass rules two-known and always, decay with q = 0 and no capacity, and a handover-uniform
// memory as large as every card, give the perfect-memory copies model's values under the same
// pass rule (copiespassseats.go) exactly, for the optimum of every seat for itself and a policy
// per seat; that every seat's pairs add up to the pairs; and that float64 agrees with the exact
// values.
func TestCopiesLimitedSeatsPassWithoutForgettingIsPerfectMemory(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	type deck struct{ pairs, copies int }
	decks := []deck{{2, 4}}
	lineups := []Lineup{{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}}
	if !testing.Short() {
		decks = append(decks, deck{4, 4})
		lineups = append(lineups,
			Lineup{Players: 4, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
			Lineup{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicySafe}})
	}
	for _, d := range decks {
		st, err := StartCopiesState(d.pairs, d.copies)
		if err != nil {
			t.Fatal(err)
		}
		for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
			for _, mu := range lineups {
				name := fmt.Sprintf("%d pairs of %d cards, pass %s, %s", d.pairs, d.copies, pass, lineupName(mu))
				pm := Model{Variant: rules.Variant{Copies: d.copies}, Pass: pass}
				want, err := EvaluateCopies(ctx, f, pm, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				dm := decayCopies(0.5, 0, d.copies)
				dm.Pass = pass
				s, err := newCopiesDecaySolverAt(ctx, f, dm, mu, st, 0, 1)
				if err == nil {
					err = s.solve()
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				hm := handoverCopies(2*d.pairs, d.copies)
				hm.Pass = pass
				hu, err := EvaluateCopies(ctx, f, hm, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				fl, err := EvaluateCopies(ctx, field.Float{}, hm, mu, st)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sum := new(big.Rat)
				for i, w := range want.PairsBySeat {
					if got := s.result(st).PairsBySeat[i]; got.Cmp(w) != 0 {
						t.Errorf("%s: decay q = 0 seat %d %v, perfect memory %v", name, i, got, w)
					}
					if got := hu.PairsBySeat[i]; got.Cmp(w) != 0 {
						t.Errorf("%s: handover-uniform(%d) seat %d %v, perfect memory %v", name, 2*d.pairs, i, got, w)
					}
					if x, _ := hu.PairsBySeat[i].Float64(); math.Abs(x-fl.PairsBySeat[i]) > 1e-9 {
						t.Errorf("%s: seat %d float64 %v, exact %v", name, i, fl.PairsBySeat[i], x)
					}
					sum.Add(sum, hu.PairsBySeat[i])
				}
				if sum.Cmp(big.NewRat(int64(d.pairs), 1)) != 0 {
					t.Errorf("%s: the seats' pairs add up to %v, not %d", name, sum, d.pairs)
				}
			}
		}
	}
}
