package exact

import "memsim/sim/rules"

// A best reply at three or more seats under k copies of a face (docs/models.md §4.7, §4.16): one
// seat plays best-response, every other seat optimal (every seat for itself, or the two-player
// optimum's choices), safe or daring. Every turn of the copies model takes a pair or turns up a
// card that was not remembered, and under a turn limit uses a turn too, so no state refers to
// itself and the replying seat's decision problem is solved by backward induction over the
// memoised states: in each state, with the states after it solved, the replying seat takes the
// first choice, in the order daring, safe, known-first, that gives it the most expected pairs,
// the other seats playing their policies. The same holds under blind flips and under a turn
// limit, whose states carry the turns left.

// replyChoice returns the choice of the replying seat r in c: the first legal choice that gives
// it the most expected pairs, every seat playing its policy afterwards (r replying again).
func (s *copiesSolver[T]) replyChoice(c *copiesCell[T], r int) rules.Choice {
	ch, _ := s.best(c, false, func(ch rules.Choice) T { return s.seatsAfter(c, r, ch)[r] })
	return ch
}
