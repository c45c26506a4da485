package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A best reply at three or more seats to a policy given as a table (docs/models.md §4.7, "A best
// reply at three or more seats"): seat 0 plays best-response, every other seat the table
// (Lineup.OpponentTable). The table's choices are fixed functions of the count state and the pass
// streak (read as rules.ChoiceTable.LookupPasses reads them: the choice without a pass at streak
// 0, the choice after a pass at every streak of 1 or more, a table with a choice per streak at
// each), so seat 0 faces the same Markov
// decision problem as against a fixed policy, and the sweeps that reply to a fixed policy solve
// it: they read the other seats' choices through sweep.seatChoice and sweep.seatChoiceAt, which
// read the table.

// validateTableReply is Lineup.Validate for a lineup of three or more seats in which seat 0 plays
// best-response and every other seat the table mu.OpponentTable: the table is for the model's
// singletons and does not depend on the lead (the lead is defined for two players only).
func (mu Lineup) validateTableReply(m Model) error {
	if err := m.Choices.Validate(); err != nil {
		return err
	}
	t := mu.OpponentTable
	_, _, capacities := t.Capacities()
	switch {
	case t.Singletons() != m.Singletons:
		return fmt.Errorf("the opponent's table is for %d singletons, the model has %d", t.Singletons(), m.Singletons)
	case t.MaxLead() >= 0:
		return fmt.Errorf("the opponent's table depends on the lead, which is defined for 2 players only, not %d", mu.Players)
	case t.TurnLimit() > 0 || t.Copies() != nil || t.Standings() != nil || capacities:
		return fmt.Errorf("the opponent's table has layers (turns left, capacities, copies or standings) a best reply at %d seats does not read: it is read by count state and pass streak", mu.Players)
	}
	return rules.PolicyBestResponse.CheckChoices(m.Choices)
}

// SeatsResponse is the exact best reply at three or more seats to a policy given as a table at
// every other seat, in expected pairs, and what it gains over optimal (the optimum of every seat
// for itself at that many seats) in its place against the same table.
type SeatsResponse[T any] struct {
	// State is the start of the game: MaxPairs pairs, none remembered, every singleton unseen.
	State   rules.State
	Players int
	// Table is the reply's choices in every state with 1 to MaxPairs pairs: without and after a
	// pass by the previous seat, or under a pass rule at every pass streak 0 to Players-1
	// (rules.ChoiceTable.LookupPasses); the first best choice in the order daring, safe,
	// known-first, pass.
	Table *rules.ChoiceTable
	// Pairs[k] is the reply's expected pairs from State when it is the k-th seat to move (k = 0:
	// it moves first), the table at every other seat; Optimal[k] is what optimal makes in its
	// place, and Gain[k] = Pairs[k] - Optimal[k] is never negative.
	Pairs, Optimal, Gain []T
}

// BestResponseToSeats returns the best reply, in expected pairs, to a player of table at every
// other seat of a game of players seats (3 to rules.MaxPlayers) in model m, for every state with
// at most maxPairs pairs, and its value and optimal's in its place from the start of a game of
// maxPairs pairs, at every position in the order of play. It is the reply of Lineup{Players:
// players, Policy: rules.PolicyBestResponse, OpponentTable: table} (BestResponseTo is the one of
// two players).
func BestResponseToSeats[T any](ctx context.Context, f field.Field[T], m Model, table *rules.ChoiceTable, players, maxPairs int) (SeatsResponse[T], error) {
	var res SeatsResponse[T]
	switch {
	case table == nil:
		return res, fmt.Errorf("no table to answer")
	case players < 3 || players > rules.MaxPlayers:
		return res, fmt.Errorf("players %d: a best reply to a table at every other seat is solved here for 3 to %d players (BestResponseTo for 2)", players, rules.MaxPlayers)
	case maxPairs < 1:
		return res, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	st := startOf(m, maxPairs)
	reply, tab, err := seatValues(ctx, f, m, Lineup{Players: players, Policy: rules.PolicyBestResponse, OpponentTable: table}, st, true)
	if err != nil {
		return res, fmt.Errorf("best reply at %d seats: %w", players, err)
	}
	opt, _, err := seatValues(ctx, f, m, Lineup{Players: players, Policy: rules.PolicyOptimal, OpponentTable: table}, st, false)
	if err != nil {
		return res, fmt.Errorf("optimal against the table at %d seats: %w", players, err)
	}
	res.State, res.Players, res.Table = st, players, tab
	res.Pairs, res.Optimal, res.Gain = make([]T, players), make([]T, players), make([]T, players)
	for k := range players {
		// Seat 0 is the k-th to move when seat (players-k) mod players moves first.
		t := (players - k) % players
		res.Pairs[k], res.Optimal[k] = reply[t][0], opt[t][0]
		res.Gain[k] = f.Sub(res.Pairs[k], res.Optimal[k])
	}
	return res, nil
}

// seatValues solves the lineup mu of three or more seats in model m from st (its largest state)
// and returns every seat's expected pairs with each seat to move in st (seats[t][i]: seat i's,
// seat t to move), and, when record is set, the replying seat 0's choices as a table.
func seatValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, record bool) ([][]T, *rules.ChoiceTable, error) {
	w, err := newSweep(f, m, mu, st)
	if err != nil {
		return nil, nil, err
	}
	w.needMulti = true
	var t *rules.ChoiceTable
	var visit func(rules.State) error
	if record {
		if w.streak != nil {
			t, err = rules.NewPassChoiceTable(st.N, m.Singletons, mu.Players)
		} else {
			t, err = rules.NewChoiceTable(st.N, m.Singletons)
		}
		if err != nil {
			return nil, nil, err
		}
		visit = func(s rules.State) error {
			switch {
			case s.N == 0:
			case w.streak != nil:
				for k, c := range w.streak.reply {
					t.SetPasses(s, k, c)
				}
			default:
				t.Set(s, false, w.brChoice[0])
				t.Set(s, true, w.brChoice[1])
			}
			return nil
		}
	}
	if err := w.run(ctx, st.N, visit); err != nil {
		return nil, nil, err
	}
	return w.at(st).seats, t, nil
}
