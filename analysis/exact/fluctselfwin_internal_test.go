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

// fluctSelfWinVectors runs the sweep of the win objective of p seats under model m up to n pairs
// and returns every vector before the draw (at pass streak 0), keyed by n, known cards and
// standings.
func fluctSelfWinVectors[T any](t *testing.T, f field.Field[T], m Model, p, n int) map[string][]T {
	t.Helper()
	x, err := buildFluctSelfWin(f, m, p, n, true)
	if err != nil {
		t.Fatal(err)
	}
	return sweepVectors(t, fmt.Sprintf("%s, %d seats", m.Memory, p), x, false)
}

// sweepVectors runs sweep x and returns every vector before the draw at pass streak 0, keyed by
// n, known cards, the mover's seat when bySeat, and standings.
func sweepVectors[T any](t *testing.T, name string, x *fluctSelfWin[T], bySeat bool) map[string][]T {
	t.Helper()
	out := map[string][]T{}
	err := x.run(context.Background(), func(r int) error {
		for q, byK := range x.cur {
			for k, byStandings := range byK {
				for vi, vec := range byStandings {
					if bySeat {
						out[fmt.Sprint(r, k, q, x.w.valid[r][vi])] = vec
					} else if q == 0 {
						out[fmt.Sprint(r, k, x.w.valid[r][vi])] = vec
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// compareSelfWinVec checks one position's vectors g (nv·p entries, from the mover) against want's
// (exact rationals) and float64's fl, and that its scores add up to 1.
func compareSelfWinVec(t *testing.T, where string, g []*big.Rat, fl []float64, want func(v int) []*big.Rat, p int) {
	t.Helper()
	sum := new(big.Rat)
	for v := range swVectors {
		w := want(v)
		for s := range p {
			if g[v*p+s].Cmp(w[s]) != 0 {
				t.Errorf("%s: vector %d seat %d: %s, want %s", where, v, s, g[v*p+s].FloatString(12), w[s].FloatString(12))
			}
			x, _ := g[v*p+s].Float64()
			if math.Abs(fl[v*p+s]-x) > 1e-12 {
				t.Errorf("%s: vector %d seat %d: float64 %.15f, rational %.15f", where, v, s, fl[v*p+s], x)
			}
		}
	}
	for s := range p {
		sum.Add(sum, g[swScore*p+s])
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("%s: scores add up to %s", where, sum.FloatString(12))
	}
}

// TestFluctSelfWinWithoutFluctuationIsFixedCapacity checks, in exact rationals, that the win
// objective at three seats under a fluctuating capacity with σ = 0 gives the fixed capacity's
// scores, wins, draws and pairs (selfishwinlimited.go) in every state and standings, and that a
// capacity that never binds gives perfect memory's (selfishwin.go); every state's scores add up
// to 1; float64 agrees with the rationals.
func TestFluctSelfWinWithoutFluctuationIsFixedCapacity(t *testing.T) {
	n := 4
	if testing.Short() {
		n = 3
	}
	type memCase struct{ mem, want rules.Memory }
	var cases []memCase
	for i, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		cases = append(cases, memCase{rules.Memory{Capacity: 2 + i, Forget: fg}, rules.Memory{Capacity: 2 + i, Forget: fg}})
		if !testing.Short() || i == 1 {
			cases = append(cases, memCase{rules.Memory{Capacity: n + 2, Forget: fg, Fluctuation: 1}, rules.Memory{}}) // m - σ = n + 1
		}
		if !testing.Short() {
			cases = append(cases, memCase{rules.Memory{Capacity: 3 - i, Forget: fg}, rules.Memory{Capacity: 3 - i, Forget: fg}})
		}
	}
	for _, tc := range cases {
		compareFluctSelfWinFixed(t, Model{Memory: tc.mem}, Model{Memory: tc.want}, 3, n)
	}
}

// compareFluctSelfWinFixed checks, in exact rationals, that the sweep of the win objective of p
// seats under the fluctuating capacity of model m gives model want's (a fixed capacity, or
// perfect memory) scores, wins, draws and pairs in every state of at most n pairs and standings,
// that every state's scores add up to 1, and that float64 agrees with the rationals.
func compareFluctSelfWinFixed(t *testing.T, m, want Model, p, n int) {
	t.Helper()
	ctx := context.Background()
	tc := struct{ mem, want rules.Memory }{m.Memory, want.Memory}
	{
		name := fmt.Sprintf("%s σ=%d, pass %s", tc.mem, tc.mem.Fluctuation, m.Pass)
		got := fluctSelfWinVectors(t, field.Rat{}, m, p, n)
		fl := fluctSelfWinVectors(t, field.Float{}, m, p, n)
		w, err := newSelfWin(field.Rat{}, want, p, n, true)
		if err != nil {
			t.Fatal(err)
		}
		compared := 0
		err = w.run(ctx, func(st rules.State) error {
			if st.N == 0 {
				return nil
			}
			c := w.at(st.N, st.J, st.F)
			for vi, d := range w.valid[st.N] {
				key := fmt.Sprint(st.N, st.N-st.J, d)
				g, ok := got[key]
				if !ok {
					if st.N-st.J <= fluctMaxKnown(tc.mem) {
						t.Errorf("%s: no values in %v at standings %v", name, st, d)
					}
					continue
				}
				compareSelfWinVec(t, fmt.Sprintf("%s: %v, standings %v (want %s)", name, st, d, tc.want), g, fl[key],
					func(v int) []*big.Rat { return w.vec(c, vi, v) }, p)
				compared++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if compared == 0 {
			t.Fatalf("%s: nothing compared", name)
		}
	}
}

// TestFluctSelfWinTwoSeatsIsTwoSeatWin checks that the sweep of the win objective of every seat
// for itself run at two seats under a fluctuating capacity gives the two-seat win-optimal
// self-play's win, draw and loss probabilities and expected lead (fluctwin.go) exactly, from
// every lead within the deal and every known count.
func TestFluctSelfWinTwoSeatsIsTwoSeatWin(t *testing.T) {
	ctx := context.Background()
	n := 4
	if testing.Short() {
		n = 3
	}
	mu := Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	mems := []rules.Memory{
		{Capacity: 2, Forget: rules.ForgetLRU, Fluctuation: 1},
		{Capacity: 3, Forget: rules.ForgetHandoverUniform, Fluctuation: 1},
		{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1},
	}
	leads := 2
	if testing.Short() {
		mems, leads = mems[1:2], 1
	}
	for _, mem := range mems {
		got := fluctSelfWinVectors(t, field.Rat{}, Model{Memory: mem}, 2, n)
		m := Model{Memory: mem}
		for k := 0; k <= min(n, fluctMaxKnown(mem)); k++ {
			for lead := -leads; lead <= leads; lead++ {
				st := rules.State{N: n, J: n - k, Lead: lead}
				want, err := fluctWinDrawLoss(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				wantLead, err := evaluateFluctWin(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				d := make([]int, 2)
				rules.Deficits(d, []int{max(lead, 0), max(-lead, 0)}, n)
				g := got[fmt.Sprint(n, k, d)]
				win, draw, loss := g[swWin*2], g[swDraw*2], g[swWin*2+1]
				lead := new(big.Rat).Sub(g[swPairs*2], g[swPairs*2+1])
				if win.Cmp(want[0].Win) != 0 || draw.Cmp(want[0].Draw) != 0 || loss.Cmp(want[0].Loss) != 0 || lead.Cmp(wantLead.ExpectedLead) != 0 {
					t.Errorf("%s, %v: win/draw/loss/lead %s %s %s %s, two-seat win objective %s %s %s %s", mem, st,
						win.FloatString(12), draw.FloatString(12), loss.FloatString(12), lead.FloatString(12),
						want[0].Win.FloatString(12), want[0].Draw.FloatString(12), want[0].Loss.FloatString(12), wantLead.ExpectedLead.FloatString(12))
				}
			}
		}
	}
}
