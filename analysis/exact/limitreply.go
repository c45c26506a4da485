package exact

import "memsim/sim/rules"

// A best reply at three or more seats under a turn limit (docs/models.md §4.7, §4.18): one seat
// plays best-response, every other seat optimal (every seat for itself, or the two-player
// optimum's choices), safe, daring or parity. Every turn uses one of the turns left, so the
// replying seat's decision problem is solved by the limit sweep's backward induction over the
// turns left: with t turns left, the layers of fewer turns solved, the replying seat takes the
// first choice, in the order daring, safe, known-first, that gives it the most expected pairs
// taken by the limit, the other seats playing their policies. Its choice depends on the turns
// left, so the engine plays a table with a layer per number of turns left.

// replyChoice returns the choice of the replying seat r in st with t turns left: the first legal
// choice (pass rule never) that gives it the most expected pairs, every seat playing its policy
// afterwards, r replying again.
func (s *limitSweep[T]) replyChoice(st rules.State, t, r int) rules.Choice {
	ls := &s.states[s.index(st)]
	p := s.mu.Players
	nx := (r + 1) % p
	get := func(n *limitCell[T], own bool) []T {
		if own {
			return n.seats[r]
		}
		return n.seats[nx]
	}
	same := func(v []T, own bool) []T { return v }
	var val [rules.NumChoices]T
	legal := *ls
	legal.legal[rules.Pass] = false
	for _, ch := range rules.Choices() {
		if legal.legal[ch] {
			val[ch] = s.vectorSum(st, t, ch, r, nx, get, same)[r]
		}
	}
	return s.best(&legal, val)
}

// limitCostLineup returns the lineup whose sweep without a limit costs about what a layer of mu's
// limit sweep does: mu with its replying seat, if any, playing optimal. The reply's layer tries
// each choice's vector once, as the optimum of every seat for itself does; the sweep without a
// limit solves the replying seat's cycle once per choice instead, which a layer has no need of
// (measured on memsim solve --pairs 26 --turn-limit 52 --players 3 --opponent safe: 2.6 s
// replying, 4.0 s playing optimal).
func limitCostLineup(mu Lineup) Lineup {
	r := mu.replySeat()
	if r < 0 {
		return mu
	}
	pols := mu.SeatPolicies()
	pols[r] = rules.PolicyOptimal
	out := SeatLineup(pols...)
	out.TwoPlayerOptimal = mu.TwoPlayerOptimal
	return out
}
