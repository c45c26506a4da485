package client

import "memsim/strategies/external/protocol"

// Random is an events-view player that flips a position drawn uniformly among the legal ones,
// with the game's Rand, as memsim's random policy does (docs/models.md §3.3). It never passes; it
// takes pairs only by chance.
type Random struct{}

// Move implements Player.
func (Random) Move(g *Game, req *protocol.Move) Reply {
	return Flip(req.Legal[g.Rand.IntN(len(req.Legal))])
}

// Daring is an events-view player that plays the daring choice with a perfect memory of the
// public record (docs/models.md §3.1, §3.2): it takes a pair whose two cards it has seen;
// otherwise it flips a card it has not seen, then that card's partner if it has seen it, else
// another card it has not seen. After a singleton it flips a card it has seen if it may, since no
// pair can follow. It draws among equal cards with the game's Rand and never passes. It plays
// every rule variant (its Info may declare protocol.Variants()): with copies of a face a partner is any seen card
// of the face, and under blind flips it names a pair it has seen whole, or two cards it has not
// seen (one, and a seen card, when only one is left).
type Daring struct{}

// Move implements Player.
func (Daring) Move(g *Game, req *protocol.Move) Reply {
	legal := req.Legal
	if req.Blind {
		if a, b, ok := g.KnownPair(); ok && contains(legal, a) && contains(legal, b) {
			return FlipBoth(a, b)
		}
		first := drawUnseen(g, legal)
		rest := make([]int, 0, len(legal)-1)
		for _, p := range legal {
			if p != first {
				rest = append(rest, p)
			}
		}
		return FlipBoth(first, drawUnseen(g, rest))
	}
	if req.Card == 1 {
		if a, _, ok := g.KnownPair(); ok && contains(legal, a) {
			return Flip(a)
		}
		return Flip(drawUnseen(g, legal))
	}
	if g.Seen[g.First] < g.Rules.PairFaces() {
		if p, ok := g.Partner(g.First); ok && contains(legal, p) {
			return Flip(p)
		}
	} else if p, ok := draw(g, legal, true); ok {
		return Flip(p)
	}
	return Flip(drawUnseen(g, legal))
}

// drawUnseen returns a position drawn uniformly among the legal ones not seen, or among all the
// legal ones if all have been seen.
func drawUnseen(g *Game, legal []int) int {
	if p, ok := draw(g, legal, false); ok {
		return p
	}
	return legal[g.Rand.IntN(len(legal))]
}

// draw returns a position drawn uniformly among the legal ones seen (seen true) or not seen (seen
// false); ok is false if there is none such.
func draw(g *Game, legal []int, seen bool) (pos int, ok bool) {
	n := 0
	for _, p := range legal {
		if (g.Seen[p] >= 0) == seen {
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	k := g.Rand.IntN(n)
	for _, p := range legal {
		if (g.Seen[p] >= 0) == seen {
			if k == 0 {
				return p, true
			}
			k--
		}
	}
	return 0, false
}

// contains reports whether the increasing list legal holds pos.
func contains(legal []int, pos int) bool {
	for _, p := range legal {
		if p >= pos {
			return p == pos
		}
	}
	return false
}
