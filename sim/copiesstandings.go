package sim

import "memsim/sim/rules"

// copiesStandingsChoice returns the choice of ct, a table of win-optimal at three or more seats
// under copies (rules.NewCopiesStandingsTable), in the state of faces memory m sees, with every
// seat's pairs so far read from the mover's seat on.
func (g *Game) copiesStandingsChoice(m *memory, ct *rules.CopiesTable, seat int) (rules.Choice, bool) {
	var buf [rules.MaxPlayers]int
	pairs := buf[:len(g.outcome.Pairs)]
	for s := range pairs {
		pairs[s] = g.outcome.Pairs[(seat+s)%len(pairs)]
	}
	if ft := g.cs.faces; ft != nil && m == ft.m {
		return ct.LookupStandingsKey(ft.key(), pairs)
	}
	return ct.LookupStandingsKey(g.copiesKey(m), pairs)
}
