package main

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctuationQuery sets the fluctuating capacity of --fluctuation S on the memory of --memory M
// --forget RULE, and the capacity drawn of --capacity C, refusing what its exact model does not
// give: 2 to 8 players under every pass rule, and solitaire (one player, pass rule never), from a
// state of pairs only (docs/models.md §4.4, §4.8); with two players, the choices' values and --first with
// --capacity only (the mover's choice depends on the capacity drawn; under a pass rule with
// --after-pass just after a pass by seat 1), the score distribution before the draw only, and the
// optimum's table (in JSON too, without a turn limit); with three or more, the same without --after-pass (--capacity values the turn
// after no pass, pass streak 0), the score distribution every seat's (exact.SeatsScoreDistribution). The policies that play to win are solved
// at two seats under every pass rule (exact.FluctWinChoiceValues, with --after-pass
// exact.FluctWinChoiceValuesAfterPass), with the score distribution and their table
// (writeFluctWinTable).
func (fl *solveFlags) fluctuationQuery(q *solveQuery, set map[string]bool) error {
	mem := q.model.Memory
	switch {
	case fl.fluctuation < 0 || fl.fluctuation > rules.MaxFluctuation:
		return usagef("--fluctuation %d: must be between 0 and %d", fl.fluctuation, rules.MaxFluctuation)
	case fl.fluctuation == 0 && set["capacity"]:
		return usagef("--capacity %d goes with --fluctuation S (S at least 1)", fl.capacity)
	case fl.fluctuation == 0:
		return nil // a fixed capacity
	case mem.Forget != rules.ForgetLRU && mem.Forget != rules.ForgetHandoverUniform:
		return usagef("--fluctuation %d goes with --memory M --forget lru or handover-uniform", fl.fluctuation)
	case q.table && !namesWinPolicy(fl.policy) && !fl.twoSeatReply(set) && (set["policy"] && fl.policy != rules.PolicyOptimal.String() || set["opponent"]):
		return usagef("--fluctuation %d with --table: the table is of the optimal policy, of a policy that plays to win, or at two seats of best-response (leave out --policy and --opponent, or give --policy win-optimal, or win-best-response or best-response with --opponent)", fl.fluctuation)
	case q.table && q.json && (fl.anySeatWin(set) || set["seats"] || fl.players > 2 || q.model.Variant.TurnLimit > 0):
		return usagef("--fluctuation %d with --table --json: JSON is written for solitaire's table and the two-seat tables of optimal and best-response without a turn limit; this one is printed as text (leave out --json)", fl.fluctuation)
	case q.table && (set["capacity"] || set["after-pass"]):
		return usagef("--capacity and --after-pass do not go with --table (the table has a block per capacity, and under a pass rule one just after a pass)")
	case q.table && set["streak"]:
		return usagef("--streak does not go with --table (the table has a choice per pass streak)")
	case set["first"] && !set["capacity"]:
		return requiredWith("--capacity C", fmt.Sprintf("--fluctuation %d --first %s", fl.fluctuation, fl.first), "the capacity drawn for seat 0's turn now, which its choice depends on")
	case fl.distribution && set["capacity"]:
		return usagef("--capacity %d with --distribution: the score distribution is computed before the capacity is drawn (leave out --capacity)", fl.capacity)
	case set["players"] && (fl.players < 1 || fl.players > rules.MaxPlayers):
		return usagef("--fluctuation %d with --players %d: solved for 1 to %d players", fl.fluctuation, fl.players, rules.MaxPlayers)
	case (set["seats"] || fl.players > 2) && fl.everySeatWinOptimal(set) && (set["first"] || set["capacity"]):
		return usagef("--fluctuation %d with win-optimal at three or more seats: the values, or the table (leave out --first and --capacity)", fl.fluctuation)
	case (set["seats"] || fl.players > 2) && fl.distribution && (fl.anySeatWin(set) || q.table):
		return usagef("--fluctuation %d with --distribution and three or more seats: every seat's score distribution is computed for optimal, safe, daring, parity and best-response, without --table", fl.fluctuation)
	case (set["seats"] || fl.players > 2) && set["after-pass"]:
		return usagef("--after-pass with three or more seats: the turn after a pass depends on how many seats passed in a row (give it with --streak K)")
	case set["streak"] && !set["capacity"]:
		return requiredWith("--capacity C", fmt.Sprintf("--fluctuation %d --streak %d", fl.fluctuation, fl.streak), "the capacity drawn for seat 0's turn, whose pass streak --streak gives")
	case set["standings"] && !fl.everySeatWinOptimal(set):
		return usagef("--fluctuation %d with --standings: under a fluctuating capacity the chances of the most pairs are computed with every seat win-optimal (--policy win-optimal)", fl.fluctuation)
	case set["after-pass"] && (!set["capacity"] || fl.pass == rules.PassNever.String()):
		return usagef("--after-pass goes with --fluctuation S --capacity C and --pass two-known or always (seat 0's turn after the draw, just after a pass by seat 1)")
	}
	if lo, hi := max(2, fl.memory-fl.fluctuation), fl.memory+fl.fluctuation; set["capacity"] && (fl.capacity < lo || fl.capacity > hi) {
		return usagef("--capacity %d: --memory %d --fluctuation %d draws %d to %d", fl.capacity, fl.memory, fl.fluctuation, lo, hi)
	}
	q.model.Memory.Fluctuation = fl.fluctuation
	q.capacity, q.afterPass, q.streak = fl.capacity, fl.afterPass, fl.streak
	if !set["capacity"] {
		fl.valueOnly = true // the choices' values depend on the capacity drawn
	}
	return nil
}

// writeFluctTable writes the optimal strategy table under a fluctuating capacity: a block per
// capacity drawn, from the smallest to the largest that binds in a deal of pairs-max pairs, each
// with a row per n and the optimum's choice per j; under a pass rule each capacity's block is
// followed by one of the choices just after a pass by the other seat. The choices are those the
// engine reads (rules.ChoiceTable.LookupCapacity).
func writeFluctTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	if q.model.Variant.TurnLimit > 0 {
		return writeFluctLimitTable(ctx, q, f, w) // solvefluctlimit.go
	}
	mu := q.matchup
	if q.json {
		return answer.WriteFluctTable(ctx, w, f, q.model, mu, q.pairsMax)
	}
	reply := mu.Policy == rules.PolicyBestResponse
	var t *rules.ChoiceTable
	var err error
	if reply {
		t, err = exact.FluctReplyTable(ctx, f, q.model, mu.Opponent, q.pairsMax)
	} else {
		t, err = exact.FluctTable(ctx, f, q.model, q.pairsMax)
	}
	if err != nil {
		return err
	}
	lo, hi, _ := t.Capacities()
	passes := q.model.Pass != rules.PassNever
	name, after := "optimal", "optimal afterwards"
	if reply {
		name = "best-response to " + mu.Opponent.String()
		after = fmt.Sprintf("by the reply's own expected pairs, the reply and %s afterwards", mu.Opponent)
	}
	fmt.Fprintf(w, "# %s strategy table: %s memory, pass %s%s\n", name, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant))
	fmt.Fprintf(w, "# blocks c=C: the capacity drawn for the turn (c=%d: that capacity or more); in a block, row n, then one choice per j (unknown pairs) from j = 1 (or the least j the capacity allows) to n\n", hi)
	if passes {
		fmt.Fprintln(w, "# blocks c=C after a pass: the same, just after a pass by the other seat (a pass there ends the game in a stalemate)")
		fmt.Fprintf(w, "# choices: D daring, S safe, K known-first, P pass (the first best in that order, %s)\n", after)
	} else {
		fmt.Fprintf(w, "# choices: D daring, S safe, K known-first (the first best in that order, %s)\n", after)
	}
	return writeCapacityBlocks(w, q, t, lo, hi, passes, false)
}

// twoSeatReply reports whether the flags name the best reply of one of two seats to --opponent
// (--policy best-response with --opponent, neither --seats nor --players above 2).
func (fl *solveFlags) twoSeatReply(set map[string]bool) bool {
	return fl.policy == rules.PolicyBestResponse.String() && set["opponent"] && !set["seats"] && (!set["players"] || fl.players == 2)
}

// writeCapacityBlocks writes the blocks of table t by capacity drawn, lo to hi, under a pass rule
// each followed by the block just after a pass by the other seat: a row per n (with leads, per n
// and lead d, |d| <= pairs-max - n), one letter per j the capacity allows, read with
// LookupCapacity as the engine reads it.
func writeCapacityBlocks(w *bufio.Writer, q *solveQuery, t *rules.ChoiceTable, lo, hi int, passes, leads bool) error {
	block := func(c int, afterPass bool) error {
		for n := 1; n <= q.pairsMax; n++ {
			spread := 0
			if leads {
				spread = q.pairsMax - n
			}
			for d := -spread; d <= spread; d++ {
				if leads {
					fmt.Fprintf(w, "%d d=%d:", n, d)
				} else {
					fmt.Fprintf(w, "%d:", n)
				}
				for j := max(1, n-fluctKnownAfterDraw(q.model.Memory, c)); j <= n; j++ {
					st := rules.State{N: n, J: j, Lead: d}
					ch, ok := t.LookupCapacity(st, afterPass, c)
					if !ok {
						return fmt.Errorf("the table has no choice in %v with capacity %d (after a pass: %t)", st, c, afterPass)
					}
					w.WriteByte(' ')
					w.WriteByte(choiceLetters[ch])
				}
				w.WriteByte('\n')
			}
		}
		return nil
	}
	return eachCapacityBlock(w, lo, hi, passes, block)
}

// fluctKnownAfterDraw returns the most known cards a mover may see with capacity c drawn: c under
// lru, which forgets beyond it at the draw; the largest capacity under handover-uniform, which
// forgets at the hand-over.
func fluctKnownAfterDraw(mem rules.Memory, c int) int {
	if mem.Forget == rules.ForgetLRU {
		return c
	}
	return mem.Capacity + mem.Fluctuation
}

// everySeatWinOptimal reports whether the flags name win-optimal at every seat (--policy and
// --opponent, or --seats).
func (fl *solveFlags) everySeatWinOptimal(set map[string]bool) bool {
	win := rules.PolicyWinOptimal.String()
	if set["seats"] {
		for _, p := range strings.Split(fl.seats, ",") {
			if strings.TrimSpace(p) != win {
				return false
			}
		}
		return true
	}
	return fl.policy == win && (!set["opponent"] || fl.opponent == win)
}

// namesWinPolicy reports whether the policy named name plays to win.
func namesWinPolicy(name string) bool {
	p, err := rules.ParsePolicy(name)
	return err == nil && p.PlaysToWin()
}

// anySeatWin reports whether --policy, --opponent or a seat of --seats names a policy that plays
// to win.
func (fl *solveFlags) anySeatWin(set map[string]bool) bool {
	if set["seats"] {
		for _, p := range strings.Split(fl.seats, ",") {
			if namesWinPolicy(strings.TrimSpace(p)) {
				return true
			}
		}
		return false
	}
	return namesWinPolicy(fl.policy) || set["opponent"] && namesWinPolicy(fl.opponent)
}

// eachCapacityBlock writes a block per capacity drawn, lo to hi: its heading "c=C" and what block
// writes, and under a pass rule the heading "c=C after a pass" and block's choices just after a
// pass by the other seat.
func eachCapacityBlock(w *bufio.Writer, lo, hi int, passes bool, block func(c int, afterPass bool) error) error {
	for c := lo; c <= hi; c++ {
		fmt.Fprintf(w, "c=%d\n", c)
		if err := block(c, false); err != nil {
			return err
		}
		if !passes {
			continue
		}
		fmt.Fprintf(w, "c=%d after a pass\n", c)
		if err := block(c, true); err != nil {
			return err
		}
	}
	return nil
}
