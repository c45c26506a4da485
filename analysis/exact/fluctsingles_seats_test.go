package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestFluctSingletonsSeatsIdentities checks, in exact rationals, the model at three or more seats
// against its neighbours: with σ = 0 it is the fixed capacity's (husingles_seats.go) exactly,
// without singletons it is a fluctuating capacity's with pairs only (fluctselfish.go), at two
// seats the two-seat model's (fluctsingles.go), and float64 agrees with exact rationals.
func TestFluctSingletonsSeatsIdentities(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	type tc struct {
		singles, capacity, sigma, pairs int
		pass                            rules.PassRule
		seats                           []rules.Policy
		short                           bool
	}
	opt3 := []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}
	mixed := []rules.Policy{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyDaring}
	reply := []rules.Policy{rules.PolicyParity, rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicySafe}
	equal := func(t *testing.T, what string, got, want []*big.Rat) {
		t.Helper()
		for i := range want {
			if f.Cmp(got[i], want[i]) != 0 {
				t.Errorf("%s: seat %d %s, want %s", what, i, got[i].RatString(), want[i].RatString())
			}
		}
	}
	// σ = 0 is the fixed capacity's model.
	for _, c := range []tc{
		{1, 2, 0, 2, rules.PassAlways, opt3, false},
		{2, 3, 0, 3, rules.PassNever, opt3, false},
		{1, 3, 0, 3, rules.PassTwoKnown, mixed, false},
		{1, 2, 0, 2, rules.PassNever, reply, false},
	} {
		if testing.Short() && !c.short {
			continue
		}
		t.Run(fmt.Sprintf("sigma0/%d+%ds/m%d/%s/%v", c.pairs, c.singles, c.capacity, c.pass, c.seats), func(t *testing.T) {
			m := fluctSinglesModel(c.singles, c.capacity, 0)
			m.Pass = c.pass
			mu := SeatLineup(c.seats...)
			s, err := newFSSSolver(ctx, f, m, mu, c.pairs)
			if err != nil {
				t.Fatal(err)
			}
			hm := husModel(c.singles, c.capacity)
			hm.Pass = c.pass
			for st, ds := range s.draws {
				if st.N == 0 {
					continue
				}
				want, err := Evaluate(ctx, f, hm, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				equal(t, fmt.Sprint(st), s.vector(ds[0].to, 0), want.PairsBySeat)
				ch, err := ChoiceValues(ctx, f, hm, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range ch.Values {
					equal(t, fmt.Sprint(st, v.Choice), s.dev[ds[0].to][0][v.Choice], v.PairsBySeat)
				}
			}
		})
	}
	// Without singletons it is a fluctuating capacity's model with pairs only.
	for _, c := range []tc{
		{0, 2, 1, 3, rules.PassNever, mixed, false},
		{0, 2, 1, 1, rules.PassNever, opt3, true},
		{0, 3, 1, 3, rules.PassAlways, opt3, false},
		{0, 3, 1, 3, rules.PassNever, reply, false},
	} {
		if testing.Short() && !c.short {
			continue
		}
		t.Run(fmt.Sprintf("pairs/%d/m%d±%d/%s/%v", c.pairs, c.capacity, c.sigma, c.pass, c.seats), func(t *testing.T) {
			m := fluctSinglesModel(0, c.capacity, c.sigma)
			m.Pass = c.pass
			mu := SeatLineup(c.seats...)
			for j := 0; j <= c.pairs; j++ {
				st := rules.State{N: c.pairs, J: j}
				if st.Known() > c.capacity+c.sigma {
					continue
				}
				want, err := Evaluate(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				got, err := evaluateFluctSinglesSeats(ctx, f, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				equal(t, fmt.Sprint(st), got.PairsBySeat, want.PairsBySeat)
			}
		})
	}
	// At two seats it is the two-seat model (the pass streak 1 being just after a pass).
	for _, c := range []tc{
		{1, 2, 1, 2, rules.PassNever, []rules.Policy{rules.PolicyOptimal, rules.PolicySafe}, false},
		{2, 3, 1, 2, rules.PassAlways, []rules.Policy{rules.PolicyDaring, rules.PolicyParity}, false},
		{1, 3, 2, 3, rules.PassTwoKnown, []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal}, false},
	} {
		if testing.Short() && !c.short {
			continue
		}
		t.Run(fmt.Sprintf("two/%d+%ds/m%d±%d/%s/%v", c.pairs, c.singles, c.capacity, c.sigma, c.pass, c.seats), func(t *testing.T) {
			m := fluctSinglesModel(c.singles, c.capacity, c.sigma)
			m.Pass = c.pass
			three := SeatLineup(append([]rules.Policy{rules.PolicyOptimal}, c.seats...)...)
			base, err := newFSSolver(ctx, f, m, three, c.pairs)
			if err != nil {
				t.Fatal(err)
			}
			two := Lineup{Players: 2, Policy: c.seats[0], Opponent: c.seats[1]}
			base.mu = SeatLineup(c.seats...)
			s := &fssSolver[*big.Rat]{fsSolver: base}
			if err := s.solveSeats(); err != nil {
				t.Fatal(err)
			}
			for st, ds := range s.draws {
				if st.N == 0 {
					continue
				}
				want, err := Evaluate(ctx, f, m, two, st)
				if err != nil {
					t.Fatal(err)
				}
				got := []*big.Rat{f.FromInt(0), f.FromInt(0)}
				for _, d := range ds {
					for i, x := range s.vector(d.to, 0) {
						got[i] = f.Add(got[i], f.Mul(d.p, x))
					}
				}
				equal(t, fmt.Sprint(st), got, want.PairsBySeat)
			}
		})
	}
	// float64 agrees with exact rationals.
	t.Run("float", func(t *testing.T) {
		if testing.Short() {
			t.Skip("exact rationals at three seats under a pass rule")
		}
		m := fluctSinglesModel(1, 2, 1)
		m.Pass = rules.PassAlways
		for _, mu := range []Lineup{SeatLineup(opt3...), SeatLineup(rules.PolicyBestResponse, rules.PolicySafe, rules.PolicyOptimal)} {
			st := rules.State{N: 2, J: 2, S: 1}
			r, err := Evaluate(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			x, err := Evaluate(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			for i := range r.PairsBySeat {
				if v, _ := r.PairsBySeat[i].Float64(); v-x.PairsBySeat[i] > 1e-12 || x.PairsBySeat[i]-v > 1e-12 {
					t.Errorf("%v seat %d: float64 %g, exact %s", mu.SeatPolicies(), i, x.PairsBySeat[i], r.PairsBySeat[i].RatString())
				}
			}
		}
	})
}
