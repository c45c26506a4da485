package sim

import (
	"math"

	"memsim/sim/rules"
)

type memKind uint8

const (
	memPerfect memKind = iota
	memLRU
	memHandover
	memDecay
)

// memory is what one player remembers (or, for a shared memory, what all its players remember),
// kept card by card as docs/models.md §2 says. Every flip is seen by every memory.
//
// Remembered cards are in list, in no particular order, except cards recognised under lru: a card
// seen while its partner is remembered is not stored; the two are kept as a recognised pair,
// outside the capacity, until they are taken. Under lru and perfect memory every listed card
// carries the time it was last seen, so that the least recently seen one is known: lru forgets
// it, and both flip it where the rules leave a remembered card open (oldestOther).
type memory struct {
	_        [64]byte // padding against false sharing between workers
	kind     memKind
	capacity int // 0: no limit; the capacity of the current turn when it fluctuates
	decay    float64
	// A fluctuating capacity (docs/models.md §2.2): the base capacity, σ (0: fixed), and the
	// memory's own generator of the capacity of each turn.
	base, sigma int
	fl          rng

	listed indexedList // remembered cards not in a recognised pair, in no particular order
	stamp  []uint32    // stamp[pos]: when pos was last seen (lru, perfect), from clock
	clock  uint32
	pend   []bool  // pend[pos]: pos is in a recognised pair (lru)
	count  []uint8 // count[face]: remembered cards of that face, recognised ones included
	// slots[face·copies : face·copies+count[face]]: the remembered cards of that face, the one
	// remembered longest first
	slots  []int32
	copies int
	since  []int32 // since[pos]: the turn in which pos was last stored

	half    int // pair faces on the table with exactly one card remembered
	full    int // pair faces on the table with at least two cards remembered (a known pair)
	singles int // remembered singletons

	fullFaces []int32 // faces that became fully remembered, checked when read

	// unk lists the face-down cards on the table that this memory does not hold; unkAt[pos] is
	// the index of pos in unk, or -1. stale counts the cards in unk that were seen before (and
	// forgotten): while it is 0, every card in unk is unseen, and their faces are exchangeable.
	unk   []int32
	unkAt []int32
	stale int

	// Starting values, copied in by reset.
	noneAt, identity []int32
	_                [64]byte
}

// memKindOf returns the kind of memory m.
func memKindOf(m rules.Memory) memKind {
	switch m.Forget {
	case rules.ForgetLRU:
		return memLRU
	case rules.ForgetHandoverUniform:
		return memHandover
	case rules.ForgetDecay:
		return memDecay
	}
	return memPerfect
}

// newMemory returns an empty memory for deals of the given numbers of cards and faces, with
// copies cards of each pair face.
func newMemory(m rules.Memory, cards, faces, copies int, noneAt, identity []int32) memory {
	return memory{
		kind:      memKindOf(m),
		capacity:  m.Capacity,
		base:      m.Capacity,
		sigma:     m.Fluctuation,
		decay:     m.Decay,
		listed:    indexedList{items: padded[int32](cards)[:0], at: padded[int32](cards)},
		stamp:     padded[uint32](cards),
		pend:      padded[bool](cards),
		count:     padded[uint8](faces),
		slots:     padded[int32](faces * copies),
		copies:    copies,
		since:     padded[int32](cards),
		fullFaces: padded[int32](faces)[:0],
		unk:       padded[int32](cards),
		unkAt:     padded[int32](cards),
		noneAt:    noneAt,
		identity:  identity,
	}
}

// reset empties the memory for a new game on d.
func (m *memory) reset() {
	m.listed.items = m.listed.items[:0]
	m.fullFaces = m.fullFaces[:0]
	m.half, m.full, m.singles, m.stale = 0, 0, 0, 0
	m.clock = 0
	m.capacity = m.base
	m.unk = m.unk[:cap(m.unk)]
	copy(m.listed.at, m.noneAt)
	copy(m.unk, m.identity)
	copy(m.unkAt, m.identity)
	clear(m.pend)
	clear(m.count)
}

func (m *memory) known(pos int32) bool { return m.listed.at[pos] >= 0 || m.pend[pos] }

// leaveUnk takes pos out of unk.
func (m *memory) leaveUnk(d *deal, pos int32) {
	i := m.unkAt[pos]
	last := m.unk[len(m.unk)-1]
	m.unk[i] = last
	m.unkAt[last] = i
	m.unk = m.unk[:len(m.unk)-1]
	m.unkAt[pos] = -1
	if d.seen[pos] {
		m.stale--
	}
}

// remember counts pos as remembered and takes it out of unk.
func (m *memory) remember(d *deal, pos int32) {
	m.leaveUnk(d, pos)
	f := d.face[pos]
	m.slots[int(f)*m.copies+int(m.count[f])] = pos
	m.count[f]++
	if f >= d.pairs {
		m.singles++
		return
	}
	switch m.count[f] {
	case 1:
		m.half++
	case 2:
		m.half--
		m.full++
		m.fullFaces = append(m.fullFaces, f)
	}
}

// drop undoes remember: pos is no longer remembered. It goes back to unk if it is on the table.
func (m *memory) drop(d *deal, pos int32, onTable bool) {
	f := d.face[pos]
	base, last := int(f)*m.copies, int(f)*m.copies+int(m.count[f])-1
	for i := base; i < last; i++ {
		if m.slots[i] == pos {
			copy(m.slots[i:last], m.slots[i+1:last+1]) // keep the order of remembering
			break
		}
	}
	m.count[f]--
	switch {
	case f >= d.pairs:
		m.singles--
	case m.count[f] == 1:
		m.full--
		m.half++
	case m.count[f] == 0:
		m.half--
	}
	if onTable {
		m.unkAt[pos] = int32(len(m.unk))
		m.unk = append(m.unk, pos)
		m.stale++ // it has been seen: that is how it was remembered
	}
}

// indexedList is a set of positions kept in a slice, with every member's index in it, so that a
// member is removed in constant time by moving the last one into its place.
type indexedList struct {
	items []int32
	at    []int32 // at[pos]: index of pos in items (for a member)
}

func (l *indexedList) add(pos int32) {
	l.at[pos] = int32(len(l.items))
	l.items = append(l.items, pos)
}

func (l *indexedList) remove(pos int32) {
	i := l.at[pos]
	last := l.items[len(l.items)-1]
	l.items[i] = last
	l.at[last] = i
	l.items = l.items[:len(l.items)-1]
}

// unlist takes pos out of list, marking it as not listed (the memory reads at to know whether it
// holds a card).
func (m *memory) unlist(pos int32) {
	m.listed.remove(pos)
	m.listed.at[pos] = -1
}

// byRecency reports whether the memory keeps the recency of its cards: lru, which forgets by it,
// and perfect memory, which is lru without a limit (docs/models.md §2.1).
func (m *memory) byRecency() bool { return m.kind == memLRU || m.kind == memPerfect }

// touch makes a remembered card the most recently seen (lru, perfect).
func (m *memory) touch(pos int32) {
	m.clock++
	m.stamp[pos] = m.clock
}

// leastRecent returns the least recently seen card in list other than x, or -1.
func (m *memory) leastRecent(x int32) int32 {
	best := int32(-1)
	for _, pos := range m.listed.items {
		if pos != x && (best < 0 || m.stamp[pos] < m.stamp[best]) {
			best = pos
		}
	}
	return best
}

// see records that pos was turned face up in turn t.
func (m *memory) see(d *deal, pos int32, t int32) {
	if m.known(pos) {
		if m.byRecency() && m.listed.at[pos] >= 0 {
			m.touch(pos)
		}
		return
	}
	if m.kind == memLRU {
		if p, ok := m.partnerOf(d, pos); ok {
			// Recognised: not stored; the pair is kept until it is taken.
			if m.listed.at[p] >= 0 {
				m.unlist(p)
			}
			m.pend[p], m.pend[pos] = true, true
			m.remember(d, pos)
			return
		}
	}
	m.remember(d, pos)
	m.listed.add(pos)
	m.since[pos] = t
	switch m.kind {
	case memPerfect:
		m.touch(pos)
	case memLRU:
		m.touch(pos)
		if len(m.listed.items) > m.capacity {
			m.forget(d, m.leastRecent(-1))
		}
	}
}

// forget drops a remembered card that stays on the table.
func (m *memory) forget(d *deal, pos int32) {
	m.unlist(pos)
	m.drop(d, pos, true)
}

// remove drops pos, which leaves the table.
func (m *memory) remove(d *deal, pos int32) {
	switch {
	case m.listed.at[pos] >= 0:
		m.unlist(pos)
		m.drop(d, pos, false)
	case m.pend[pos]:
		m.pend[pos] = false
		m.drop(d, pos, false)
	default:
		m.leaveUnk(d, pos)
	}
}

// handOver applies the forgetting due when the turn that began in turn t passes.
func (m *memory) handOver(d *deal, t int32, r *rng) {
	switch m.kind {
	case memDecay:
		for i := 0; i < len(m.listed.items); {
			if r.float64() < m.decay {
				m.forget(d, m.listed.items[i]) // the last card moves into slot i
				continue
			}
			i++
		}
		if m.capacity > 0 {
			m.overflow(d, t, r)
		}
	case memHandover:
		m.overflow(d, t, r)
	}
}

// overflow forgets cards one at a time, each chosen uniformly among the cards remembered before
// turn t began, until the capacity holds.
func (m *memory) overflow(d *deal, t int32, r *rng) {
	for len(m.listed.items) > m.capacity {
		old := 0
		for _, pos := range m.listed.items {
			if m.since[pos] < t {
				old++
			}
		}
		k := r.intn(old)
		for _, pos := range m.listed.items {
			if m.since[pos] < t {
				if k == 0 {
					m.forget(d, pos)
					break
				}
				k--
			}
		}
	}
}

// fluctuate draws the capacity of a turn, max(2, base + d) with d uniform on -σ .. σ, from the
// memory's own generator. Under lru the least recently seen cards beyond it are forgotten at once;
// under handover-uniform the capacity holds from the next hand-over.
func (m *memory) fluctuate(d *deal) {
	switch e := m.fl.intn(2*m.sigma+1) - m.sigma; {
	case e > 0 && m.base > math.MaxInt-e:
		m.capacity = math.MaxInt // more than any deal: nothing is forgotten
	default:
		m.capacity = max(2, m.base+e)
	}
	if m.kind == memLRU {
		for len(m.listed.items) > m.capacity {
			m.forget(d, m.leastRecent(-1))
		}
	}
}

// fluctuationStream is the stream of the generator of memory i's capacities in a game whose play
// stream is play: derived from the play stream (what the match is, docs/models.md §5.5) and the
// memory's place among the game's memories (which follows from its seats' definitions).
func fluctuationStream(play uint64, i int) uint64 {
	return mix64(play ^ (uint64(i+1) * 0xd1b54a32d192ed03))
}

// knownPair returns the two cards of a pair the memory holds both of.
func (m *memory) knownPair(d *deal) (a, b int32, ok bool) {
	for m.full > 0 {
		f := m.fullFaces[len(m.fullFaces)-1]
		if m.count[f] >= 2 {
			base := int(f) * m.copies
			return m.slots[base], m.slots[base+1], true
		}
		m.fullFaces = m.fullFaces[:len(m.fullFaces)-1]
	}
	return -1, -1, false
}

// oldestOther returns a remembered card other than x for the mover to flip as a known card: the
// least recently seen one under lru and perfect memory, the first one listed otherwise; -1 if
// there is none.
func (m *memory) oldestOther(x int32) int32 {
	if m.byRecency() {
		return m.leastRecent(x)
	}
	return m.firstOther(x)
}

// namedOther returns the remembered card other than x that a blind safe move names second: the
// least recently seen one under lru, the first one listed otherwise (perfect memory included); -1
// if there is none.
func (m *memory) namedOther(x int32) int32 {
	if m.kind == memLRU {
		return m.leastRecent(x)
	}
	return m.firstOther(x)
}

// firstOther returns the first remembered card listed other than x, or -1.
func (m *memory) firstOther(x int32) int32 {
	for _, pos := range m.listed.items {
		if pos != x {
			return pos
		}
	}
	return -1
}

// halfKnownCard returns a remembered card whose partner is not remembered, preferring pair cards
// to singletons, or -1.
func (m *memory) halfKnownCard(d *deal) int32 {
	single := int32(-1)
	for _, pos := range m.listed.items {
		if d.face[pos] >= d.pairs {
			if single < 0 {
				single = pos
			}
			continue
		}
		if m.count[d.face[pos]] == 1 {
			return pos
		}
	}
	return single
}

// partnerOf returns a remembered card other than pos of the same face as pos, a card on the
// table: the one remembered longest.
func (m *memory) partnerOf(d *deal, pos int32) (int32, bool) {
	f := d.face[pos]
	if f >= d.pairs || m.count[f] == 0 {
		return -1, false
	}
	base := int(f) * m.copies
	if p := m.slots[base]; p != pos {
		return p, true
	}
	if m.count[f] >= 2 {
		return m.slots[base+1], true
	}
	return -1, false
}

// pickUnknown returns a face-down card on the table this memory does not hold, uniformly at
// random. While no such card has been seen before, their faces are exchangeable (the deal is a
// uniform shuffle and nothing has been learnt of them), so the last one is as good a uniform
// choice as any and costs no random number.
func (m *memory) pickUnknown(r *rng) int32 {
	if m.stale == 0 {
		return m.unk[len(m.unk)-1]
	}
	return m.unk[r.intn(len(m.unk))]
}

// pickUnknownBut returns a face-down card on the table this memory does not hold, other than x,
// uniformly at random, or -1 if there is none; x may or may not be such a card. Like pickUnknown,
// it takes the last such card while their faces are exchangeable.
func (m *memory) pickUnknownBut(x int32, r *rng) int32 {
	n := len(m.unk)
	if x < 0 || m.unkAt[x] < 0 {
		if n == 0 {
			return -1
		}
		return m.pickUnknown(r)
	}
	if n < 2 {
		return -1
	}
	if m.stale == 0 {
		if y := m.unk[n-1]; y != x {
			return y
		}
		return m.unk[n-2]
	}
	y := m.unk[r.intn(n-1)]
	if y == x {
		return m.unk[n-1]
	}
	return y
}

// state returns the count state of the exact models as this memory sees the table. With more
// than two copies of a face, j counts the pairs on the table less the faces with a remembered
// card, so that n - j + s - f is one per face with a remembered card plus the seen singletons.
func (m *memory) state(pairs, singletons int) rules.State {
	return rules.State{N: pairs, J: pairs - m.half - m.full, S: singletons, F: singletons - m.singles}
}
