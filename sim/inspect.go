package sim

// Remembered appends to dst the cards on the table that seat remembers, in the order of their
// positions, and returns it: what the seat's memory holds at the moment of the call (seats that
// share a memory remember alike). It is for showing a memory, as memsim play does: an Observer may
// call it from Observe, between the engine's steps, and a Strategy from Flip; the engine itself
// never calls it. It reads the memories of the engine's general path, which plays every game with
// a log or with a seat that has a Strategy; a game of table players played without a log takes a
// lean path, whose memories it does not read, and it then returns dst as it is.
//
// For a seat whose Strategy keeps its own memory (a player process), it is the memory the engine
// keeps for the seat's configured memory model, not what the player remembers.
func (g *Game) Remembered(seat int, dst []Card) []Card {
	if seat < 0 || seat >= g.players || (g.log == nil && (g.fast || g.limited)) {
		return dst
	}
	m := &g.mems[g.seatMem[seat]]
	for pos := range g.cards {
		if g.present[pos] && m.known(int32(pos)) {
			dst = append(dst, Card{Pos: pos, Face: int(g.deal.face[pos])})
		}
	}
	return dst
}
