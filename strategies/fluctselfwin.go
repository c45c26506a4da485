package strategies

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctSelfWinTable returns the table of seat 0 of lineup mu (three or more seats, seat 0
// playing to win: every seat win-optimal, win-optimal beside optimal, safe, daring and parity, or
// win-best-response to the others; the lineup seen from the seat) under the fluctuating capacity of model m (docs/models.md §4.7,
// "Under a fluctuating capacity"): a layer per capacity drawn, each read by the seats' standings,
// in exact rationals up to limit pairs and in float64 beyond.
func fluctSelfWinTable(ctx context.Context, m exact.Model, mu exact.Lineup, maxPairs, limit int) (*rules.ChoiceTable, error) {
	if p := mu.SeatPolicies()[0]; !p.PlaysToWin() {
		return nil, fmt.Errorf("policy %s at %d seats under a fluctuating capacity: a standings table is solved for a seat that plays to win (allowed: win-optimal, win-best-response)", p, mu.Players)
	}
	var lo int
	var layers []*rules.StandingsTable
	var err error
	if maxPairs <= limit {
		lo, layers, err = exact.FluctSelfWinLineupTables(ctx, field.Rat{}, m, mu, maxPairs)
	} else {
		lo, layers, err = exact.FluctSelfWinLineupTables(ctx, field.Float{}, m, mu, maxPairs)
	}
	if err != nil {
		return nil, err
	}
	tabs := make([]*rules.ChoiceTable, len(layers))
	for i, l := range layers {
		if tabs[i], err = rules.NewStandingsChoiceTable(l); err != nil {
			return nil, fmt.Errorf("capacity %d: %w", lo+i, err)
		}
	}
	return rules.NewCapacityChoiceTable(lo, tabs)
}

// coverStandings is coverFluctuation for a table of a policy that plays to win at three or more
// seats, st its choices by the standings: every state with more remembered cards than capacity
// takes, at every standings and pass streak, the choice of the state with as many pairs brought
// down to capacity.
func coverStandings(st *rules.StandingsTable, capacity int) (*rules.ChoiceTable, error) {
	return rules.NewStandingsChoiceTable(st.WithStates(func(s rules.State) rules.State { return nearCapacity(s, capacity) }))
}

// nearCapacity returns the state with as many pairs as st whose remembered cards are brought down
// to capacity: more unknown pairs, then more unseen singletons.
func nearCapacity(st rules.State, capacity int) rules.State {
	for st.Known() > capacity && st.J < st.N {
		st.J++
	}
	for st.Known() > capacity && st.F < st.S {
		st.F++
	}
	return st
}
