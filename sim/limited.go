package sim

import (
	"math"

	"memsim/sim/rules"
)

// The limited-memory path. When every seat follows a policy table, there are no singletons and no
// log, and the seats' memories behave as one limited memory (one shared lru, handover-uniform or
// decay memory, or any number of lru memories of one capacity, private or shared: lru draws no
// random numbers, so lru memories of the same capacity always hold the same cards), the engine
// plays the game with one lean account of that memory. It plays the very same game as the
// general path: the same flips in the same order, the same random numbers drawn for the same
// purposes, the remembered cards and the cards not remembered kept in the same lists in the same
// order (the choices the rules leave open and the uniform draws depend on them).
// TestLimitedPathIsTheGeneralPath checks this game by game.
//
// What makes it lean: one memory instead of one per seat; no table of face-down positions, no
// log and no strategy to serve; the recency stamps (lru) and storing turns (handover-uniform,
// decay) kept beside the list of remembered cards, so that the scans for the least recent card
// and for the cards remembered before the turn read one small array; the choice read from the
// written-out tables (seatChoices), whose legality was checked once; and at most one pair known
// whole at a time (a turn leaves at most one, and the next turn takes it first), kept as a face
// rather than a stack.

// leanMemory is the limited-memory path's memory: the general path's memory (memory.go) for pairs
// only, with the same lists in the same order.
type leanMemory struct {
	_        [64]byte // padding against false sharing between workers
	kind     memKind
	capacity int
	decayThr uint64 // decay: a card is forgotten when the next random number >> 11 is below it

	items []int32  // remembered cards not in a recognised pair, in the general path's order
	key   []uint32 // key[i], of items[i]: when it was last seen (lru) or stored (the turn)
	at    []int32  // at[pos]: the index of pos in items, or -1
	clock uint32

	count        []uint8 // count[face]: remembered cards of that face, recognised ones included
	first, other []int32 // as in memory
	half, full   int     // pairs with one card remembered; with both (at most one)
	fullFace     int32   // the pair with both cards remembered, when full is 1

	unk       []int32 // the face-down cards not remembered, in the general path's order
	unkAt     []int32 // unkAt[pos]: the index of pos in unk, or -1
	stale     int     // cards in unk that were seen before (forgotten)
	forgotten []bool  // forgotten[pos]: pos is in unk and was seen before

	face             []int32 // the deal
	noneAt, identity []int32
	_                [64]byte
}

// limitedEligible reports whether games of g can take the limited-memory path (without a log),
// and returns the memory that stands for all of the seats' memories.
func (g *Game) limitedEligible() (rules.Memory, bool) {
	if g.setup.Singletons != 0 {
		return rules.Memory{}, false
	}
	for _, t := range g.tables {
		if t == nil {
			return rules.Memory{}, false
		}
	}
	m0 := g.setup.Players[0].Memory
	switch {
	case m0.Perfect():
		return rules.Memory{}, false
	case len(g.mems) == 1:
		return m0, true
	case m0.Forget != rules.ForgetLRU:
		return rules.Memory{}, false
	}
	for _, p := range g.setup.Players {
		if p.Memory.Forget != rules.ForgetLRU || p.Memory.Capacity != m0.Capacity {
			return rules.Memory{}, false
		}
	}
	return m0, true
}

func newLeanMemory(m rules.Memory, face []int32, cards, faces int, noneAt, identity []int32) leanMemory {
	general := newMemory(m, cards, faces, noneAt, identity)
	lm := leanMemory{
		kind:      general.kind,
		capacity:  m.Capacity,
		items:     padded[int32](cards)[:0],
		key:       padded[uint32](cards)[:0],
		at:        padded[int32](cards),
		count:     padded[uint8](faces),
		first:     padded[int32](faces),
		other:     padded[int32](faces),
		unk:       padded[int32](cards),
		unkAt:     padded[int32](cards),
		forgotten: padded[bool](cards),
		face:      face,
		noneAt:    noneAt,
		identity:  identity,
	}
	if lm.kind == memDecay {
		lm.decayThr = decayThreshold(m.Decay)
	}
	return lm
}

// decayThreshold returns the integer c such that r.float64() < q exactly when r.next()>>11 < c:
// float64 is (x>>11)/2^53, exact, so the test is x>>11 < q·2^53, and for an integer, < ceil.
func decayThreshold(q float64) uint64 { return uint64(math.Ceil(q * (1 << 53))) }

// reset empties the memory for a new game.
func (m *leanMemory) reset() {
	m.items, m.key = m.items[:0], m.key[:0]
	m.clock = 0
	m.half, m.full, m.stale = 0, 0, 0
	m.unk = m.unk[:cap(m.unk)]
	copy(m.at, m.noneAt)
	copy(m.unk, m.identity)
	copy(m.unkAt, m.identity)
	clear(m.count)
}

// leaveUnk takes pos out of unk (memory.leaveUnk).
func (m *leanMemory) leaveUnk(pos int32) {
	i := m.unkAt[pos]
	last := m.unk[len(m.unk)-1]
	m.unk[i] = last
	m.unkAt[last] = i
	m.unk = m.unk[:len(m.unk)-1]
	m.unkAt[pos] = -1
	if m.forgotten[pos] {
		m.forgotten[pos] = false
		m.stale--
	}
}

// pickUnknown is memory.pickUnknown.
func (m *leanMemory) pickUnknown(r *rng) int32 {
	if m.stale == 0 {
		return m.unk[len(m.unk)-1]
	}
	return m.unk[r.intn(len(m.unk))]
}

// list adds pos to items with its key.
func (m *leanMemory) list(pos int32, key uint32) {
	m.at[pos] = int32(len(m.items))
	m.items = append(m.items, pos)
	m.key = append(m.key, key)
}

// unlist takes pos out of items, moving the last card (and its key) into its place.
func (m *leanMemory) unlist(pos int32) {
	i := m.at[pos]
	n := len(m.items) - 1
	last := m.items[n]
	m.items[i], m.key[i] = last, m.key[n]
	m.at[last] = i
	m.items, m.key = m.items[:n], m.key[:n]
	m.at[pos] = -1
}

// drop undoes the remembering of pos, of face f (memory.drop); a card on the table goes back to
// unk as a forgotten card.
func (m *leanMemory) drop(pos, f int32, onTable bool) {
	m.count[f]--
	if m.first[f] == pos {
		m.first[f] = m.other[f]
	}
	if m.count[f] == 1 {
		m.full--
		m.half++
	} else {
		m.half--
	}
	if onTable {
		m.unkAt[pos] = int32(len(m.unk))
		m.unk = append(m.unk, pos)
		m.forgotten[pos] = true
		m.stale++
	}
}

// forget drops a remembered card that stays on the table.
func (m *leanMemory) forget(pos, f int32) {
	m.unlist(pos)
	m.drop(pos, f, true)
}

// remove drops pos, of face f, which leaves the table (memory.remove).
func (m *leanMemory) remove(pos, f int32) {
	switch {
	case m.at[pos] >= 0:
		m.unlist(pos)
		m.drop(pos, f, false)
	case m.unkAt[pos] >= 0:
		m.leaveUnk(pos)
	default: // recognised (lru)
		m.drop(pos, f, false)
	}
}

// see records that pos, of face f, which the memory does not hold, was turned face up in turn t
// (memory.see for a card not remembered).
func (m *leanMemory) see(pos, f int32, t int32) {
	m.leaveUnk(pos)
	if m.count[f] == 1 {
		// Its partner is remembered: under lru the two are recognised and kept outside the
		// capacity; otherwise both are remembered. Either way the pair is known whole.
		m.count[f] = 2
		m.other[f] = pos
		m.half--
		m.full++
		m.fullFace = f
		if m.kind == memLRU {
			if p := m.first[f]; m.at[p] >= 0 {
				m.unlist(p)
			}
		} else {
			m.list(pos, uint32(t))
		}
		return
	}
	m.count[f] = 1
	m.first[f] = pos
	m.half++
	if m.kind != memLRU {
		m.list(pos, uint32(t))
		return
	}
	m.clock++
	m.list(pos, m.clock)
	if len(m.items) > m.capacity {
		old := m.leastRecent(-1)
		m.forget(old, m.face[old])
	}
}

// touch makes items[i] the most recently seen (lru).
func (m *leanMemory) touch(pos int32) {
	if i := m.at[pos]; i >= 0 {
		m.clock++
		m.key[i] = m.clock
	}
}

// leastRecent returns the least recently seen card in items other than x, or -1 (lru).
func (m *leanMemory) leastRecent(x int32) int32 {
	best, bestKey := int32(-1), uint32(math.MaxUint32)
	for i, pos := range m.items {
		if k := m.key[i]; k < bestKey && pos != x {
			best, bestKey = pos, k
		}
	}
	return best
}

// oldestOther is memory.oldestOther.
func (m *leanMemory) oldestOther(x int32) int32 {
	if m.kind == memLRU {
		return m.leastRecent(x)
	}
	for _, pos := range m.items {
		if pos != x {
			return pos
		}
	}
	return -1
}

// handOver applies the forgetting due when the turn that began in turn t passes
// (memory.handOver), drawing from r.
func (m *leanMemory) handOver(t int32, r *rng) {
	switch m.kind {
	case memDecay:
		for i := 0; i < len(m.items); {
			if r.next()>>11 < m.decayThr {
				pos := m.items[i]
				m.forget(pos, m.face[pos]) // the last card moves into slot i
				continue
			}
			i++
		}
		if m.capacity > 0 {
			m.overflow(t, r)
		}
	case memHandover:
		m.overflow(t, r)
	}
}

// overflow is memory.overflow: cards stored before turn t are forgotten, each uniformly among
// them, until the capacity holds.
func (m *leanMemory) overflow(t int32, r *rng) {
	for len(m.items) > m.capacity {
		old := 0
		for _, k := range m.key {
			if k < uint32(t) {
				old++
			}
		}
		k := r.intn(old)
		for i, key := range m.key {
			if key < uint32(t) {
				if k == 0 {
					pos := m.items[i]
					m.forget(pos, m.face[pos])
					break
				}
				k--
			}
		}
	}
}

// knownPair returns the two cards of the pair the memory holds both of (memory.knownPair).
func (m *leanMemory) knownPair() (a, b int32, ok bool) {
	if m.full == 0 {
		return -1, -1, false
	}
	f := m.fullFace
	return m.first[f], m.other[f], true
}

// take removes the pair a, b of face f from the memory, as the general path's take does.
func (m *leanMemory) take(a, b, f int32) {
	m.remove(a, f)
	m.remove(b, f)
}

// playLimited plays the game on the limited-memory path.
func (g *Game) playLimited() error {
	o := &g.outcome
	o.Stalemate, o.Left = false, 0
	g.lucky = 0
	var score [rules.MaxPlayers]int
	m := &g.lean
	m.reset()
	face := g.deal.face
	sc := g.choices
	r := &g.play
	players := g.players
	maxTurns := int32(g.maxTurns)
	turn := int32(0)
	left := g.setup.Pairs
	passes, seat := 0, 0
	var err error
game:
	for left > 0 {
		if turn >= maxTurns {
			g.turn = turn
			err = g.moveError(seat, "the game did not end within %d turns", g.maxTurns)
			break
		}
		turn++
		if a, b, ok := m.knownPair(); ok {
			m.take(a, b, face[a])
			left--
			score[seat]++
			passes = 0
			continue
		}
		j := left - m.half
		matched, passed := false, false
		switch c := sc.choice(seat, sc.state(left, j), passes > 0); c {
		case rules.Pass:
			passed = true
		case rules.KnownFirst:
			k := m.items[0] // every remembered card is a half-known pair's: the pair known whole was taken
			if m.kind == memLRU {
				m.touch(k)
			}
			y := m.pickUnknown(r)
			fy := face[y]
			m.see(y, fy, turn)
			if fy == face[k] {
				m.take(k, y, fy)
				matched = true
			}
		case rules.Daring, rules.Safe:
			x := m.pickUnknown(r)
			fx := face[x]
			if m.count[fx] == 1 {
				// Its partner is remembered: the mover flips it and takes the pair.
				p := m.first[fx]
				m.see(x, fx, turn)
				m.take(p, x, fx)
				matched = true
				break
			}
			m.see(x, fx, turn)
			if c == rules.Safe {
				k := m.oldestOther(x)
				if k < 0 {
					g.turn = turn
					err = g.moveError(seat, "safe move with no remembered card in %v", rules.State{N: left, J: j})
					break game
				}
				if m.kind == memLRU {
					m.touch(k)
				}
				break
			}
			y := m.pickUnknown(r)
			fy := face[y]
			m.see(y, fy, turn)
			if fy == fx {
				g.lucky++
				m.take(x, y, fx)
				matched = true
			}
		default: // invalidChoice
			g.turn = turn
			err = g.choiceError(seat, left, j, passes > 0)
			break game
		}
		if matched {
			left--
			score[seat]++
			passes = 0
			continue
		}
		m.handOver(turn, r)
		if !passed {
			passes = 0
		} else if passes++; passes == players {
			o.Stalemate, o.Left = true, left
			break
		}
		seat++
		if seat == players {
			seat = 0
		}
	}
	if left > 0 {
		clear(m.forgotten) // a stalemate or an error left forgotten cards on the table
	}
	if err != nil {
		return err
	}
	g.turn = turn
	g.finish(score[:players], int(turn))
	return nil
}
