package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// FluctSeatsStreakValues returns every seat's expected pairs, in order from the mover, in st
// before the draw at every pass streak (index: the streak), every seat for itself at players
// seats under the fluctuating capacity and pass rule of model m, in float64.
func FluctSeatsStreakValues(ctx context.Context, m Model, players int, st rules.State) ([][]float64, error) {
	s, err := newFluctSeats[float64](field.Float{}, m, Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
	if err != nil {
		return nil, err
	}
	if !s.passes() {
		return nil, fmt.Errorf("pass rule %s: no pass streak", m.Pass)
	}
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return nil, err
	}
	if err := s.run(ctx, st.N, nil); err != nil {
		return nil, err
	}
	out := make([][]float64, players)
	for l := range out {
		out[l] = s.streakSelf[l][k]
	}
	return out, nil
}

// FluctSeatsPassChoiceValues returns each legal choice's value to the mover in st with capacity c
// drawn at pass streak l, made once with the optimum of every seat for itself played afterwards,
// at players seats under the fluctuating capacity and pass rule of model m, in float64.
func FluctSeatsPassChoiceValues(ctx context.Context, m Model, players int, st rules.State, c, l int) (map[rules.Choice]float64, error) {
	s, err := newFluctSeats[float64](field.Float{}, m, Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal})
	if err != nil {
		return nil, err
	}
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return nil, err
	}
	if err := s.run(ctx, st.N, nil); err != nil {
		return nil, err
	}
	c = min(c, st.N+1) // the capacities of a row are merged from n + 1 up
	for i, nd := range s.lastNodes {
		if nd.k == k && nd.c == c {
			out := map[rules.Choice]float64{}
			for _, ch := range rules.Choices() {
				if m.Legal(st, ch) {
					out[ch] = s.lastSol.vals[i*players+l][ch]
				}
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("no state %v with capacity %d after the draw", st, c)
}

// FluctSeatsStreakLineupValues returns every seat's expected pairs (seat 0 first, seat 0 to move)
// in st before the draw at every pass streak (index: the streak) for the lineup mu, which has a
// seat that is not optimal, under the fluctuating capacity and pass rule of model m, in float64.
func FluctSeatsStreakLineupValues(ctx context.Context, m Model, mu Lineup, st rules.State) ([][]float64, error) {
	s, err := newFluctSeats[float64](field.Float{}, m, mu)
	if err != nil {
		return nil, err
	}
	if !s.passes() || !s.needMulti {
		return nil, fmt.Errorf("pass rule %s, lineup %v: no streak of a lineup", m.Pass, mu)
	}
	k, err := fluctKnown(st, s.maxK)
	if err != nil {
		return nil, err
	}
	if err := s.run(ctx, st.N, nil); err != nil {
		return nil, err
	}
	out := make([][]float64, mu.Players)
	for l := range out {
		out[l] = s.streakSeats[l][k][0]
	}
	return out, nil
}
