package sim

import "memsim/sim/rules"

// copiesScratch holds what reading a table by the state of faces needs, allocated once per engine.
type copiesScratch struct {
	left   []int // left[face]: the face's cards on the table
	counts []int // the state of faces (rules.CopiesTable)
	key    []byte
	// faces, when not nil, keeps the state of faces of the one perfect memory up to date card by
	// card, for luck-adjusted games (luckvariant.go).
	faces *facesTrack
}

// cardsLeft counts every pair face's cards on the table into g.cs.left.
func (g *Game) cardsLeft() []int {
	if g.cs.left == nil {
		g.cs.left = make([]int, g.deal.pairs)
		g.cs.counts = make([]int, g.copies)
	}
	clear(g.cs.left)
	for _, pos := range g.down {
		if f := g.deal.face[pos]; f < g.deal.pairs {
			g.cs.left[f]++
		}
	}
	return g.cs.left
}

// copiesChoice returns the choice of ct in the state of faces memory m sees (docs/models.md
// §4.16): for every face on the table, its cards there and whether one of them is remembered. The
// mover has taken every pair it remembers whole, so no face has two cards remembered. A table of
// a policy that plays to win reads the mover's lead as well, and under a pass rule a table reads
// how many seats passed in a row just before this turn (with two seats, whether the other has just
// passed).
func (g *Game) copiesChoice(m *memory, ct *rules.CopiesTable, lead, passes int) (rules.Choice, bool) {
	var key []byte
	if ft := g.cs.faces; ft != nil && m == ft.m {
		key = ft.key()
	} else {
		key = g.copiesKey(m)
	}
	if ct.HasAfterPass() {
		// Under a pass rule the table has a choice of its own after each number of passes in a
		// row (a table to win, at every lead just after a pass).
		return ct.LookupLeadPassesKey(key, lead, passes)
	}
	return ct.LookupLeadKey(key, lead)
}

// copiesKey returns the key (rules.AppendCopiesKey) of the state of faces memory m sees, in
// g.cs.key.
func (g *Game) copiesKey(m *memory) []byte {
	left := g.cardsLeft()
	clear(g.cs.counts)
	for f, r := range left {
		if r > 0 {
			b := min(int(m.count[f]), 1)
			g.cs.counts[r-2+b]++
		}
	}
	g.cs.key = rules.AppendCopiesKey(g.cs.key[:0], g.cs.counts)
	return g.cs.key
}

// mostCardsHalfKnown returns the remembered card, of a pair face no other card of which is
// remembered, whose face has the most cards on the table (the first listed among equals), or -1.
func (g *Game) mostCardsHalfKnown(m *memory) int32 {
	left := g.cardsLeft()
	best, most := int32(-1), 0
	for _, pos := range m.listed.items {
		f := g.deal.face[pos]
		if f < g.deal.pairs && m.count[f] == 1 && left[f] > most {
			best, most = pos, left[f]
		}
	}
	return best
}
