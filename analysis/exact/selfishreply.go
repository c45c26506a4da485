package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// A best reply at three or more seats (docs/models.md §4.7, "A best reply at three or more
// seats"): one seat plays best-response, every other seat a policy that does not look at it
// (safe, daring, parity, or optimal, the table of the optimum of every seat for itself), or a
// policy given as a table (tablereply.go). The
// others' choices are then fixed functions of the state, so the replying seat faces a Markov
// decision problem of its own, and the lineup's sweep of every seat's expected pairs (sweep.multi,
// sweep.multiPass) solves it: in each state the replying seat takes the first choice, in the order
// daring, safe, known-first, pass, that gives it the most expected pairs, the others playing
// their policies there and everyone playing the lineup afterwards. Where a forgotten card brings
// the state back to the next seat, the state's seats form a cycle in which the replying seat
// chooses once, so trying each of its choices with the cycle solved in closed form finds its
// best stationary choice there, which is a best choice of the decision problem. Under decay
// forgetting a row's states refer to each other, and under a pass rule with forgotten cards a
// state's pass streaks too: those are solved by policy iteration (selfishreplydecay.go).

// replySeat returns the seat of a lineup of three or more seats that plays best-response, the
// first one should several, or -1 when none does.
func (mu Lineup) replySeat() int {
	if mu.Players < 3 {
		return -1
	}
	if !mu.PerSeat {
		switch {
		case mu.Table == nil && mu.Policy == rules.PolicyBestResponse:
			return 0
		case mu.OpponentTable == nil && mu.Opponent == rules.PolicyBestResponse:
			return 1
		}
		return -1
	}
	for i, p := range mu.Seats[:min(mu.Players, len(mu.Seats))] {
		if p == rules.PolicyBestResponse {
			return i
		}
	}
	return -1
}

// isSeatReply reports whether a lineup of three or more seats has a seat that plays
// best-response.
func isSeatReply(mu Lineup) bool { return mu.replySeat() >= 0 }

// validateSeatReply is Lineup.Validate for a lineup of three or more seats in which a seat plays
// best-response: one such seat, every other seat optimal or a fixed policy (or, seat 0 replying,
// a table at every other seat: validateTableReply), in a model whose
// lineups the sweep of every seat's expected pairs solves (any memory and pass rule, decay
// forgetting and forgotten cards under a pass rule by policy iteration, selfishreplydecay.go;
// more copies of a face and a turn limit by backward induction, copiesreply.go and limitreply.go).
func (mu Lineup) validateSeatReply(m Model) error {
	pol := mu.SeatPolicies()
	replies := 0
	for _, p := range pol {
		if p == rules.PolicyBestResponse {
			replies++
		}
	}
	switch {
	case mu.PerSeat && (mu.Table != nil || mu.OpponentTable != nil):
		return fmt.Errorf("a policy per seat is not combined with tables")
	case mu.Table != nil:
		return fmt.Errorf("policy best-response: with %d players seat 0 replies to a table at every other seat, the other seats do not reply to seat 0's table (%d replies to it and each other would be an equilibrium of their own)", mu.Players, mu.Players-1)
	case mu.OpponentTable != nil:
		return mu.validateTableReply(m)
	case replies > 1:
		return fmt.Errorf("policy best-response: with %d players one seat replies to the others, not %d (replies to each other would be an equilibrium of their own)", mu.Players, replies)
	}
	if err := m.Choices.Validate(); err != nil {
		return err
	}
	for i, p := range pol {
		if p != rules.PolicyBestResponse && p != rules.PolicyOptimal && !p.Fixed() {
			return fmt.Errorf("seat %d: policy %s: beside best-response with %d players each seat plays optimal, safe, daring or parity", i, p, mu.Players)
		}
		if err := p.CheckChoices(m.Choices); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return nil
}

// multiReply computes every seat's expected pairs with each seat to move in st (pass rule never)
// when seat r replies: it tries each of r's legal choices, the other seats playing their
// policies, and keeps the first that gives r the most, setting brChoice to it.
func (w *sweep[T]) multiReply(st rules.State, c *cell[T], r int) {
	var best [][]T
	choice := rules.Daring
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		w.brChoice = [2]rules.Choice{ch, ch}
		x := w.multiSeats(st)
		if best == nil || w.f.Cmp(x[r][r], best[r][r]) > 0 {
			best, choice = x, ch
		}
	}
	w.brChoice = [2]rules.Choice{choice, choice}
	c.seats = best
}

// replyLevel returns every seat's expected pairs (seat 0 first) with the replying seat r to move
// in st at pass streak k of a sweep under a pass rule (multiPass), and its choice there: the
// first legal choice, a pass included, that gives r the most, the level above already solved.
func (w *sweep[T]) replyLevel(st rules.State, k, r int) ([]T, rules.Choice) {
	var best []T
	choice := rules.Daring
	for _, ch := range rules.Choices() {
		if !w.legal[ch] {
			continue
		}
		v := w.levelSum(st, r, k, ch)
		if best == nil || w.f.Cmp(v[r], best[r]) > 0 {
			best, choice = v, ch
		}
	}
	return best, choice
}

// A best reply to win at three or more seats: one seat plays win-best-response, maximising its
// P(most pairs) against the others' tables. Beside optimal and fixed policies it is the seat that
// plays to win in a mixed lineup (selfishwinmixed.go), which takes the choice best for its own
// score against the others' tables; beside win-optimal at every other seat it is win-optimal
// itself, since with perfect memory (the only model of the win objective at three or more seats)
// no state refers to itself and the win-optimal table is backward induction: the mover's choice
// in it is already the best against the others' choices in every later state.

// checkWinReply reports whether a lineup of three or more seats with a seat that plays
// win-best-response has just one such seat, and no other seat that plays to win unless every
// other seat plays win-optimal.
func (mu Lineup) checkWinReply() error {
	replies, others := 0, 0
	for _, p := range mu.SeatPolicies() {
		switch p {
		case rules.PolicyWinBestResponse:
			replies++
		case rules.PolicyWinOptimal:
			others++
		}
	}
	switch {
	case replies > 1:
		return fmt.Errorf("policy win-best-response: with %d players one seat replies to the others, not %d (replies to each other would be an equilibrium of their own)", mu.Players, replies)
	case replies == 1 && others > 0 && others < mu.Players-1:
		return fmt.Errorf("policy win-best-response: with %d players it replies to win-optimal at every other seat or to optimal, safe, daring and parity, not to a mix of win-optimal and others (the win-optimal seats would reply to it)", mu.Players)
	}
	return nil
}

// everyWinOptimal reports whether every seat of a lineup plays win-optimal, or one seat
// win-best-response and every other win-optimal, which is the same play.
func everyWinOptimal(mu Lineup) bool {
	if mu.checkWinReply() != nil {
		return false
	}
	for _, p := range mu.SeatPolicies() {
		if p != rules.PolicyWinOptimal && p != rules.PolicyWinBestResponse {
			return false
		}
	}
	return true
}
