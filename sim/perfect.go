package sim

import "memsim/sim/rules"

// The perfect-memory path. When every seat follows a policy table and all share one perfect
// memory, with no singletons and no log, the engine plays the game with a leaner account of the
// same memory. It plays the very same game as the general path for the same deal: it flips the
// same positions in the same order (the unremembered cards are taken from the end of the list of
// unseen positions, as the general path's exchangeable draw does) and, where a seat's table can
// choose known-first, keeps the list of remembered cards in the same order, so it picks the same
// known card where the rules leave the choice open. TestPerfectPathIsTheGeneralPath checks this
// game by game.
//
// With perfect shared memory and table players the position at the start of a turn is simple:
// every remembered card is the only remembered card of its pair, except for at most one pair left
// fully known by the previous turn, which the mover takes first. Unless a seat can choose
// known-first, which card of the table is which never matters: the path then plays with the faces
// alone (playPerfectFaces), one flag per face saying whether a card of it is remembered.
//
// Neither path needs the general path's bound on the number of turns: every turn that is not a
// pass takes a pair or flips a card nobody has seen, and a run of passes ends the game when every
// seat has passed, so a game lasts fewer than players·3·pairs + players turns.

// perfectEligible reports whether games of g can take the perfect-memory path (without a log).
func (g *Game) perfectEligible() bool {
	if g.setup.Singletons != 0 || len(g.mems) != 1 || g.mems[0].kind != memPerfect {
		return false
	}
	return g.leanTables()
}

// leanTables reports whether the lean paths can play the game's seats: every seat follows a
// table that depends neither on the lead, nor on the standings, nor on more than whether the
// previous seat passed (the lean paths index their tables by count state and pass flag alone, and
// leave policies that play to win and tables of every seat for itself under a pass rule to the
// general path), and no game is adjusted card by card (which only the general path does).
func (g *Game) leanTables() bool {
	if g.luck == luckTurns {
		return false
	}
	for _, t := range g.tables {
		if t == nil || t.MaxLead() >= 0 || t.PassLevels() > 2 || t.Standings() != nil {
			return false
		}
	}
	return true
}

// invalidChoice marks a state whose table entry is missing or illegal in seatChoices.
const invalidChoice rules.Choice = rules.NumChoices

// seatChoices holds the choices of every seat's table for the states (n, j) of one game (no
// singletons), written out so that the lean paths read a choice with one index. A missing or
// illegal choice is written as invalidChoice and reported when it is reached. It is small enough
// (four words) for the compiler to keep in registers.
type seatChoices struct {
	// c[((n·(pairs+1) + j)·2 + (1 after a pass))<<seatBits + seat]: the seats of one state and
	// pass flag side by side, their number rounded up to a power of two.
	c []rules.Choice
	// luck, with a luck table, holds every seat's advantage of each of those choices (luckAt).
	luck     []float64
	width    uint32 // pairs + 1
	seatBits uint32 // log2 of the seats rounded up to a power of two (at most 3)
}

// newSeatChoices writes out the tables of game g, and reports whether some seat's table chooses
// known-first in some state.
func (g *Game) newSeatChoices() (sc seatChoices, knownFirst bool) {
	n := g.setup.Pairs
	sc.width = uint32(n + 1)
	for 1<<sc.seatBits < len(g.tables) {
		sc.seatBits++
	}
	sc.c = padded[rules.Choice]((n + 1) * (n + 1) * 2 << sc.seatBits)
	k := len(g.tables)
	if g.luck == luckModel {
		sc.luck = make([]float64, len(sc.c)*k)
	}
	for seat, t := range g.tables {
		for pairs := 1; pairs <= n; pairs++ {
			for j := 0; j <= pairs; j++ {
				for flag, after := range [2]bool{false, true} {
					st := rules.State{N: pairs, J: j}
					c, ok := t.Lookup(st, after)
					if !ok || !rules.Legal(st, c, g.setup.Pass) {
						c = invalidChoice
					}
					i := ((pairs*(n+1)+j)*2+flag)<<sc.seatBits + seat
					sc.c[i] = c
					for r := range k {
						if sc.luck == nil || c == invalidChoice {
							break
						}
						if a, ok := g.setup.Luck.Advantage(st, after, c, r); ok {
							sc.luck[i*k+(seat+r)%k] = a
						}
					}
					knownFirst = knownFirst || c == rules.KnownFirst
				}
			}
		}
	}
	return sc, knownFirst
}

// stateIndex is a count state (n, j) with no singletons folded into one number,
// (n·(pairs+1) + j)·2, which indexes the choice tables directly: the lean paths keep their count
// state in it. A pair leaving the table with j unchanged subtracts sc.pairStep(), a pair becoming
// half-known subtracts unknownStep, a half-known pair becoming unknown adds it; n = 0 is index 0.
type stateIndex int

const unknownStep stateIndex = 2

// state returns the index of (n, j).
func (sc seatChoices) state(n, j int) stateIndex { return stateIndex((n*int(sc.width) + j) * 2) }

// pairStep is the change of the index when n changes by one and j does not.
func (sc seatChoices) pairStep() stateIndex { return stateIndex(2 * sc.width) }

// counts returns the state (n, j) of an index.
func (sc seatChoices) counts(s stateIndex) (n, j int) {
	return int(s) / 2 / int(sc.width), int(s) / 2 % int(sc.width)
}

// choice returns the choice of seat's table in the state s, after a pass by the previous seat or
// not: the one place where the lean paths (perfect and limited memory) look up a table player's
// choice.
func (sc seatChoices) choice(seat int, s stateIndex, afterPass bool) rules.Choice {
	i := int(s)
	if afterPass {
		i++
	}
	return sc.c[i<<(sc.seatBits&7)+seat]
}

// choiceError reports the missing or illegal choice of seat's table in (n, j) as the general path
// does.
func (g *Game) choiceError(seat, n, j int, afterPass bool) error {
	st := rules.State{N: n, J: j}
	c, ok := g.tables[seat].Lookup(st, afterPass)
	if !ok {
		return g.moveError(seat, "its policy table has no choice for %v", st)
	}
	return g.moveError(seat, "its policy table chose %s in %v, which is not legal under pass rule %s", c, st, g.setup.Pass)
}

// perfectState is the memory of the perfect-memory path.
type perfectState struct {
	kp          []int32 // kp[f]: the remembered card of pair f, or -1 (with the list)
	kf          []bool  // kf[f]: a card of pair f is remembered (faces alone); all false between games
	indexedList         // remembered cards, in the general path's order (with the list)
}

// playPerfect plays the game on the perfect-memory path.
func (g *Game) playPerfect() error {
	if g.perfectListed {
		return g.playPerfectListed()
	}
	return g.playPerfectFaces()
}

// playPerfectFaces plays the game on the perfect-memory path when no seat can choose known-first.
func (g *Game) playPerfectFaces() error {
	o := &g.outcome
	o.Stalemate, o.Left = false, 0
	g.lucky = 0 // counted in place: a lucky match is rare
	var score [rules.MaxPlayers]int
	known := g.perfect.kf
	face := g.deal.face
	sc := g.choices
	players := g.players
	turn := int32(0)
	st := sc.state(g.setup.Pairs, g.setup.Pairs) // the count state
	pairStep := sc.pairStep()
	next := g.cards   // the unseen cards are positions 0 .. next-1; the next one flipped is next-1
	pend := int32(-1) // the face of a pair left fully known, which the mover takes first
	passes, seat := 0, 0
	var adj [rules.MaxPlayers]float64
	copy(adj[:], g.luckStart)
	var err error
game:
	for st > 0 {
		turn++
		if pend >= 0 {
			known[pend], pend = false, -1
			st -= pairStep
			score[seat]++
			passes = 0
			continue
		}
		if sc.luck != nil {
			for i, a := range sc.luckAt(seat, st, passes > 0, players) {
				adj[i] += a
			}
		}
		switch c := sc.choice(seat, st, passes > 0); c {
		case rules.Daring, rules.Safe:
			next--
			fx := face[next]
			if known[fx] {
				known[fx] = false
				st -= pairStep
				score[seat]++
				passes = 0
				continue
			}
			known[fx] = true
			st -= unknownStep
			if c == rules.Daring {
				next--
				fy := face[next]
				if fy == fx {
					known[fx] = false
					st -= pairStep
					g.lucky++
					score[seat]++
					passes = 0
					continue
				}
				if known[fy] {
					pend = fy
				} else {
					known[fy] = true
					st -= unknownStep
				}
			}
			passes = 0
		case rules.Pass:
			passes++
			if passes == players {
				o.Stalemate = true
				o.Left, _ = sc.counts(st)
				break game
			}
		default: // invalidChoice: known-first is never in these tables
			g.turn = turn
			n, j := sc.counts(st)
			err = g.choiceError(seat, n, j, passes > 0)
			break game
		}
		seat++
		if seat == players {
			seat = 0
		}
	}
	if st > 0 {
		clear(known) // a stalemate or an error left cards remembered
	}
	if err != nil {
		return err
	}
	g.turn = turn
	g.finish(score[:players], int(turn))
	copy(o.Adjusted, adj[:])
	return nil
}

// finish writes the outcome of a game played on a lean path: each seat's pairs and the turns
// (o.Stalemate and o.Left are set already).
func (g *Game) finish(score []int, turns int) {
	o := &g.outcome
	copy(o.Pairs, score)
	o.Turns = turns
	for i := range o.Share {
		o.Share[i] = o.Pairs[i]*g.players + o.Left
	}
}

// playPerfectListed plays the game on the perfect-memory path with the list of remembered cards,
// for a known-first choice.
func (g *Game) playPerfectListed() error {
	o := &g.outcome
	o.Stalemate, o.Left = false, 0
	var score [rules.MaxPlayers]int
	p := &g.perfect
	p.items = p.items[:0]
	kp := p.kp
	face := g.deal.face
	sc := g.choices
	players := g.players
	turn, lucky := int32(0), 0
	left := g.setup.Pairs
	next := int32(g.cards) // the unseen cards are positions 0 .. next-1; the next one flipped is next-1
	pend, pendB := int32(-1), int32(-1)
	passes, seat := 0, 0
	var adj [rules.MaxPlayers]float64
	copy(adj[:], g.luckStart)
	var err error
game:
	for left > 0 {
		turn++
		if pend >= 0 {
			// The pair left fully known: its earlier card first, as the general path flips it.
			p.remove(kp[pend])
			p.remove(pendB)
			kp[pend], pend = -1, -1
			score[seat]++
			left--
			passes = 0
			continue
		}
		si := sc.state(left, left-len(p.items))
		c := sc.choice(seat, si, passes > 0)
		if sc.luck != nil {
			for i, a := range sc.luckAt(seat, si, passes > 0, players) {
				adj[i] += a
			}
		}
		matched := false
		switch c {
		case rules.Pass:
			passes++
			if passes == players {
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
				kp[fy] = -1
				matched = true
			case kp[fy] >= 0:
				p.add(y)
				pend, pendB = fy, y
			default:
				p.add(y)
				kp[fy] = y
			}
		case rules.Daring, rules.Safe:
			next--
			x := next
			fx := face[x]
			if k := kp[fx]; k >= 0 {
				p.remove(k)
				kp[fx] = -1
				matched = true
				break
			}
			if c == rules.Safe {
				p.add(x)
				kp[fx] = x
				break
			}
			next--
			y := next
			switch fy := face[y]; {
			case fy == fx:
				lucky++
				matched = true
			case kp[fy] >= 0:
				p.add(x)
				kp[fx] = x
				p.add(y)
				pend, pendB = fy, y
			default:
				p.add(x)
				kp[fx] = x
				p.add(y)
				kp[fy] = y
			}
		default: // invalidChoice
			g.turn = turn
			err = g.choiceError(seat, left, left-len(p.items), passes > 0)
			break game
		}
		if matched {
			score[seat]++
			left--
			passes = 0
			continue
		}
		if c != rules.Pass {
			passes = 0
		}
		seat++
		if seat == players {
			seat = 0
		}
	}
	if left > 0 {
		copy(kp, g.noneFaces) // a stalemate or an error left cards remembered
	}
	if err != nil {
		return err
	}
	g.turn, g.lucky = turn, lucky
	g.finish(score[:players], int(turn))
	copy(o.Adjusted, adj[:])
	return nil
}
