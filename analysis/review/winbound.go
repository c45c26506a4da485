package review

import (
	"memsim/analysis/exact"
	"memsim/sim/record"
)

// MaxExactCopiesWinCells bounds the table to win (exact.CopiesWinCells: the states of faces,
// times the turns left under a limit, times the leads) a review solves in exact rationals under
// more than two copies of a face: about 170,000 cells (12 pairs of four cards, a limit of 30
// turns) take seconds, 6.8 million (26 pairs, a limit of 52) more than five minutes.
const MaxExactCopiesWinCells = 1_000_000

// CopiesWinBeyond reports whether the win scores of game g need a table to win beyond
// MaxExactCopiesWinCells: a two-seat game of more than two copies of a face whose states, turns
// left and leads are that many; it returns the table's cells too (-1 beyond 2^62).
func CopiesWinBeyond(g *record.Game) (bool, int64) {
	k := g.Rules.Variant.CopiesOf()
	if g.Rules.Seats != 2 || k <= 2 {
		return false, 0
	}
	cells := exact.CopiesWinCells(g.Rules.Pairs, k, g.Rules.Variant.TurnLimit)
	return cells < 0 || cells > MaxExactCopiesWinCells, cells
}
