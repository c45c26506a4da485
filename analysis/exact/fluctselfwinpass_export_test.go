package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// FluctSelfWinStreakValues solves the win objective of every seat win-optimal at players seats
// under the fluctuating capacity and pass rule of model m up to maxPairs pairs, in float64, and
// returns a reader of its values in st before the draw at pass streak l, seat s (in order from
// the mover) having taken standings[s] pairs so far.
func FluctSelfWinStreakValues(ctx context.Context, m Model, players, maxPairs int) (func(st rules.State, standings []int, l int) (SelfWinValues[float64], error), error) {
	x, err := newFluctSelfWin[float64](field.Float{}, m, players, maxPairs, true)
	if err != nil {
		return nil, err
	}
	rows := make([][][][][][]float64, maxPairs+1)
	if err := x.run(ctx, func(n int) error { rows[n] = x.streaks; return nil }); err != nil {
		return nil, err
	}
	return func(st rules.State, standings []int, l int) (SelfWinValues[float64], error) {
		if st.N < 1 || st.N > maxPairs || l < 0 || l >= x.nl {
			return SelfWinValues[float64]{}, fmt.Errorf("%v at pass streak %d: not solved", st, l)
		}
		k, err := fluctKnown(st, x.s.maxK)
		if err != nil {
			return SelfWinValues[float64]{}, err
		}
		standings, err = checkStandings(players, standings)
		if err != nil {
			return SelfWinValues[float64]{}, err
		}
		d := make([]int, players)
		rules.Deficits(d, standings, st.N)
		vi := int(x.w.place[st.N][rules.StandingsIndex(d, st.N)])
		return *valuesOf(rows[st.N][l][0][k][vi], players), nil
	}, nil
}
