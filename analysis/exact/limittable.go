package exact

import "memsim/sim/rules"

// Policies given as tables under a turn limit. A table holds a choice per count state (after a
// pass or at a pass streak, and per lead for a table that depends on it), the same whatever the
// turns left: the limit sweep reads it where it reads a fixed policy's choice, at every number of
// turns left, so every evaluation of fixed policies under a limit (values, each seat's pairs, win,
// draw and loss, a best response to the table, each choice's values, the reply's tables) covers a
// table too.

// seatPolicies returns the policy of every seat of the sweep's lineup, policyTable for a seat that
// plays a table (seat 0 Lineup.Table, the others Lineup.OpponentTable).
func (s *limitSweep[T]) seatPolicies() []rules.Policy {
	pols := s.mu.SeatPolicies()
	for m := range pols {
		if s.tab[min(m, 1)] != nil && !s.mu.PerSeat {
			pols[m] = policyTable
		}
	}
	return pols
}

// fixedChoice returns the choice of seat m, playing the fixed policy or table pol, in st at pass
// streak k (with two players k is 1 just after a pass by the other seat, 0 otherwise); a table
// that depends on the lead is read at st.Lead. Where the table holds no choice open in st, the
// first legal choice in the order daring, safe, known-first, pass (as the sweep without a limit).
func (s *limitSweep[T]) fixedChoice(m int, pol rules.Policy, st rules.State, k int) rules.Choice {
	if pol != policyTable {
		return pol.Decide(st)
	}
	ls := &s.states[s.index(st)]
	if c, ok := s.tab[min(m, 1)].LookupPasses(st, k); ok && ls.legal[c] {
		return c
	}
	for _, c := range rules.Choices() {
		if ls.legal[c] {
			return c
		}
	}
	return rules.Daring
}
