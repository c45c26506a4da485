package main

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds memsim solve --table --fluctuation S at three or more seats with a seat that
// plays to win (docs/models.md §4.7, "Under a fluctuating capacity"): every seat win-optimal, or
// win-optimal beside optimal, safe, daring and parity (--policy win-optimal --opponent B, or
// --seats), or win-best-response at one seat (--opponent B): the table of each seat that plays to
// win, a block per capacity drawn, read by the standings as the engine reads it.

// fluctSelfWinTable reports whether the flags of a table ask for the table of a seat that plays to
// win at three or more seats under a fluctuating capacity.
func (fl *solveFlags) fluctSelfWinTable(set map[string]bool) bool {
	return fl.fluctuation > 0 && (set["seats"] || set["players"] && fl.players > 2) && fl.anySeatWin(set)
}

// fluctSelfWinTableQuery checks the flags of such a table and completes q for it.
func (fl *solveFlags) fluctSelfWinTableQuery(q *solveQuery, set map[string]bool) error {
	if set["players"] && (fl.players < 3 || fl.players > rules.MaxPlayers) {
		return usagef("--players %d with --table: must be 2, or 3 to %d (every seat for itself)", fl.players, rules.MaxPlayers)
	}
	if l := q.model.Variant.TurnLimit; l > 0 {
		return usagef("--turn-limit %d with --fluctuation %d and a seat that plays to win at three or more seats: solved for the standard game only (leave out --turn-limit)", l, fl.fluctuation)
	}
	if err := fl.lineup(q, set); err != nil {
		return err
	}
	return q.checkMatchup(set["opponent"], set["seats"])
}

// fluctWinSeats returns the seats of lineup mu whose table the text prints: seat 0 alone when
// every seat plays win-optimal (every seat plays the same table), else every seat that plays to
// win.
func fluctWinSeats(mu exact.Lineup) []int {
	if fluctEveryWinOptimal(mu) {
		return []int{0}
	}
	var seats []int
	for s, p := range mu.SeatPolicies() {
		if p.PlaysToWin() {
			seats = append(seats, s)
		}
	}
	return seats
}

// fluctSelfWinTableCost returns the estimated cost of the table: the sweep of the lineup seen from
// each seat printed, and the optimum of every seat for itself in expected pairs the text compares
// with.
func (q *solveQuery) fluctSelfWinTableCost() (exact.Cost, error) {
	self := exact.Lineup{Players: q.matchup.Players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	c, err := exact.Estimate(q.model, self, q.pairsMax, exact.Options{Float: q.float})
	if err != nil {
		return c, err
	}
	for _, s := range fluctWinSeats(q.matchup) {
		t, err := exact.Estimate(q.model, exact.RotateSeats(q.matchup, s), q.pairsMax, exact.Options{Float: q.float})
		if err != nil {
			return c, err
		}
		c = c.Then(t)
	}
	return c, nil
}

// fluctSelfWinChoiceTable returns the table seat 0 of lineup mu plays under the fluctuating
// capacity of model m, as the engine builds it (strategies): exact.FluctSelfWinLineupTables, a
// standings table per capacity drawn, read by capacity (rules.ChoiceTable.StandingsAt).
func fluctSelfWinChoiceTable[T any](ctx context.Context, f field.Field[T], m exact.Model, mu exact.Lineup, maxPairs int) (*rules.ChoiceTable, error) {
	lo, layers, err := exact.FluctSelfWinLineupTables(ctx, f, m, mu, maxPairs)
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

// everyStandings calls fn with every standings of p seats with n pairs left: deficits 0 .. n+1,
// in order from the mover, at least one 0, the mover's deficit the lowest digit
// (rules.StandingsIndex order).
func everyStandings(p, n int, fn func(d []int)) {
	d := make([]int, p)
	for range rules.StandingsCount(p, n) {
		zero := false
		for _, v := range d {
			zero = zero || v == 0
		}
		if zero {
			fn(d)
		}
		for s := range d {
			if d[s]++; d[s] <= n+1 {
				break
			}
			d[s] = 0
		}
	}
}

// pairsOfStandings writes into dst pairs so far whose standings with n pairs left are d: the most
// deficit less each seat's.
func pairsOfStandings(dst, d []int) {
	most := 0
	for _, v := range d {
		most = max(most, v)
	}
	for s, v := range d {
		dst[s] = most - v
	}
}

// writeFluctSelfWinTable writes the table of every seat that plays to win in lineup q.matchup at
// three or more seats under a fluctuating capacity: per seat a block per capacity drawn, from the
// smallest to the largest that binds in a deal of pairs-max pairs, each with a row per count state
// (and pass streak under a pass rule) giving the choice of the optimum of every seat for itself in
// expected pairs at that capacity and the standings at which the seat chooses otherwise. The
// choices are those the engine reads (rules.ChoiceTable.StandingsAt, LookupPasses).
func writeFluctSelfWinTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	mu := q.matchup
	p := mu.Players
	pairs, err := exact.FluctSelfishTable(ctx, f, q.model, p, q.pairsMax)
	if err != nil {
		return fmt.Errorf("the optimum in expected pairs: %w", err)
	}
	seats := fluctWinSeats(mu)
	tabs := make([]*rules.ChoiceTable, len(seats))
	for i, s := range seats {
		if tabs[i], err = fluctSelfWinChoiceTable(ctx, f, q.model, exact.RotateSeats(mu, s), q.pairsMax); err != nil {
			return fmt.Errorf("seat %d: %w", s, err)
		}
	}
	lo, hi, _ := tabs[0].Capacities()
	streaks := 1
	if q.model.Pass != rules.PassNever {
		streaks = p
	}
	fmt.Fprintf(w, "# strategy table of the seats that play to win, %d players, seats %s (each seat that plays to win maximises its own P(most pairs), a tie for the most shared): %s memory, pass %s%s\n",
		p, seatNames(mu), q.model.Memory, q.model.Pass, choicesNote(q.model.Choices))
	if fluctEveryWinOptimal(mu) {
		fmt.Fprintln(w, "# every seat plays seat 0's table (blocks seat 0)")
	}
	fmt.Fprintf(w, "# blocks seat S c=C: seat S's choices with capacity C drawn for its turn (c=%d: that capacity or more); in a block, row n j (unknown pairs, from 1 or the least j the capacity allows): the choice of the optimum of every seat for itself in expected pairs (D daring, S safe, K known-first) and the number of standings; then, for each other choice seat S makes, how many standings and which\n", hi)
	fmt.Fprintln(w, "# standings: every seat's deficit to the most pairs so far, in order from the mover (seat S), n+1 for a seat that can no longer reach the most")
	if streaks > 1 {
		fmt.Fprintf(w, "# under pass %s a row per pass streak k, the seats that passed in a row just before the turn: row n j k (P pass; a pass after %d ends the game in a stalemate)\n", q.model.Pass, p-1)
	}
	var other [rules.NumChoices][]string
	buf := make([]int, p)
	for i, s := range seats {
		for c := lo; c <= hi; c++ {
			fmt.Fprintf(w, "seat %d c=%d\n", s, c)
			for n := 1; n <= q.pairsMax; n++ {
				tab := tabs[i].StandingsAt(0, c)
				for j := max(1, n-fluctKnownAfterDraw(q.model.Memory, c)); j <= n; j++ {
					st := rules.State{N: n, J: j}
					for l := range streaks {
						ref, ok := pairs.LookupCapacityPasses(st, l, c)
						if !ok {
							return fmt.Errorf("the optimum in expected pairs has no choice in %v with capacity %d at pass streak %d", st, c, l)
						}
						count := 0
						var lookErr error
						everyStandings(p, n, func(d []int) {
							pairsOfStandings(buf, d)
							ch, ok := tab.LookupPasses(st, buf, l)
							if !ok {
								lookErr = fmt.Errorf("seat %d's table has no choice in %v with capacity %d, standings %v and pass streak %d", s, st, c, d, l)
								return
							}
							count++
							if ch != ref {
								other[ch] = append(other[ch], deficitsText(d))
							}
						})
						if lookErr != nil {
							return lookErr
						}
						fmt.Fprintf(w, "%d %d", n, j)
						if streaks > 1 {
							fmt.Fprintf(w, " %d", l)
						}
						fmt.Fprintf(w, ": %c (%d standings)", choiceLetters[ref], count)
						for _, ch := range rules.Choices() {
							if len(other[ch]) > 0 {
								fmt.Fprintf(w, "; %c at %d: %s", choiceLetters[ch], len(other[ch]), strings.Join(other[ch], " "))
								other[ch] = other[ch][:0]
							}
						}
						w.WriteByte('\n')
					}
				}
			}
		}
	}
	return nil
}

// fluctEveryWinOptimal reports whether every seat of mu plays win-optimal.
func fluctEveryWinOptimal(mu exact.Lineup) bool {
	for _, p := range mu.SeatPolicies() {
		if p != rules.PolicyWinOptimal {
			return false
		}
	}
	return true
}
