package sim

import "memsim/sim/rules"

// The perfect-memory path. When every seat follows a policy table and all share one perfect
// memory, with no singletons and no log, the engine plays the game with a leaner account of the
// same memory. It plays the very same game as the general path for the same deal: it flips the
// same positions in the same order (the unremembered cards are taken from the end of the list of
// unseen positions, as the general path's exchangeable draw does) and keeps the list of
// remembered cards in the same order, so it picks the same known card where the rules leave the
// choice open. TestPerfectPathIsTheGeneralPath checks this game by game.
//
// With perfect shared memory and table players the position at the start of a turn is simple:
// every remembered card is the only remembered card of its pair, except for at most one pair left
// fully known by the previous turn, which the mover takes first.

// perfectEligible reports whether games of g can take the perfect-memory path (without a log).
func (g *Game) perfectEligible() bool {
	if g.setup.Singletons != 0 || len(g.mems) != 1 || g.mems[0].kind != memPerfect {
		return false
	}
	for _, t := range g.tables {
		if t == nil {
			return false
		}
	}
	return true
}

// invalidChoice marks a state whose table entry is missing or illegal in denseChoices.
const invalidChoice rules.Choice = rules.NumChoices

// denseChoices writes out the choices of every seat's table for the states of this game, so that
// the path reads them with one index: choices[seat][i] with i = (n·(pairs+1) + j)·2 + (1 after a
// pass). A missing or illegal choice is written as invalidChoice and reported when it is reached.
func (g *Game) denseChoices() [][]rules.Choice {
	n := g.setup.Pairs
	out := make([][]rules.Choice, len(g.tables))
	for seat, t := range g.tables {
		dense := padded[rules.Choice]((n + 1) * (n + 1) * 2)
		for pairs := 1; pairs <= n; pairs++ {
			for j := 0; j <= pairs; j++ {
				for flag, after := range [2]bool{false, true} {
					st := rules.State{N: pairs, J: j}
					c, ok := t.Lookup(st, after)
					if !ok || !rules.Legal(st, c, g.setup.Pass) {
						c = invalidChoice
					}
					dense[(pairs*(n+1)+j)*2+flag] = c
				}
			}
		}
		out[seat] = dense
	}
	return out
}

// perfectState is the memory of the perfect-memory path.
type perfectState struct {
	face        []int32 // the deal
	kp          []int32 // kp[f]: the remembered card of pair f, or -1
	indexedList         // remembered cards, in the general path's order
}

// playPerfect plays the game on the perfect-memory path.
func (g *Game) playPerfect() error {
	o := &g.outcome
	clear(o.Pairs)
	o.Stalemate, o.Left = false, 0
	g.turn, g.lucky = 0, 0
	p := &g.perfect
	p.face = g.deal.face
	copy(p.kp, g.noneFaces)
	p.items = p.items[:0]
	face := p.face
	left := g.setup.Pairs
	next := int32(g.cards) // the unseen cards are positions 0 .. next-1; the next one flipped is next-1
	pend, pendB := int32(-1), int32(-1)
	passes := 0
	seat := 0
	choices := g.dense[0]
	stride := g.setup.Pairs + 1
game:
	for left > 0 {
		if int(g.turn) >= g.maxTurns {
			return g.moveError(seat, "the game did not end within %d turns", g.maxTurns)
		}
		g.turn++
		if pend >= 0 {
			// The pair left fully known: its earlier card first, as the general path flips it.
			p.remove(p.kp[pend])
			p.remove(pendB)
			p.kp[pend], pend = -1, -1
			o.Pairs[seat]++
			left--
			passes = 0
			continue
		}
		i := (left*stride + left - len(p.items)) * 2
		if passes > 0 {
			i++
		}
		c := choices[i]
		if c == invalidChoice {
			st := rules.State{N: left, J: left - len(p.items)}
			c, ok := g.tables[seat].Lookup(st, passes > 0)
			if !ok {
				return g.moveError(seat, "its policy table has no choice for %v", st)
			}
			return g.moveError(seat, "its policy table chose %s in %v, which is not legal under pass rule %s", c, st, g.setup.Pass)
		}
		matched := false
		switch c {
		case rules.Pass:
			passes++
			if passes == g.players {
				o.Stalemate, o.Left = true, left
				break game
			}
		case rules.KnownFirst:
			k := p.items[0]
			next--
			y := next
			switch fy := face[y]; {
			case fy == face[k]:
				p.remove(k)
				p.kp[fy] = -1
				matched = true
			case p.kp[fy] >= 0:
				p.add(y)
				pend, pendB = fy, y
			default:
				p.add(y)
				p.kp[fy] = y
			}
		default:
			next--
			x := next
			fx := face[x]
			if k := p.kp[fx]; k >= 0 {
				p.remove(k)
				p.kp[fx] = -1
				matched = true
				break
			}
			if c == rules.Safe {
				p.add(x)
				p.kp[fx] = x
				break
			}
			next--
			y := next
			switch fy := face[y]; {
			case fy == fx:
				g.lucky++
				matched = true
			case p.kp[fy] >= 0:
				p.add(x)
				p.kp[fx] = x
				p.add(y)
				pend, pendB = fy, y
			default:
				p.add(x)
				p.kp[fx] = x
				p.add(y)
				p.kp[fy] = y
			}
		}
		if matched {
			o.Pairs[seat]++
			left--
			passes = 0
			continue
		}
		if c != rules.Pass {
			passes = 0
		}
		seat++
		if seat == g.players {
			seat = 0
		}
		choices = g.dense[seat]
	}
	o.Turns = int(g.turn)
	for i := range o.Share {
		o.Share[i] = o.Pairs[i]*g.players + o.Left
	}
	return nil
}
