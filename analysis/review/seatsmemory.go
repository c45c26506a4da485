package review

import (
	"context"
	"fmt"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// A game of three to eight seats can be judged as a shared limited memory would have played it
// (docs/models.md §2.2, §4.4, §4.7): the state at the start of each turn is the one the memory
// holds after the record's cards, and each legal choice is valued by the optimum of every seat for
// itself under that memory. Only an lru memory of a fixed capacity is judged: it draws no random
// numbers, so the record's cards alone say what it holds. A handover-uniform, decay or
// fluctuating memory forgets (or draws its capacity) at random, and a record does not say what
// it forgot, so the review has no values for it.

// SeatsMemoryModel returns the exact model a game of three or more seats is judged in when its
// seats share memory mem: SeatsModel's, with mem; or an error wrapping ErrNoSeatsValues that says
// why there is none.
func SeatsMemoryModel(r record.Rules, mem rules.Memory) (exact.Model, error) {
	m, err := SeatsModel(r)
	if err != nil || mem.Perfect() {
		return m, err
	}
	switch {
	case mem.Fluctuation > 0:
		return m, fmt.Errorf("%w for the shared memory %s: its capacity is drawn at random every turn and a record does not say which was drawn", ErrNoSeatsValues, mem)
	case mem.Forget != rules.ForgetLRU:
		return m, fmt.Errorf("%w for the shared memory %s: it forgets at random at the hand-over and a record does not say which cards it forgot", ErrNoSeatsValues, mem)
	case r.Singletons > 0:
		return m, fmt.Errorf("%w for the shared memory %s with singletons: the exact model of lru has pairs only", ErrNoSeatsValues, mem)
	}
	if err := mem.Validate(); err != nil {
		return m, fmt.Errorf("memory %s: %w", mem, err)
	}
	m.Memory = mem
	return m, nil
}

// SeatsGameMemory reviews game g, of three to eight seats, as SeatsGame does, with the seats
// sharing memory mem: every turn that begins with no pair known whole to the memory is valued by
// the optimum of every seat for itself in the state the memory holds then. Perfect memory is
// SeatsGame.
func SeatsGameMemory[T any](ctx context.Context, f field.Field[T], g *record.Game, mem rules.Memory) (*SeatsReview[T], error) {
	return seatsGame(ctx, f, g, mem)
}

// lruView is the shared lru memory of docs/models.md §2.2 as a record's cards fill it: the cards
// it stores, in order of recency, and the pairs it recognised (kept outside the capacity until
// taken).
type lruView struct {
	capacity int
	face     []int  // the face each position showed, -1 while unseen
	gone     []bool // the card has left the table
	stored   []bool // the card is stored (one card of a half-known pair)
	paired   []bool // the card is in a recognised pair
	stamp    []int  // when a stored card was last seen
	clock    int
}

func newLRUView(cards, capacity int) *lruView {
	v := &lruView{capacity: capacity, face: make([]int, cards), gone: make([]bool, cards),
		stored: make([]bool, cards), paired: make([]bool, cards), stamp: make([]int, cards)}
	for i := range v.face {
		v.face[i] = -1
	}
	return v
}

// known reports whether the memory holds the card at pos.
func (v *lruView) known(pos int) bool { return v.stored[pos] || v.paired[pos] }

// storedPartner returns the stored card of face other than pos, or -1.
func (v *lruView) storedPartner(face, pos int) int {
	for p, s := range v.stored {
		if s && p != pos && v.face[p] == face {
			return p
		}
	}
	return -1
}

// leastRecent returns the least recently seen stored card, or -1.
func (v *lruView) leastRecent() int {
	best := -1
	for p, s := range v.stored {
		if s && (best < 0 || v.stamp[p] < v.stamp[best]) {
			best = p
		}
	}
	return best
}

// count returns the number of stored cards.
func (v *lruView) count() int {
	k := 0
	for _, s := range v.stored {
		if s {
			k++
		}
	}
	return k
}

// see turns the card at pos, showing face, face up: a stored card becomes the most recent; a new
// card whose partner is stored is recognised with it; any other new card is stored, the least
// recently seen card forgotten if the memory then holds more than its capacity. It returns the
// card forgotten, or -1.
func (v *lruView) see(pos, face int) int {
	v.face[pos] = face
	switch {
	case v.stored[pos]:
		v.clock++
		v.stamp[pos] = v.clock
		return -1
	case v.paired[pos]:
		return -1
	}
	if p := v.storedPartner(face, pos); p >= 0 {
		v.stored[p] = false
		v.paired[p], v.paired[pos] = true, true
		return -1
	}
	v.stored[pos] = true
	v.clock++
	v.stamp[pos] = v.clock
	if v.count() > v.capacity {
		old := v.leastRecent()
		v.stored[old] = false
		return old
	}
	return -1
}

// take removes the card at pos from the table (and the memory).
func (v *lruView) take(pos int) {
	v.gone[pos], v.stored[pos], v.paired[pos] = true, false, false
}

// whole reports whether the memory knows a pair whole (a recognised pair on the table).
func (v *lruView) whole() bool {
	for p, w := range v.paired {
		if w && !v.gone[p] {
			return true
		}
	}
	return false
}

// state returns the count state of the memory with pairs on the table and no pair known whole:
// each stored card is one half-known pair.
func (v *lruView) state(pairs int) rules.State {
	return rules.State{N: pairs, J: pairs - v.count()}
}

// made returns the choices a completed turn's cards fit, as the memory stood before it: a pass
// (a pass line, or two stored cards), known-first (a stored card, then one not), daring and safe
// (a card not held whose partner is stored, then that partner), safe (a card not held, then a
// card held once the first is stored) or daring (two cards not held). It changes nothing.
func (v *lruView) made(g *record.Game, turn record.Turn) []rules.Choice {
	a := g.Moves[turn.First]
	if a.Pass {
		return []rules.Choice{rules.Pass}
	}
	b := g.Moves[turn.First+1]
	if v.known(a.Pos) {
		if v.known(b.Pos) {
			return []rules.Choice{rules.Pass}
		}
		return []rules.Choice{rules.KnownFirst}
	}
	if p := v.storedPartner(a.Face, a.Pos); p >= 0 {
		if b.Pos == p {
			return []rules.Choice{rules.Daring, rules.Safe}
		}
		return nil
	}
	// a is stored, forgetting the least recent card if the memory is full.
	evicted := -1
	if v.count()+1 > v.capacity {
		evicted = v.leastRecent()
	}
	if v.known(b.Pos) && b.Pos != evicted {
		return []rules.Choice{rules.Safe}
	}
	return []rules.Choice{rules.Daring}
}

// newCard reports whether a turn turned a card the memory did not hold when it was turned.
func (v *lruView) newCard(g *record.Game, turn record.Turn) bool {
	a := g.Moves[turn.First]
	if a.Pass {
		return false
	}
	if !v.known(a.Pos) {
		return true
	}
	if turn.Moves < 2 {
		return false
	}
	return !v.known(g.Moves[turn.First+1].Pos)
}

// play applies a turn's cards: seen, and taken when they made a pair.
func (v *lruView) play(g *record.Game, turn record.Turn) {
	for i := turn.First; i < turn.First+turn.Moves; i++ {
		if mv := g.Moves[i]; !mv.Pass {
			v.see(mv.Pos, mv.Face)
		}
	}
	if turn.End == record.EndPair {
		for i := turn.First; i < turn.First+turn.Moves; i++ {
			v.take(g.Moves[i].Pos)
		}
	}
}
