package sim

import (
	"math"
	"math/bits"

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
// log and no strategy to serve; the memory's arrays of a fixed size, reached without loading a
// slice header; the lru recency order as a linked list (the least recent card at its head, no
// stamps to scan); handover-uniform's old cards found without a scan (they are the first ones
// of the list); decay's numbers for a whole hand-over drawn in a register; a pair taken without
// storing the card just flipped when that leaves the same lists; at most one pair known whole at
// a time (a turn leaves at most one, and the next turn takes it first), kept as a face; the
// choice read from the written-out tables (seatChoices), whose legality was checked once; and
// the common steps of a turn written as small methods the compiler inlines.

// leanMemory is the limited-memory path's memory: the general path's memory (memory.go) for pairs
// only, with the same lists in the same order. Its arrays have a fixed size, MaxCards, so that
// they are reached from the memory's address without loading a slice's header again after every
// store; only the first entries are used (and touched).
type leanMemory struct {
	_        [64]byte // padding against false sharing between workers
	kind     memKind
	capacity int
	decayThr uint64 // decay: a card is forgotten when the next random number >> 11 is below it
	// wyrand's constants (wyIncrement, wyMix's), in fields so that decayDraws gets them as
	// arguments in registers rather than rebuilding them in every round of its loop
	wyInc, wyMixC uint64
	face          []int32

	nItems, nUnk int
	half, full   int   // pairs with one card remembered; with both (at most one)
	fullFace     int32 // the pair with both cards remembered, when full is 1
	stale        int   // cards in unk that were seen before (forgotten)

	// items: the remembered cards not in a recognised pair, in the general path's order, each
	// with the turn in which it was stored (handover-uniform, decay).
	items [MaxCards]leanItem
	// unk: the face-down cards not remembered, in the general path's order, each with its face
	// (read at once when the card is drawn).
	unk   [MaxCards]leanUnknown
	card  [MaxCards + 1]leanCard // by position; card[MaxCards] heads the lru recency order
	faces [MaxCards / 2]leanFace
	_     [64]byte
}

type leanItem struct {
	pos, face int32
	turn      int32
}

type leanUnknown struct {
	pos, face int32
	forgotten bool // the card was seen before
}

// leanCard is what the memory keeps of a card in items; it is not read otherwise, so a new game
// need not clear it.
type leanCard struct {
	at int32 // the index of the card in items
	// lru: the cards of items from the least to the most recently seen, linked through older and
	// newer; card[lruHead] stands for both ends.
	older, newer int32
}

// leanFace is what the memory keeps of one pair.
type leanFace struct {
	first, other int32 // as in memory
	count        uint8 // remembered cards of that face, recognised ones included
}

// lruHead is the index of the end of the lru recency order in leanMemory.card.
const lruHead = MaxCards

// limitedEligible reports whether games of g can take the limited-memory path (without a log),
// and returns the memory that stands for all of the seats' memories.
func (g *Game) limitedEligible() (rules.Memory, bool) {
	if g.setup.Singletons != 0 {
		return rules.Memory{}, false
	}
	if !g.leanTables() {
		return rules.Memory{}, false
	}
	for _, p := range g.setup.Players {
		if p.Memory.Fluctuation > 0 {
			return rules.Memory{}, false // each turn's capacity is drawn on the general path
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

func newLeanMemory(m rules.Memory, face []int32) *leanMemory {
	lm := &leanMemory{kind: memKindOf(m), capacity: m.Capacity, face: face, wyInc: wyIncrement, wyMixC: wyMixConstant}
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
	cards := len(m.face)
	m.nItems, m.nUnk = 0, cards
	m.half, m.full, m.stale = 0, 0, 0
	for pos := range cards {
		m.unk[pos] = leanUnknown{pos: int32(pos), face: m.face[pos]}
	}
	m.card[lruHead] = leanCard{older: lruHead, newer: lruHead}
	for f := range cards / 2 {
		m.faces[f].count = 0
	}
}

// unknownIndex draws the index in unk of a card the memory does not hold, as memory.pickUnknown
// does: the last one while none of them was seen before, otherwise a uniform one.
func (m *leanMemory) unknownIndex(r *rng) int {
	if m.stale == 0 {
		return m.nUnk - 1
	}
	return r.intn(m.nUnk)
}

// flipUnknown takes the card at index i of unk out of it, as memory.leaveUnk does (but from the
// index drawn, so that no card needs its index in unk), and returns it and its face.
func (m *leanMemory) flipUnknown(i int) (pos, face int32) {
	u := m.unk[i]
	m.nUnk--
	m.unk[i] = m.unk[m.nUnk]
	m.stale -= int(b2u(u.forgotten))
	return u.pos, u.face
}

// list adds pos, of face f, to items, stored in turn t.
func (m *leanMemory) list(pos, f, t int32) {
	m.card[pos].at = int32(m.nItems)
	m.items[m.nItems] = leanItem{pos: pos, face: f, turn: t}
	m.nItems++
}

// unlist takes pos out of items, moving the last card into its place, and under lru out of the
// recency order.
func (m *leanMemory) unlist(pos int32) {
	m.unlistItem(pos)
	if m.kind == memLRU {
		m.unlink(pos)
	}
}

// unlistItem takes pos out of items, moving the last card into its place.
func (m *leanMemory) unlistItem(pos int32) {
	i := m.card[pos].at
	m.nItems--
	last := m.items[m.nItems]
	m.items[i] = last
	m.card[last.pos].at = i
}

// unlink takes pos out of the recency order (lru).
func (m *leanMemory) unlink(pos int32) {
	c := &m.card[pos]
	m.card[c.older].newer = c.newer
	m.card[c.newer].older = c.older
}

// link makes pos the most recently seen card (lru).
func (m *leanMemory) link(pos int32) {
	h := &m.card[lruHead]
	last := h.older
	m.card[last].newer = pos
	c := &m.card[pos]
	c.older, c.newer = last, lruHead
	h.older = pos
}

// forget drops items[i], a remembered card that stays on the table (memory.forget:
// memory.unlist, then memory.drop): the last card of items takes its place, and it goes back to
// unk as a forgotten card.
func (m *leanMemory) forget(i int) {
	it := m.items[i]
	m.nItems--
	last := m.items[m.nItems]
	m.items[i] = last
	m.card[last.pos].at = int32(i)
	if m.kind == memLRU {
		m.unlink(it.pos)
	}
	fc := &m.faces[it.face]
	fc.count--
	if fc.first == it.pos {
		fc.first = fc.other
	}
	if fc.count == 1 {
		m.full--
		m.half++
	} else {
		m.half--
	}
	m.unk[m.nUnk] = leanUnknown{pos: it.pos, face: it.face, forgotten: true}
	m.nUnk++
	m.stale++
}

// remember stores pos, of face f, a card seen in turn t whose partner is not remembered, out of
// unk already (memory.see and memory.remember, up to the lru recency and capacity, which
// playLimited applies after it with link and evict). playLimited writes memory.see out at its
// call sites as flipUnknown, then remember (a new card) or knownWhole (its partner is remembered),
// so that the compiler inlines the common steps.
func (m *leanMemory) remember(pos, f int32, t int32) {
	fc := &m.faces[f]
	fc.count = 1
	fc.first = pos
	m.half++
	m.list(pos, f, t)
}

// evict forgets the least recently seen card (lru).
func (m *leanMemory) evict() { m.forget(int(m.card[m.card[lruHead].newer].at)) }

// knownWhole is memory.see for pos, of face f, seen in turn t (out of unk already), when its
// partner is remembered: under lru the two are recognised and kept outside the capacity;
// otherwise both are remembered. Either way the pair is known whole.
func (m *leanMemory) knownWhole(pos, f int32, t int32) {
	fc := &m.faces[f]
	fc.count = 2
	fc.other = pos
	m.half--
	m.full++
	m.fullFace = f
	if m.kind == memLRU {
		m.unlist(fc.first) // in items: a card whose partner is not remembered always is
	} else {
		m.list(pos, f, t)
	}
}

// touch makes pos, a card in items, the most recently seen (lru).
func (m *leanMemory) touch(pos int32) {
	if m.card[lruHead].older != pos {
		m.unlink(pos)
		m.link(pos)
	}
}

// oldestOther is memory.oldestOther: a remembered card other than x, the least recently seen
// under lru, else the first of items.
func (m *leanMemory) oldestOther(x int32) int32 {
	if m.kind == memLRU {
		best := m.card[lruHead].newer
		if best == x {
			best = m.card[best].newer
		}
		if best == lruHead {
			return -1
		}
		return best
	}
	for i := range m.nItems {
		if pos := m.items[i].pos; pos != x {
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
		m.decayAll(r)
		if m.capacity > 0 {
			m.overflow(t, r)
		}
	case memHandover:
		m.overflowFresh(t, r)
	}
}

// decayAll forgets each card of items with probability q, as memory.handOver does: it examines
// items[0], items[1], ... drawing one number each, and a forgotten card's place is taken by the
// last card, examined next. Every card is examined once, so the draws are made first (with up to
// 64 cards, as the bits of a mask, the generator's state in a register), then the cards
// forgotten in the same order.
func (m *leanMemory) decayAll(r *rng) {
	n := m.nItems
	if n > 64 {
		for i := 0; i < m.nItems; {
			if r.next()>>11 < m.decayThr {
				m.forget(i) // the last card moves into slot i
				continue
			}
			i++
		}
		return
	}
	var hit uint64 // bit 63-k: the k-th card examined is forgotten
	if m.decayThr >= 1<<53 {
		// q = 1: every card is forgotten; the n numbers are drawn all the same.
		r.s += uint64(n) * wyIncrement
		hit = ^uint64(0) << (64 - n)
	} else {
		hit, r.s = decayDraws(r.s, m.decayThr<<11, n, m.wyInc, m.wyMixC)
	}
	for i := 0; hit != 0; hit <<= 1 {
		skip := bits.LeadingZeros64(hit) // cards kept, each followed by the next one
		i += skip
		hit <<= skip
		m.forget(i) // the last card moves into slot i
	}
}

// decayDraws draws n numbers (n <= 64) as n calls of next from the state s would, and returns
// the mask of those below thr (bit 63-k for the k-th) and the state after them: x>>11 < t is
// x < t<<11 for t < 2^53, the borrow of x - t<<11. wyrand's constants come in as arguments
// (inc, mixc), so that the loop keeps them in registers rather than rebuilding them in every
// round: about 18 instructions a number, against 21.
func decayDraws(s, thr uint64, n int, inc, mixc uint64) (hit, after uint64) {
	for range n {
		s += inc
		hi, lo := bits.Mul64(s, s^mixc)
		_, borrow := bits.Sub64(hi^lo, thr, 0)
		hit = hit<<1 | borrow
	}
	return hit << (64 - n), s
}

// overflowFresh is overflow under handover-uniform forgetting, where the cards stored in turn t
// are the last ones of items: a turn that stores a card takes none out of items after it (cards
// leave items when they are taken, and a turn that takes a pair does not hand over, or when they
// are forgotten, which happens only here). The old cards are then items[0 .. old-1]; a turn
// stores at most two cards, and the memory held no more than its capacity before it, so at most
// as many cards are forgotten as were stored, and the card that takes a forgotten card's place is
// always a new one: the second draw skips it. Other layouts, which do not arise, go to overflow.
func (m *leanMemory) overflowFresh(t int32, r *rng) {
	n := m.nItems
	if n <= m.capacity {
		return
	}
	fresh := 0 // cards stored in turn t
	for fresh < 2 && fresh < n && m.items[n-1-fresh].turn == t {
		fresh++
	}
	if n-m.capacity > fresh {
		m.overflow(t, r)
		return
	}
	k := r.intn(n - fresh)
	m.forget(k) // a new card takes its place
	if m.nItems > m.capacity {
		k2 := r.intn(n - fresh - 1)
		if k2 >= k {
			k2++
		}
		m.forget(k2)
	}
}

// overflow is memory.overflow: cards stored before turn t are forgotten, each uniformly among
// them, until the capacity holds. With at most 64 cards in items, the old ones are the set bits
// of a mask, kept up to date as cards leave; otherwise they are counted anew for each card.
func (m *leanMemory) overflow(t int32, r *rng) {
	if m.nItems <= m.capacity {
		return
	}
	if m.nItems > 64 {
		m.overflowScan(t, r)
		return
	}
	var old uint64
	for i := range m.nItems {
		old |= b2u(m.items[i].turn < t) << i
	}
	for m.nItems > m.capacity {
		k := r.intn(bits.OnesCount64(old))
		sel := old
		for ; k > 0; k-- {
			sel &= sel - 1
		}
		i := bits.TrailingZeros64(sel)
		last := m.nItems - 1
		m.forget(i) // the last card moves into slot i
		old = old&^(1<<i) | (old>>last&1)<<i
		old &^= 1 << last
	}
}

// overflowScan is overflow for more than 64 cards.
func (m *leanMemory) overflowScan(t int32, r *rng) {
	for m.nItems > m.capacity {
		old := 0
		for i := range m.nItems {
			if m.items[i].turn < t {
				old++
			}
		}
		k := r.intn(old)
		for i := range m.nItems {
			if m.items[i].turn < t {
				if k == 0 {
					m.forget(i)
					break
				}
				k--
			}
		}
	}
}

// b2u is 1 for true and 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// takeKnown removes the pair the memory holds both cards of (full is 1), as the general
// path's take of knownPair's two cards does (memory.knownPair, memory.remove): under lru both
// are recognised, otherwise both are in items and leave it first card first.
func (m *leanMemory) takeKnown() {
	fc := &m.faces[m.fullFace]
	if m.kind != memLRU {
		m.unlist(fc.first)
		m.unlist(fc.other)
	}
	fc.count = 0
	m.full--
}

// pairOff removes the remembered card p, in items, and its partner x, just flipped, not
// remembered and out of unk already (the last card flipped, or the mover's first card when p is
// the second). It leaves items, unk and the counts as the general path leaves them after seeing x
// (which stores it, or recognises the pair) and taking the pair: x, stored last, leaves items
// right after p has left it, which is as if it had never been stored.
func (m *leanMemory) pairOff(p, f int32) {
	m.unlistItem(p)
	m.faces[f].count = 0
	m.half--
}

// playLimited plays the game on the limited-memory path.
func (g *Game) playLimited() error {
	o := &g.outcome
	o.Stalemate, o.Left = false, 0
	g.lucky = 0
	var score [rules.MaxPlayers]int
	m := g.lean
	m.reset()
	copy(g.outcome.Adjusted, g.luckStart)
	// Few locals live across the loop: the loop calls out (to forget, hand over, ...), and Go
	// keeps no register across a call, so every local the loop holds is reloaded at its head.
	// The rest is read where it is used.
	r := &g.play
	turn := int32(0)
	left := g.setup.Pairs
	passes, seat := 0, 0
	var err error
game:
	for left > 0 {
		if turn >= int32(g.maxTurns) {
			g.turn = turn
			err = g.moveError(seat, "the game did not end within %d turns", g.maxTurns)
			break
		}
		turn++
		if m.full > 0 {
			m.takeKnown()
			left--
			score[seat]++
			passes = 0
			continue
		}
		j := left - m.half
		si := g.choices.state(left, j)
		c := g.choices.choice(seat, si, passes > 0)
		if g.luck != luckNone {
			for i, a := range g.choices.luckAt(seat, si, passes > 0, g.players) {
				g.outcome.Adjusted[i] += a
			}
		}
		first := int32(-1) // daring and known-first: the first card, whose partner the second may be
		switch c {
		case rules.Daring, rules.Safe:
			x, fx := m.flipUnknown(m.unknownIndex(r))
			if fc := &m.faces[fx]; fc.count == 1 {
				// Its partner is remembered: the mover flips it and takes the pair.
				m.pairOff(fc.first, fx)
				if m.kind == memLRU {
					m.unlink(fc.first)
				}
				left--
				score[seat]++
				passes = 0
				continue
			}
			m.remember(x, fx, turn)
			if m.kind == memLRU {
				m.link(x)
				if m.nItems > m.capacity {
					m.evict()
				}
			}
			if c == rules.Daring {
				first = x
				break
			}
			k := m.oldestOther(x)
			if k < 0 {
				g.turn = turn
				err = g.moveError(seat, "safe move with no remembered card in %v", rules.State{N: left, J: j})
				break game
			}
			if m.kind == memLRU {
				m.touch(k)
			}
		case rules.KnownFirst:
			first = m.items[0].pos // every remembered card is a half-known pair's: the pair known whole was taken
			if m.kind == memLRU {
				m.touch(first)
			}
		case rules.Pass:
		default: // invalidChoice
			g.turn = turn
			err = g.choiceError(seat, left, j, passes > 0)
			break game
		}
		if first >= 0 {
			// The second card of daring and known-first, not remembered.
			y, fy := m.flipUnknown(m.unknownIndex(r))
			switch {
			case fy == m.face[first]:
				if c == rules.Daring {
					g.lucky++
				}
				m.pairOff(first, fy)
				if m.kind == memLRU {
					m.unlink(first)
				}
				left--
				score[seat]++
				passes = 0
				continue
			case m.faces[fy].count == 1:
				m.knownWhole(y, fy, turn)
			default:
				m.remember(y, fy, turn)
				if m.kind == memLRU {
					m.link(y)
					if m.nItems > m.capacity {
						m.evict()
					}
				}
			}
		}
		if m.kind != memLRU { // lru forgets as it stores
			m.handOver(turn, r)
		}
		if c != rules.Pass {
			passes = 0
		} else if passes++; passes == g.players {
			o.Stalemate, o.Left = true, left
			break
		}
		seat++
		if seat == g.players {
			seat = 0
		}
	}
	if err != nil {
		return err
	}
	g.turn = turn
	g.finish(score[:g.players], int(turn))
	return nil
}
