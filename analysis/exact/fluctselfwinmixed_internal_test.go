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

// fluctSelfWinLineupVectors runs the sweep of lineup mu under memory mem up to n pairs and returns
// every vector before the draw, keyed by n, known cards, mover's seat and standings.
func fluctSelfWinLineupVectors[T any](t *testing.T, f field.Field[T], mem rules.Memory, mu Lineup, n int) map[string][]T {
	t.Helper()
	ctx := context.Background()
	x, err := newFluctSelfWinLineup(ctx, f, Model{Memory: mem}, mu, n, true)
	if err != nil {
		t.Fatalf("%s, %v: %v", mem, mu.SeatPolicies(), err)
	}
	out := map[string][]T{}
	err = x.run(ctx, func(r int) error {
		for q, byK := range x.cur {
			for k, byStandings := range byK {
				for vi, vec := range byStandings {
					out[fmt.Sprint(r, k, q, x.w.valid[r][vi])] = vec
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s, %v: %v", mem, mu.SeatPolicies(), err)
	}
	return out
}

// TestFluctSelfWinLineupWithoutFluctuationIsFixedCapacity checks, in exact rationals, that lineups
// of the win objective at three seats beside optimal, safe, daring and parity, and
// win-best-response at one seat, under a fluctuating capacity with σ = 0 give the fixed
// capacity's scores, wins, draws and pairs (selfishwinmixed.go, selfishwinlimited.go) in every
// state, standings and mover's seat; every state's scores add up to 1; float64 agrees.
func TestFluctSelfWinLineupWithoutFluctuationIsFixedCapacity(t *testing.T) {
	ctx := context.Background()
	const n, p = 3, 3
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := []Lineup{
		SeatLineup(W, rules.PolicyOptimal, rules.PolicySafe),
		SeatLineup(rules.PolicyDaring, W, rules.PolicyParity),
		SeatLineup(B, W, W),
		SeatLineup(B, rules.PolicyOptimal, rules.PolicyDaring),
	}
	mems := []rules.Memory{{Capacity: 2, Forget: rules.ForgetLRU}, {Capacity: 2, Forget: rules.ForgetHandoverUniform}}
	if testing.Short() {
		lineups = lineups[2:3]
		mems = mems[1:]
	}
	for _, mem := range mems {
		m := Model{Memory: mem}
		for _, mu := range lineups {
			name := fmt.Sprintf("%s %v", m.Memory, mu.SeatPolicies())
			got := fluctSelfWinLineupVectors(t, field.Rat{}, m.Memory, mu, n)
			fl := fluctSelfWinLineupVectors(t, field.Float{}, m.Memory, mu, n)
			seats, err := mixedSeatTables(ctx, field.Rat{}, m, mu, n)
			if err != nil {
				t.Fatal(err)
			}
			w, err := newSelfWin(field.Rat{}, m, p, n, true)
			if err != nil {
				t.Fatal(err)
			}
			w.seatTab, w.nq = seats, p
			compared := 0
			err = w.run(ctx, func(st rules.State) error {
				if st.N == 0 || st.F != 0 {
					return nil
				}
				for q := range p {
					c := w.atSeat(st.N, st.J, st.F, q)
					for vi, d := range w.valid[st.N] {
						key := fmt.Sprint(st.N, st.N-st.J, q, d)
						g, ok := got[key]
						if !ok {
							if st.N-st.J <= fluctMaxKnown(m.Memory) {
								t.Errorf("%s: no values in %v, seat %d to move, standings %v", name, st, q, d)
							}
							continue
						}
						sum := new(big.Rat)
						for v := range swVectors {
							want := w.vec(c, vi, v)
							for s := range p {
								if g[v*p+s].Cmp(want[s]) != 0 {
									t.Errorf("%s: %v, seat %d to move, standings %v: vector %d seat %d: %s, fixed capacity %s", name, st, q, d, v, s,
										g[v*p+s].FloatString(12), want[s].FloatString(12))
								}
								x, _ := g[v*p+s].Float64()
								if math.Abs(fl[key][v*p+s]-x) > 1e-12 {
									t.Errorf("%s: %v, standings %v: vector %d seat %d: float64 %.15f, rational %.15f", name, st, d, v, s, fl[key][v*p+s], x)
								}
							}
						}
						for s := range p {
							sum.Add(sum, g[swScore*p+s])
						}
						if sum.Cmp(big.NewRat(1, 1)) != 0 {
							t.Errorf("%s: %v, standings %v: scores add up to %s", name, st, d, sum.FloatString(12))
						}
						compared++
					}
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
}
