package exact

// Two seats with private lru memories of different capacities (docs/models.md §4.15).
//
// Both memories see every flip. The smaller memory holds the most recently seen cards of the
// larger one's list, except that when the larger memory recognises a pair whose remembered card
// the smaller one has forgotten, the smaller one stores the card just seen (the larger keeps the
// pair outside its capacity until it takes it, at its next turn). So a position at the start of a
// turn is (n, h, k, pending): n pairs on the table; h cards stored by the larger memory, each of
// a different pair with its partner not remembered; the k most recent of them are what the smaller
// memory stores; and, with the smaller seat to move, pending says that the larger memory also
// holds a recognised pair of which the smaller one stores one card, its most recently seen.
//
// The outcomes of a turn are not written as formulas: each position is laid out as a table of
// representative cards, the turn is played on it by the lru rules of §2.2 (the engine's), one
// representative card per class of exchangeable cards, and the position reached is read off the
// table and checked against the description above.

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Unequal is a two-seat game in which each seat has its own lru memory, of capacity
// Capacity[seat] (at least 2; they may differ), or a perfect memory (Capacity[seat] 0), and plays
// a policy read from its own memory's count state: Table[seat] when not nil, otherwise
// Policy[seat], a fixed policy or optimal (the optimum of a shared memory like the seat's, as the
// engine's table players play it). Seat 0 moves first. A perfect memory is an lru memory that
// never fills (docs/models.md §4.15): with pairs only, one of capacity max(pairs, 2) or the other
// seat's, whichever is larger. The choice set must not hold known-first: the card known-first
// flips is the first of its memory's list, which decides what the other memory sees and is not a
// function of the counts.
type Unequal struct {
	Pass     rules.PassRule
	Choices  rules.ChoiceSet
	Capacity [2]int
	Policy   [2]rules.Policy
	Table    [2]*rules.ChoiceTable
}

// UnequalResult is the value of an Unequal game from the start of a deal.
type UnequalResult[T any] struct {
	Pairs int
	// ExpectedPairs is each seat's expected number of pairs, seat 0 first.
	ExpectedPairs [2]T
	// ExpectedLead is seat 0's expected pairs minus seat 1's.
	ExpectedLead T
}

// Validate reports whether the game has an exact model.
func (u Unequal) Validate() error {
	if err := u.Choices.Validate(); err != nil {
		return err
	}
	if u.Choices.Has(rules.KnownFirst) {
		return fmt.Errorf("choice set %s: unequal memories have no exact model with known-first (its card is the first of the mover's list, not a function of the counts); use --choices daring,safe or daring,safe,pass", u.Choices)
	}
	for s, c := range u.Capacity {
		if c < 0 || c == 1 {
			return fmt.Errorf("seat %d: lru capacity %d: must be at least 2 (or 0 for perfect memory)", s, c)
		}
		if u.Table[s] != nil {
			continue
		}
		switch p := u.Policy[s]; {
		case p.Fixed():
			if err := p.CheckChoices(u.Choices); err != nil {
				return fmt.Errorf("seat %d: %w", s, err)
			}
		case p == rules.PolicyOptimal:
		default:
			return fmt.Errorf("seat %d: policy %s: unequal memories are solved for optimal, safe, daring and parity", s, p)
		}
	}
	return nil
}

// sharedModel returns the shared model of a seat's memory (lru of its capacity, or perfect
// memory): the model its optimal table is the optimum of.
func (u Unequal) sharedModel(seat int) Model {
	m := Model{Pass: u.Pass, Choices: u.Choices}
	if c := u.Capacity[seat]; c > 0 {
		m.Memory = rules.Memory{Capacity: c, Forget: rules.ForgetLRU, Scope: rules.ScopeShared}
	}
	return m
}

// capacities returns the lru capacities the seats' memories play as on a deal of pairs pairs: a
// perfect memory's is max(pairs, 2) or the other seat's, whichever is larger (an lru memory that
// never fills: with pairs only it stores at most one card per pair).
func (u Unequal) capacities(pairs int) [2]int {
	c := u.Capacity
	for s := range c {
		if c[s] == 0 {
			c[s] = max(pairs, 2, u.Capacity[1-s])
		}
	}
	return c
}

// memoryName names the memory of capacity c: "perfect memory" (0) or "lru(c)".
func memoryName(c int) string {
	if c == 0 {
		return "perfect memory"
	}
	return fmt.Sprintf("lru(%d)", c)
}

// seatTables returns each seat's policy as a table covering deals of up to pairs pairs, computed
// as the engine computes its players' tables: in exact rationals up to RationalLimit pairs (so
// that a float64 solve reads the same choices where two are nearly equal), in f beyond.
func seatTables[T any](ctx context.Context, f field.Field[T], u Unequal, pairs int) ([2]*rules.ChoiceTable, error) {
	if _, exact := f.Exact(f.FromInt(0)); !exact && pairs <= RationalLimit {
		return seatTables(ctx, field.Rat{}, u, pairs)
	}
	var tabs [2]*rules.ChoiceTable
	for s := range 2 {
		if u.Table[s] != nil {
			tabs[s] = u.Table[s]
			continue
		}
		mu := Lineup{Players: 2, Policy: u.Policy[s], Opponent: rules.PolicyOptimal}
		t, err := PolicyTable(ctx, f, u.sharedModel(s), mu, pairs)
		if err != nil {
			return tabs, fmt.Errorf("seat %d: %w", s, err)
		}
		tabs[s] = t
	}
	return tabs, nil
}

// EvaluateUnequal returns the value of game u on a deal of pairs pairs, seat 0 to move first.
func EvaluateUnequal[T any](ctx context.Context, f field.Field[T], u Unequal, pairs int) (UnequalResult[T], error) {
	if err := u.Validate(); err != nil {
		return UnequalResult[T]{}, err
	}
	if pairs < 1 {
		return UnequalResult[T]{}, fmt.Errorf("pairs %d: must be at least 1", pairs)
	}
	if p := UnequalPositions(u, pairs); p > MaxUnequalPositions {
		return UnequalResult[T]{}, fmt.Errorf("%d pairs with %s and %s: %.0f positions, at most %d", pairs, memoryName(u.Capacity[0]), memoryName(u.Capacity[1]), p, MaxUnequalPositions)
	}
	tabs, err := seatTables(ctx, f, u, pairs)
	if err != nil {
		return UnequalResult[T]{}, err
	}
	s := newUSolver(f, u, tabs, pairs)
	if err := s.run(ctx); err != nil {
		return UnequalResult[T]{}, err
	}
	lead := s.value(ukey{n: pairs}, 0, 0)
	n := f.FromInt(int64(pairs))
	p0 := pairsFromLead(f, n, lead)
	return UnequalResult[T]{Pairs: pairs, ExpectedLead: lead, ExpectedPairs: [2]T{p0, f.Sub(n, p0)}}, nil
}

// ukey is a position of the unequal game at the start of a turn, without the mover (see the
// comment at the top of this file).
type ukey struct {
	n, h, k int
	pending bool
}

// uOutcome is one way a turn can end: the position the next turn starts in, whether the mover
// moves again, and the pairs each seat took on the way (the mover's in its turn, the next
// mover's first, of pairs it remembers whole); its probability is num/den.
type uOutcome struct {
	next     ukey
	cont     bool
	gain     [2]int
	num, den int64
}

// uSolver computes the values of every position of an unequal game, by increasing n.
type uSolver[T any] struct {
	f      field.Field[T]
	u      Unequal
	tabs   [2]*rules.ChoiceTable
	caps   [2]int // the seats' lru capacities (Unequal.capacities)
	larger int    // the seat of the larger memory (seat 0 when they are equal)
	pairs  int
	hMax   int
	kMax   int
	// vals[i] holds the lead of seat 0 (its pairs minus seat 1's, from here on) in position i with
	// seat t to move, after a pass or not, at index 4*i + 2*t + flag; set[i] says it is computed.
	vals []T
	set  []bool
}

func newUSolver[T any](f field.Field[T], u Unequal, tabs [2]*rules.ChoiceTable, pairs int) *uSolver[T] {
	caps := u.capacities(pairs)
	larger := 0
	if caps[1] > caps[0] {
		larger = 1
	}
	s := &uSolver[T]{f: f, u: u, tabs: tabs, caps: caps, larger: larger, pairs: pairs,
		hMax: min(caps[larger], pairs), kMax: min(caps[1-larger], pairs)}
	size := (pairs + 1) * (s.hMax + 1) * (s.kMax + 1) * 2
	s.vals = make([]T, 4*size)
	s.set = make([]bool, size)
	return s
}

func (s *uSolver[T]) index(k ukey) int {
	i := ((k.n*(s.hMax+1)+k.h)*(s.kMax+1) + k.k) * 2
	if k.pending {
		i++
	}
	return i
}

func (s *uSolver[T]) value(k ukey, mover, flag int) T {
	return s.vals[4*s.index(k)+2*mover+flag]
}

// equal reports whether the two memories have the same capacity, so that they always hold the
// same cards.
func (s *uSolver[T]) equal() bool { return s.caps[0] == s.caps[1] }

// seatState returns the count state seat t's memory sees in position k (docs/models.md §2.5).
func (s *uSolver[T]) seatState(k ukey, t int) rules.State {
	known := k.h
	if t != s.larger {
		known = k.k
		if k.pending {
			known++
		}
	}
	return rules.State{N: k.n, J: k.n - known}
}

// choice returns seat t's choice in position k, after a pass by the other seat or not.
func (s *uSolver[T]) choice(k ukey, t int, afterPass bool) (rules.Choice, error) {
	st := s.seatState(k, t)
	c, ok := s.tabs[t].Lookup(st, afterPass)
	switch {
	case !ok:
		return 0, fmt.Errorf("seat %d: its table has no choice for %v", t, st)
	case !s.u.Choices.Has(c) || !rules.Legal(st, c, s.u.Pass):
		return 0, fmt.Errorf("seat %d: its table chose %s in %v, which is not open to it", t, c, st)
	}
	return c, nil
}

// run computes every position with at most s.pairs pairs: at each n the pending positions first
// (their turns all take a pair), then the others by decreasing h and k (a turn that takes no pair
// never lowers them).
func (s *uSolver[T]) run(ctx context.Context) error {
	done := ctx.Done()
	for n := 0; n <= s.pairs; n++ {
		select {
		case <-done:
			return fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
		default:
		}
		for h := 0; h <= min(n-1, s.hMax) && !s.equal(); h++ {
			for k := 0; k <= min(h, s.caps[1-s.larger]-1); k++ {
				if err := s.position(ukey{n: n, h: h, k: k, pending: true}); err != nil {
					return err
				}
			}
		}
		for h := min(n, s.hMax); h >= 0; h-- {
			for k := min(h, s.kMax); k >= 0; k-- {
				if s.equal() && k != h {
					continue // equal memories hold the same cards
				}
				if err := s.position(ukey{n: n, h: h, k: k}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// position computes the values of position k with either seat to move (only the smaller
// memory's seat moves in a pending position).
func (s *uSolver[T]) position(k ukey) error {
	f := s.f
	i := s.index(k)
	zero := f.FromInt(0)
	if k.n == 0 {
		for j := range 4 {
			s.vals[4*i+j] = zero
		}
		s.set[i] = true
		return nil
	}
	cs := make([]T, 4)
	bs := make([]T, 4)
	to := make([]int, 4)
	for t := range 2 {
		for flag := range 2 {
			node := 2*t + flag
			cs[node], bs[node], to[node] = zero, zero, -1
			if k.pending && (t == s.larger || flag == 1) {
				continue // never reached: filled with zero
			}
			c, err := s.choice(k, t, flag == 1)
			if err != nil {
				return err
			}
			if c == rules.Pass {
				if flag == 0 && !k.pending {
					bs[node], to[node] = f.FromInt(1), 2*(1-t)+1
				}
				if k.pending {
					// The larger memory's seat takes the pending pair, then moves.
					outs, err := s.passPending(k, t)
					if err != nil {
						return err
					}
					cs[node], err = s.sum(k, t, outs, nil)
					if err != nil {
						return err
					}
				}
				continue
			}
			outs, err := s.outcomes(k, t, c)
			if err != nil {
				return err
			}
			var b T
			cs[node], err = s.sum(k, t, outs, &b)
			if err != nil {
				return err
			}
			if !f.IsZero(b) {
				bs[node], to[node] = b, 2*(1-t)
			}
		}
	}
	sp := space[T, T]{add: f.Add, scale: f.Mul, mirror: func(a T) T { return a }, identity: true}
	x := solveLocal(f, sp, cs, bs, to)
	copy(s.vals[4*i:4*i+4], x)
	s.set[i] = true
	return nil
}

// sum returns the value collected from outcomes outs of a turn of seat t in position k that leave
// it, and in *b (when not nil) the probability of coming back to k with the other seat to move.
func (s *uSolver[T]) sum(k ukey, t int, outs []uOutcome, b *T) (T, error) {
	f := s.f
	a := f.FromInt(0)
	if b != nil {
		*b = f.FromInt(0)
	}
	for _, o := range outs {
		p := f.FromFrac(o.num, o.den)
		if !o.cont && o.next == k && b != nil {
			*b = f.Add(*b, p)
			continue
		}
		j := s.index(o.next)
		if !s.set[j] {
			return a, fmt.Errorf("unequal lru: %+v reached from %+v before it was solved", o.next, k)
		}
		mover := 1 - t
		if o.cont {
			mover = t
		}
		v := f.Add(s.vals[4*j+2*mover], f.FromInt(int64(o.gain[0]-o.gain[1])))
		a = f.Add(a, f.Mul(p, v))
	}
	return a, nil
}

// passPending returns the outcome of a pass by the smaller memory's seat in a pending position.
func (s *uSolver[T]) passPending(k ukey, t int) ([]uOutcome, error) {
	return s.endTurn(s.layOut(k), t, nil, 1, 1)
}

// outcomes returns the outcomes of a turn of seat t in position k with choice c (daring or safe),
// over the common denominator u·u·(u-1), u the cards seat t does not remember: the second card is
// drawn among u - 1 cards, or u when storing the first card made the mover forget one.
func (s *uSolver[T]) outcomes(k ukey, t int, c rules.Choice) ([]uOutcome, error) {
	w := s.layOut(k)
	first := w.classes(t, -1)
	u := int64(0)
	for _, cl := range first {
		u += int64(cl.size)
	}
	if u == 0 {
		return nil, fmt.Errorf("unequal lru: seat %d remembers every card in %+v", t, k)
	}
	den := u * u * max(u-1, 1)
	var outs []uOutcome
	var err error
	for _, cl := range first {
		w1 := w.clone()
		x := cl.card
		w1.see(x)
		num := int64(cl.size) * u * max(u-1, 1)
		if w1.mem[t].pended(x) {
			// Its partner is remembered: the mover flips it and takes the pair.
			w1.see(x ^ 1)
			w1.take(x)
			if outs, err = s.moveOn(w1, t, outs, num, den, 1); err != nil {
				return nil, err
			}
			continue
		}
		if c == rules.Safe {
			y := w1.mem[t].leastRecent(x)
			if y < 0 {
				return nil, fmt.Errorf("unequal lru: safe with no remembered card in %+v", k)
			}
			w1.see(y)
			if outs, err = s.endTurn(w1, t, outs, num, den); err != nil {
				return nil, err
			}
			continue
		}
		second := w1.classes(t, x)
		u2 := int64(0)
		for _, cl2 := range second {
			u2 += int64(cl2.size)
		}
		if u2 == 0 || (u*max(u-1, 1))%u2 != 0 {
			return nil, fmt.Errorf("unequal lru: %d cards for the second flip after %d in %+v", u2, u, k)
		}
		for _, cl2 := range second {
			w2 := w1.clone()
			y := cl2.card
			w2.see(y)
			num2 := int64(cl.size) * int64(cl2.size) * (u * max(u-1, 1) / u2)
			if y == x^1 {
				w2.take(x)
				outs, err = s.moveOn(w2, t, outs, num2, den, 1)
			} else {
				outs, err = s.endTurn(w2, t, outs, num2, den)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return outs, nil
}

// moveOn adds the outcome of a turn in which seat t took gain pairs and moves again: first it
// takes every pair it remembers whole.
func (s *uSolver[T]) moveOn(w *uworld, t int, outs []uOutcome, num, den int64, gain int) ([]uOutcome, error) {
	var g [2]int
	g[t] = gain + w.takeKnown(t)
	k, err := s.read(w, t)
	if err != nil {
		return nil, err
	}
	return addOutcome(outs, uOutcome{next: k, cont: true, gain: g, num: num, den: den}), nil
}

// endTurn adds the outcome of a turn of seat t that ends without a pair: the other seat first
// takes every pair it remembers whole.
func (s *uSolver[T]) endTurn(w *uworld, t int, outs []uOutcome, num, den int64) ([]uOutcome, error) {
	var g [2]int
	g[1-t] = w.takeKnown(1 - t)
	k, err := s.read(w, 1-t)
	if err != nil {
		return nil, err
	}
	return addOutcome(outs, uOutcome{next: k, gain: g, num: num, den: den}), nil
}

func addOutcome(outs []uOutcome, o uOutcome) []uOutcome {
	for i := range outs {
		if outs[i].next == o.next && outs[i].cont == o.cont && outs[i].gain == o.gain {
			outs[i].num += o.num
			return outs
		}
	}
	return append(outs, o)
}

// layOut returns a table of representative cards in position k: pair i owns cards 2i and 2i+1.
// Pairs 0 .. k-1 have card 2i stored by both memories, pairs k .. h-1 by the larger one only
// (older than the others), then come the unknown pairs, and a pending pair last: its card 2i is
// the smaller memory's most recent, both its cards are the larger memory's recognised pair.
func (s *uSolver[T]) layOut(k ukey) *uworld {
	w := &uworld{present: make([]bool, 2*k.n)}
	for i := range w.present {
		w.present[i] = true
	}
	largeM := &w.mem[s.larger]
	small := &w.mem[1-s.larger]
	largeM.capacity, small.capacity = s.caps[s.larger], s.caps[1-s.larger]
	for i := k.k; i < k.h; i++ {
		largeM.list = append(largeM.list, 2*i)
	}
	for i := 0; i < k.k; i++ {
		largeM.list = append(largeM.list, 2*i)
		small.list = append(small.list, 2*i)
	}
	if k.pending {
		p := k.n - 1
		small.list = append(small.list, 2*p)
		largeM.pend = append(largeM.pend, 2*p+1, 2*p)
	}
	return w
}

// read returns the position of w with seat t to move, after t has taken the pairs it remembers
// whole, checking that w is one the model describes.
func (s *uSolver[T]) read(w *uworld, t int) (ukey, error) {
	largeM, small := &w.mem[s.larger], &w.mem[1-s.larger]
	n := 0
	for c := 0; c < len(w.present); c += 2 {
		if w.present[c] {
			n++
		}
	}
	k := ukey{n: n, h: len(largeM.list)}
	bad := func(why string) (ukey, error) {
		return ukey{}, fmt.Errorf("unequal lru: a position outside the model (%s): larger %v (recognised %v), smaller %v (recognised %v)",
			why, largeM.list, largeM.pend, small.list, small.pend)
	}
	if len(small.pend) > 0 {
		return bad("the smaller memory knows a pair whole")
	}
	list := small.list
	switch {
	case len(largeM.pend) == 0:
	case len(largeM.pend) == 2 && t != s.larger && len(list) > 0 && list[len(list)-1]^1 == largeM.pend[0]:
		k.pending = true
		list = list[:len(list)-1]
	default:
		return bad("a recognised pair the larger memory has not taken")
	}
	k.k = len(list)
	if k.k > k.h {
		return bad("the smaller memory stores more")
	}
	top := largeM.list[k.h-k.k:]
	for i := range list {
		if list[i] != top[i] {
			return bad("the smaller memory's cards are not the larger one's most recent")
		}
	}
	if s.equal() && (k.k != k.h || k.pending) {
		return bad("equal memories differ")
	}
	return k, nil
}

// ulru is an lru memory at card level (docs/models.md §2.2): stored cards, least recently seen
// first, and recognised cards, each pair's older card first, kept outside the capacity.
type ulru struct {
	capacity int
	list     []int
	pend     []int
}

func (m *ulru) listed(c int) int {
	for i, x := range m.list {
		if x == c {
			return i
		}
	}
	return -1
}

func (m *ulru) pended(c int) bool {
	for _, x := range m.pend {
		if x == c {
			return true
		}
	}
	return false
}

func (m *ulru) holds(c int) bool { return m.listed(c) >= 0 || m.pended(c) }

// see is what the memory does when card c is turned face up.
func (m *ulru) see(c int) {
	if i := m.listed(c); i >= 0 {
		m.list = append(append(m.list[:i:i], m.list[i+1:]...), c)
		return
	}
	if m.pended(c) {
		return
	}
	if i := m.listed(c ^ 1); i >= 0 {
		m.list = append(m.list[:i:i], m.list[i+1:]...)
		m.pend = append(m.pend, c^1, c)
		return
	}
	m.list = append(m.list, c)
	if len(m.list) > m.capacity {
		m.list = m.list[1:]
	}
}

// drop forgets c, which leaves the table.
func (m *ulru) drop(c int) {
	if i := m.listed(c); i >= 0 {
		m.list = append(m.list[:i:i], m.list[i+1:]...)
	}
	for i, x := range m.pend {
		if x == c {
			m.pend = append(m.pend[:i:i], m.pend[i+1:]...)
			return
		}
	}
}

// leastRecent returns the least recently seen stored card other than x, or -1.
func (m *ulru) leastRecent(x int) int {
	for _, c := range m.list {
		if c != x {
			return c
		}
	}
	return -1
}

// uworld is a table and the two seats' memories.
type uworld struct {
	present []bool
	mem     [2]ulru
}

func (w *uworld) clone() *uworld {
	c := &uworld{present: append([]bool(nil), w.present...)}
	for i, m := range w.mem {
		c.mem[i] = ulru{capacity: m.capacity, list: append([]int(nil), m.list...), pend: append([]int(nil), m.pend...)}
	}
	return c
}

func (w *uworld) see(c int) {
	for i := range w.mem {
		w.mem[i].see(c)
	}
}

// take removes the pair of card c from the table and from both memories.
func (w *uworld) take(c int) {
	for _, x := range [2]int{c, c ^ 1} {
		w.present[x] = false
		for i := range w.mem {
			w.mem[i].drop(x)
		}
	}
}

// takeKnown has seat t take every pair its memory holds whole, the last recognised first, each
// flipped older card first, as the engine does; it returns the pairs taken.
func (w *uworld) takeKnown(t int) int {
	g := 0
	for m := &w.mem[t]; len(m.pend) > 0; g++ {
		a, b := m.pend[len(m.pend)-2], m.pend[len(m.pend)-1]
		w.see(a)
		w.see(b)
		w.take(a)
	}
	return g
}

// uclass is a class of exchangeable cards for a flip: its size and a representative card.
type uclass struct {
	card, size int
}

// classes groups the face-down cards seat t does not remember (other than the face-up card up)
// by what each memory holds of the card and of its partner, and whether the partner is face up.
func (w *uworld) classes(t, up int) []uclass {
	var keys []int
	var out []uclass
	for c, on := range w.present {
		if !on || c == up || w.mem[t].holds(c) {
			continue
		}
		key := w.status(0, c) + 3*w.status(1, c) + 9*w.status(0, c^1) + 27*w.status(1, c^1)
		if c^1 == up {
			key += 81
		}
		found := false
		for i, k := range keys {
			if k == key {
				out[i].size++
				found = true
				break
			}
		}
		if !found {
			keys = append(keys, key)
			out = append(out, uclass{card: c, size: 1})
		}
	}
	return out
}

// status is 0 when memory i does not hold c, 1 when it stores it, 2 when it holds it recognised.
func (w *uworld) status(i, c int) int {
	switch {
	case w.mem[i].listed(c) >= 0:
		return 1
	case w.mem[i].pended(c):
		return 2
	}
	return 0
}

// MaxUnequalPositions bounds the positions of an unequal game the solver sweeps: their values are
// kept for every n.
const MaxUnequalPositions = 50_000_000

// UnequalPositions returns the number of positions of game u on pairs pairs that the solver
// sweeps: (n + 1)(h + 1)(k + 1) twice (with a pending pair or not), h and k bounded by the larger
// and the smaller capacity (a perfect memory's is the deal's pairs) and by the deal.
func UnequalPositions(u Unequal, pairs int) float64 {
	c := u.capacities(pairs)
	a, b := max(c[0], c[1]), min(c[0], c[1])
	return float64(pairs+1) * float64(min(a, pairs)+1) * float64(min(b, pairs)+1) * 2
}

// EstimateUnequal returns the cost of EvaluateUnequal for game u on pairs pairs, in exact
// rationals or float64: each position plays its turns on a table of about n + a cards, and in
// exact rationals the numbers grow with n (calibrated on deals of 30 to 150 pairs, capacities 7
// to 25).
func EstimateUnequal(u Unequal, pairs int, exactArithmetic bool) Cost {
	pos := UnequalPositions(u, pairs)
	c := u.capacities(pairs)
	a := float64(max(c[0], c[1]))
	perUnit, perPos := 6.0, 200.0
	if exactArithmetic {
		perUnit, perPos = 10+float64(pairs)/5, 4000+40*float64(pairs)
	}
	return Cost{Ops: pos * (float64(pairs) + min(a, float64(pairs))) * perUnit, Bytes: 3e7 + pos*perPos}
}
