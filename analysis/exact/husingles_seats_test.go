package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestHandoverSingletonsSeatsIdentities checks exact identities of singletons under a
// handover-uniform memory at three or more seats: every seat's expected pairs add up to the pairs
// on the table (the optimum of every seat for itself, fixed policies per seat, a best reply, under
// every pass rule); the optimum of every seat for itself is an equilibrium (no mover gains by a
// choice made once, the one-step test measured exactly); and a best reply gets at least what the
// policy it replaces gets.
func TestHandoverSingletonsSeatsIdentities(t *testing.T) {
	f := field.Rat{}
	ctx := context.Background()
	pairs := 4
	if testing.Short() {
		pairs = 2
	}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		m := husModel(2, 3)
		m.Pass = pass
		lineups := [][]rules.Policy{
			{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
			{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyDaring, rules.PolicyParity},
			{rules.PolicyBestResponse, rules.PolicyDaring, rules.PolicyOptimal},
		}
		for _, seats := range lineups {
			if testing.Short() && (pass == rules.PassTwoKnown || pass == rules.PassAlways && !isSelfish(SeatLineup(seats...)) || len(seats) > 3) {
				continue
			}
			pairs := pairs
			if len(seats) > 3 && pass != rules.PassNever {
				pairs = 3 // four seats at every pass streak: p³ unknowns per state
			}
			t.Run(fmt.Sprintf("%s/%v", pass, seats), func(t *testing.T) {
				mu := SeatLineup(seats...)
				s, err := newHUSSolver(ctx, f, m, mu, pairs)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.solve(); err != nil {
					t.Fatal(err)
				}
				for _, c := range s.cells {
					if c.st.N == 0 {
						continue
					}
					sum := f.FromInt(0)
					for _, v := range s.seatsVector(c) {
						sum = f.Add(sum, v)
					}
					if f.Cmp(sum, f.FromInt(int64(c.st.N))) != 0 {
						t.Errorf("%v: seats' pairs add up to %s, not %d", c.st, sum.RatString(), c.st.N)
					}
					if !isSelfish(mu) {
						continue
					}
					for l, g := range c.seats.selfGap {
						if g.Sign() != 0 {
							t.Errorf("%v streak %d: the mover gains %s by another choice", c.st, l, g.RatString())
						}
					}
					for ch, v := range c.seats.dev {
						if v != nil && v[0].Cmp(c.seats.self[0][0]) > 0 {
							t.Errorf("%v: %s gives the mover %s, more than its optimum's %s", c.st, rules.Choice(ch), v[0].RatString(), c.seats.self[0][0].RatString())
						}
					}
				}
				if mu.replySeat() == 0 {
					alt := SeatLineup(append([]rules.Policy{rules.PolicySafe}, seats[1:]...)...)
					st := startOf(m, pairs)
					br, err1 := Evaluate(ctx, f, m, mu, st)
					fx, err2 := Evaluate(ctx, f, m, alt, st)
					if err1 != nil || err2 != nil {
						t.Fatal(err1, err2)
					}
					if br.ExpectedPairs.Cmp(fx.ExpectedPairs) < 0 {
						t.Errorf("best-response gets %s, safe %s", br.ExpectedPairs.RatString(), fx.ExpectedPairs.RatString())
					}
				}
			})
		}
	}
}

// TestHandoverSingletonsSeatsLargeCapacityIsPerfectMemory checks that at three seats a
// handover-uniform memory of capacity 2n + s, which never forgets, gives every seat the expected
// pairs of the perfect-memory singletons model (solved by the sweep), for the optimum of every
// seat for itself and for fixed policies per seat.
func TestHandoverSingletonsSeatsLargeCapacityIsPerfectMemory(t *testing.T) {
	f := field.Rat{}
	ctx := context.Background()
	pairs, singles := 4, 2
	if testing.Short() {
		pairs = 3
	}
	for _, seats := range [][]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal},
	} {
		mu := SeatLineup(seats...)
		hu := husModel(singles, 2*pairs+singles)
		perfect := Model{Singletons: singles}
		for n := 1; n <= pairs; n++ {
			st := startOf(hu, n)
			a, err1 := Evaluate(ctx, f, hu, mu, st)
			b, err2 := Evaluate(ctx, f, perfect, mu, st)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			for i := range a.PairsBySeat {
				if a.PairsBySeat[i].Cmp(b.PairsBySeat[i]) != 0 {
					t.Errorf("%v %v seat %d: capacity %d %s, perfect memory %s", seats, st, i, 2*pairs+singles,
						a.PairsBySeat[i].RatString(), b.PairsBySeat[i].RatString())
				}
			}
		}
	}
}

// TestHandoverSingletonsSeatsWithoutSingletonsArePairs checks that the solver of singletons under
// a handover-uniform memory, given no singleton, gives every seat at three seats the expected
// pairs of the pairs-only handover-uniform model (solved by the sweep), for the optimum of every
// seat for itself and for fixed policies per seat.
func TestHandoverSingletonsSeatsWithoutSingletonsArePairs(t *testing.T) {
	f := field.Rat{}
	ctx := context.Background()
	pairs := 6
	if testing.Short() {
		pairs = 4
	}
	m := Model{Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}}
	for _, seats := range [][]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyParity, rules.PolicyOptimal, rules.PolicyDaring},
	} {
		mu := SeatLineup(seats...)
		s, err := newHUSSolver(ctx, f, m, mu, pairs)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.solve(); err != nil {
			t.Fatal(err)
		}
		for _, c := range s.cells {
			if c.st.N == 0 {
				continue
			}
			want, err := Evaluate(ctx, f, m, mu, c.st)
			if err != nil {
				t.Fatal(err)
			}
			got := s.seatsVector(c)
			for i := range got {
				if got[i].Cmp(want.PairsBySeat[i]) != 0 {
					t.Errorf("%v %v seat %d: singletons solver %s, pairs model %s", seats, c.st, i, got[i].RatString(), want.PairsBySeat[i].RatString())
				}
			}
		}
	}
}
