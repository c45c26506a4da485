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

// This file holds memsim solve --table --players P --turn-limit T with P of 3 or more: the tables
// of every seat for itself under a turn limit, a block per number of turns left, for the optimum
// in expected pairs (the choices) and for win-optimal (by the seats' standings). The choices are
// those the engine reads from the solver's tables (rules.ChoiceTable.LookupTurnsLeftPasses and
// StandingsTurnsLeft).

// seatsLimitTableCost returns the estimated cost of a table at three or more seats under a turn
// limit: the tables of the optimum of every seat for itself and, for win-optimal, of win-optimal
// at every seat, each a layer per turn left.
func (q *solveQuery) seatsLimitTableCost() (exact.Cost, error) {
	self := exact.Lineup{Players: q.matchup.Players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	c, err := exact.Estimate(q.model, self, q.pairsMax, exact.Options{Call: exact.CallPolicyTable, Float: q.float})
	if err != nil || q.matchup.Policy != rules.PolicyWinOptimal {
		return c, err
	}
	w, err := exact.Estimate(q.model, q.matchup, q.pairsMax, exact.Options{Call: exact.CallPolicyTable, Float: q.float})
	return c.Then(w), err
}

// limitBlocks writes the blocks of a table under a turn limit, block(t) giving the rows of t turns
// left for t = 1 .. limit: consecutive numbers of turns left whose rows are the same are written
// once, under "t=A..B" (a single one under "t=A"), as the two-player table under a limit does.
func limitBlocks(w *bufio.Writer, limit int, block func(t int, dst []byte) ([]byte, error)) error {
	var prev, cur []byte
	from := 0
	flush := func(to int) {
		if from == to {
			fmt.Fprintf(w, "t=%d\n", from)
		} else {
			fmt.Fprintf(w, "t=%d..%d\n", from, to)
		}
		w.Write(prev)
	}
	for t := 1; t <= limit; t++ {
		var err error
		if cur, err = block(t, cur[:0]); err != nil {
			return err
		}
		if from > 0 && string(cur) == string(prev) {
			continue
		}
		if from > 0 {
			flush(t - 1)
		}
		prev, from = append(prev[:0], cur...), t
	}
	if from > 0 {
		flush(limit)
	}
	return nil
}

// seatsOptimumTable returns the table of the optimum of every seat for itself in q's model, to
// q's largest deal, and the number of pass streaks each state holds (the seats under a pass rule,
// 1 otherwise).
func seatsOptimumTable[T any](ctx context.Context, q *solveQuery, f field.Field[T]) (*rules.ChoiceTable, int, error) {
	p := q.matchup.Players
	self := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	tab, err := exact.PolicyTable(ctx, f, q.model, self, q.pairsMax)
	if err != nil {
		return nil, 0, err
	}
	if q.model.Pass == rules.PassNever {
		return tab, 1, nil
	}
	return tab, p, nil
}

// writeSeatsLimitTable writes the table of the optimum of every seat for itself under a turn
// limit: per number of turns left, a row per n with the mover's choice per j (a letter per pass
// streak under a pass rule).
func writeSeatsLimitTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	p := q.matchup.Players
	tab, streaks, err := seatsOptimumTable(ctx, q, f)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# optimal strategy table, %d players, every seat for itself (each maximises its own expected pairs taken within the turns left): %s memory, pass %s%s, singletons %d (unseen %d)\n",
		p, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant), q.state.S, q.state.F)
	fmt.Fprintln(w, "# blocks t=A or t=A..B: the turns left, this one included (the same rows for each t of a range); in a block, row n, then one choice per j (unknown pairs) from j = 1 (or the least j the memory allows) to n")
	if streaks > 1 {
		fmt.Fprintf(w, "# under pass %s each j has %d letters: the choice after 0, 1, ..., %d seats passed in a row (a pass after %d ends the game in a stalemate)\n", q.model.Pass, p, p-1, p-1)
	}
	fmt.Fprintln(w, "# choices: D daring, S safe, K known-first, P pass (the choices the engine reads, every seat for itself afterwards)")
	return limitBlocks(w, q.model.Variant.TurnLimit, func(t int, dst []byte) ([]byte, error) {
		for n := 1; n <= q.pairsMax; n++ {
			row := fmt.Appendf(nil, "%d:", n)
			cells := 0
			for j := 1; j <= n; j++ {
				st := rules.State{N: n, J: j, S: q.state.S, F: q.state.F}
				if st.Validate(q.model.Memory) != nil {
					continue
				}
				row = append(row, ' ')
				for k := range streaks {
					ch, ok := tab.LookupTurnsLeftPasses(st, k, t)
					if !ok {
						return nil, fmt.Errorf("the table has no choice in %v with %d turns left at pass streak %d", st, t, k)
					}
					row = append(row, choiceLetters[ch])
				}
				cells++
			}
			if cells > 0 {
				dst = append(append(dst, row...), '\n')
			}
		}
		return dst, nil
	})
}

// writeSeatsWinLimitText writes the win-optimal table at three or more seats under a turn limit:
// per number of turns left, per count state (and pass streak) the choice of the optimum in
// expected pairs with as many turns left and the standings at which win-optimal's choice differs
// from it, as the table without a limit writes them.
func writeSeatsWinLimitText[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	p := q.matchup.Players
	pairsTab, streaks, err := seatsOptimumTable(ctx, q, f)
	if err != nil {
		return err
	}
	winTab, err := exact.PolicyTable(ctx, f, q.model, q.matchup, q.pairsMax)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# win-optimal strategy table, %d players, every seat for itself (each maximises its own P(most pairs) when the turns run out or the pairs do, a tie for the most shared): %s memory, pass %s%s, singletons %d (unseen %d)\n",
		p, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant), q.state.S, q.state.F)
	fmt.Fprintln(w, "# blocks t=A or t=A..B: the turns left, this one included (the same rows for each t of a range)")
	fmt.Fprintln(w, "# row n j (unknown pairs, from 1 or the least the memory allows): the choice of the optimum in expected pairs within the turns left (D daring, S safe, K known-first) and the number of standings; then, for each other choice win-optimal makes, how many standings and which")
	fmt.Fprintln(w, "# standings: every seat's deficit to the most pairs so far, the mover first, n+1 for a seat that can no longer reach the most (the choices the engine reads)")
	if streaks > 1 {
		fmt.Fprintln(w, "# under a pass rule a row per pass streak k, the seats that passed in a row just before the turn: row n j k (P pass)")
	}
	d := make([]int, p)
	pairs := make([]int, p)
	return limitBlocks(w, q.model.Variant.TurnLimit, func(t int, dst []byte) ([]byte, error) {
		std := winTab.StandingsTurnsLeft(t)
		if std == nil {
			return nil, fmt.Errorf("the win-optimal table has no standings with %d turns left", t)
		}
		for n := 1; n <= q.pairsMax; n++ {
			for j := 1; j <= n; j++ {
				st := rules.State{N: n, J: j, S: q.state.S, F: q.state.F}
				if st.Validate(q.model.Memory) != nil {
					continue
				}
				for k := range streaks {
					ref, ok := pairsTab.LookupTurnsLeftPasses(st, k, t)
					if !ok {
						return nil, fmt.Errorf("the optimum's table has no choice in %v with %d turns left at pass streak %d", st, t, k)
					}
					var other [rules.NumChoices][]string
					count := 0
					var err error
					eachStandings(d, n, func() {
						for s, v := range d {
							pairs[s] = n + 1 - v
						}
						ch, ok := std.LookupPasses(st, pairs, k)
						if !ok {
							err = fmt.Errorf("the win-optimal table has no choice in %v with %d turns left at pass streak %d and standings %v", st, t, k, d)
							return
						}
						count++
						if ch != ref {
							other[ch] = append(other[ch], deficitsText(d))
						}
					})
					if err != nil {
						return nil, err
					}
					dst = fmt.Appendf(dst, "%d %d", n, j)
					if streaks > 1 {
						dst = fmt.Appendf(dst, " %d", k)
					}
					dst = fmt.Appendf(dst, ": %c (%d standings)", choiceLetters[ref], count)
					for _, c := range rules.Choices() {
						if len(other[c]) > 0 {
							dst = fmt.Appendf(dst, "; %c at %d: %s", choiceLetters[c], len(other[c]), strings.Join(other[c], " "))
						}
					}
					dst = append(dst, '\n')
				}
			}
		}
		return dst, nil
	})
}

// eachStandings calls visit with d set to every standings of len(d) seats with n pairs left:
// deficits 0 .. n+1, at least one 0, in the order of rules.StandingsIndex (seat 0's deficit the
// lowest digit).
func eachStandings(d []int, n int, visit func()) {
	for i := range d {
		d[i] = 0
	}
	for {
		for _, v := range d {
			if v == 0 {
				visit()
				break
			}
		}
		s := 0
		for s < len(d) && d[s] == n+1 {
			d[s] = 0
			s++
		}
		if s == len(d) {
			return
		}
		d[s]++
	}
}
