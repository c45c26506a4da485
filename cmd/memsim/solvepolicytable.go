package main

import (
	"bufio"
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/exact/answer"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// This file holds memsim solve --table for the two-seat tables printed from the table the engine
// plays (exact.PolicyTable): the best reply to a policy (--policy best-response --opponent B),
// the optimum of singletons under a handover-uniform memory, and under a turn limit the policies
// that play to win (--policy win-optimal, or win-best-response --opponent B), a block per number
// of turns left.

// policyTableText reports whether q's table is printed from the engine's table of seat 0's
// policy: a two-seat best response, a policy that plays to win under a turn limit, or the optimum
// of singletons under a handover-uniform memory (whose table has a choice per state, not a code
// comparing daring with safe), with a fixed capacity.
func (q *solveQuery) policyTableText() bool {
	mu := q.matchup
	if !q.table || mu.Players != 2 || q.model.Memory.Fluctuation > 0 {
		return false
	}
	return mu.Policy == rules.PolicyBestResponse || (mu.Policy.PlaysToWin() && q.model.Variant.TurnLimit > 0) ||
		(mu.Policy == rules.PolicyOptimal && exact.IsHUSingles(q.model))
}

// writePolicyTable writes the table of seat 0's policy in q's two-seat lineup as the engine reads
// it: a row per n (and, for a policy that plays to win, per lead d, |d| <= pairs-max - n) with the
// choice per j, under a pass rule followed by the choice just after a pass by the other seat;
// under a turn limit a block per number of turns left, equal neighbouring blocks written once
// under "t=A..B".
func writePolicyTable[T any](ctx context.Context, q *solveQuery, f field.Field[T], w *bufio.Writer) error {
	mu := q.matchup
	if q.json {
		return answer.WritePolicyTable(ctx, w, f, q.model, mu, q.pairsMax, q.state.F)
	}
	tab, err := exact.PolicyTable(ctx, f, q.model, mu, q.pairsMax)
	if err != nil {
		return err
	}
	name := mu.Policy.String()
	if mu.Policy == rules.PolicyBestResponse || mu.Policy == rules.PolicyWinBestResponse {
		name += " to " + mu.Opponent.String()
	}
	lead := tab.MaxLead() >= 0
	passes := q.model.Pass != rules.PassNever
	limit := q.model.Variant.TurnLimit
	fmt.Fprintf(w, "# %s strategy table: %s memory, pass %s%s, singletons %d (unseen %d)\n",
		name, q.model.Memory, q.model.Pass, choicesNote(q.model.Choices)+variantNote(q.model.Variant), q.state.S, q.state.F)
	if limit > 0 {
		fmt.Fprintln(w, "# blocks t=A or t=A..B: the turns left, this one included (the same rows for each t of a range)")
	}
	row := "# row n, then one choice per j (unknown pairs) from j = 1 (or the least j the memory allows) to n"
	if lead {
		row = "# row n and d (the mover's lead: its pairs minus the other's, |d| <= pairs-max - n), then one choice per j (unknown pairs) from j = 1 (or the least j the memory allows) to n"
	}
	fmt.Fprintln(w, row)
	if passes {
		fmt.Fprintln(w, "# under a pass rule each j has two letters: the choice after no pass, then just after a pass by the other seat (a pass there ends the game in a stalemate)")
	}
	measure := "the most expected pairs"
	switch {
	case mu.Policy.PlaysToWin():
		measure = "P(win) + P(draw)/2 by the limit"
	case limit > 0:
		measure = "the largest expected lead within the turns left"
	}
	fmt.Fprintf(w, "# choices: D daring, S safe, K known-first, P pass (the first best in that order by %s, both policies played afterwards: the choices the engine reads)\n", measure)
	block := func(t int, dst []byte) ([]byte, error) {
		n, d := -1, 0
		err := answer.EachPolicyCell(tab, q.model, q.pairsMax, q.state.F, t, func(c *answer.PolicyCell) error {
			if c.Pairs != n || c.State.Lead != d {
				if n >= 0 {
					dst = append(dst, '\n')
				}
				n, d = c.Pairs, c.State.Lead
				if lead {
					dst = fmt.Appendf(dst, "%d d=%d:", n, d)
				} else {
					dst = fmt.Appendf(dst, "%d:", n)
				}
			}
			dst = append(dst, ' ', choiceLetters[c.Chosen])
			if passes {
				dst = append(dst, choiceLetters[c.ChosenAfterPass])
			}
			return nil
		})
		if n >= 0 {
			dst = append(dst, '\n')
		}
		return dst, err
	}
	if limit == 0 {
		b, err := block(0, nil)
		w.Write(b)
		return err
	}
	return limitBlocks(w, limit, block)
}
