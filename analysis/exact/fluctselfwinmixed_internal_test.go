package exact

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctSelfWinLineupVectors runs the sweep of lineup mu under memory mem up to n pairs and returns
// every vector before the draw, keyed by n, known cards, mover's seat and standings.
func fluctSelfWinLineupVectors[T any](t *testing.T, f field.Field[T], mem rules.Memory, mu Lineup, n int) map[string][]T {
	t.Helper()
	name := fmt.Sprintf("%s, %v", mem, mu.SeatPolicies())
	x, err := newFluctSelfWinLineup(context.Background(), f, Model{Memory: mem}, mu, n, true)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return sweepVectors(t, name, x, true)
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
						compareSelfWinVec(t, fmt.Sprintf("%s: %v, seat %d to move, standings %v (want the fixed capacity's)", name, st, q, d), g, fl[key],
							func(v int) []*big.Rat { return w.vec(c, vi, v) }, p)
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
