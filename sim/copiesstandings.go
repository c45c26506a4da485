package sim

import "memsim/sim/rules"

// copiesStandingsChoice returns the choice of ct, a table of win-optimal at three or more seats
// under copies (rules.NewCopiesStandingsTable), in the state of faces memory m sees, with every
// seat's pairs so far read from the mover's seat on, after passes seats passed in a row.
func (g *Game) copiesStandingsChoice(m *memory, ct *rules.CopiesTable, seat, passes int) (rules.Choice, bool) {
	var buf [rules.MaxPlayers]int
	pairs := g.pairsFrom(seat, &buf)
	if ft := g.cs.faces; ft != nil && m == ft.m {
		return ct.LookupStandingsPassesKey(ft.key(), pairs, passes)
	}
	return ct.LookupStandingsPassesKey(g.copiesKey(m), pairs, passes)
}

// pairsFrom writes every seat's pairs so far into buf, from seat on (its own first), and returns
// them, as the tables of the policies that play to win at three or more seats read the standings.
func (g *Game) pairsFrom(seat int, buf *[rules.MaxPlayers]int) []int {
	pairs := buf[:len(g.outcome.Pairs)]
	for s := range pairs {
		pairs[s] = g.outcome.Pairs[(seat+s)%len(pairs)]
	}
	return pairs
}
