package exact

import "memsim/sim/rules"

// blindFlips reports whether the sweep's model has blind flips: a turn can then hand the next
// seat two pairs known whole, so the sweep keeps the values of the last three deal sizes.
func (w *sweep[T]) blindFlips() bool { return w.m.Variant.Flips == rules.FlipsBlind }

// blind enumerates the outcomes of a turn under blind flips (docs/models.md §1.7, §4.17), pairs
// only, with perfect memory or a shared memory of fixed capacity under lru or handover-uniform
// forgetting: k = n - j half-known pairs, j unknown pairs, u = n + j unknown cards. The mover
// names both cards before either is turned up, as the engine does (§5.2 step 6): daring an
// unknown card and another unknown one (a remembered one when no other is left); safe an unknown
// card and a remembered one. Known-first is played as with sequential flips (its first card is a
// remembered one), and safe has the same outcomes: under lru the unknown card is seen first and,
// when new, stored at once, which may evict the named remembered card; that card is then seen again
// and stored, evicting another, which leaves the same count as known-first.
func (t *turn) blind(c rules.Choice) {
	n, j := t.st.N, t.st.J
	k, u := n-j, int64(n+j)
	if t.st.S > 0 {
		t.blindSingles(c) // blindsingles.go
		return
	}
	switch {
	case c == rules.Pass:
		t.emit(EventPass, Frac{1, 1}, t.st, false, 0, 0)
	case c == rules.Daring && u >= 2 && t.lru():
		t.blindDaringLRU()
	case c == rules.Daring && u >= 2 && t.handover():
		t.blindDaringHandover()
	case c == rules.Daring && u >= 2:
		// The two unknown cards are uniform among the u(u-1)/2 pairs of unknown cards.
		pairs := u * (u - 1) / 2
		t.emit(EventLucky, Frac{int64(j), pairs}, t.at(n-1, k, 0), true, 1, 0)
		t.emit(EventTwoKnownPartners, Frac{int64(k * (k - 1) / 2), pairs}, t.at(n-2, k-2, 0), false, 0, 2)
		t.emit(EventNewThenKnownPartner, Frac{int64(2 * k * j), pairs}, t.at(n-1, k, 0), false, 0, 1)
		t.emit(EventTwoNew, Frac{int64(2 * j * (j - 1)), pairs}, t.at(n, k+2, 0), false, 0, 0)
	case c == rules.Daring:
		// One unknown card left (n = 1, j = 0): the second card named is the remembered one, its
		// partner.
		t.emit(EventFirstHit, Frac{1, 1}, t.at(n-1, k-1, 0), true, 1, 0)
	case !t.m.Memory.Perfect():
		t.knownFirst()
	default:
		// A remembered card and an unknown one, uniform among the u unknown cards.
		t.emit(EventKnownThenPartner, Frac{1, u}, t.at(n-1, k-1, 0), true, 1, 0)
		t.emit(EventKnownThenKnownPartner, Frac{int64(k - 1), u}, t.at(n-1, k-1, 0), false, 0, 1)
		t.emit(EventKnownThenNew, Frac{int64(2 * j), u}, t.at(n, k+1, 0), false, 0, 0)
	}
}

// blindDaringLRU is a blind daring turn under lru, u >= 2: the first unknown card x is seen
// before the second y, and y was named among the other u - 1 unknown cards before x was seen.
// A recognised card is not stored (its pair is kept outside the capacity), so a first card that
// is a remembered card's partner leaves room for the second; a new first card is stored and, with
// the memory full (k = m), evicts the least recently seen card, whose partner y may then be: y is
// then a new card too, stored, and evicts another.
func (t *turn) blindDaringLRU() {
	n, j := t.st.N, t.st.J
	k, u := n-j, int64(n+j)
	m := t.m.Memory.Capacity
	ordered := u * (u - 1)
	evict := 0
	if k+1 > m {
		evict = 1
	}
	// x a remembered card's partner (recognised), then y another one or a new card.
	t.emit(EventTwoKnownPartners, Frac{int64(k * (k - 1)), ordered}, t.at(n-2, k-2, 0), false, 0, 2)
	t.emit(EventNewThenKnownPartner, Frac{int64(2 * k * j), ordered}, t.at(n-1, k, 0), false, 0, 1)
	// x new (stored, evicting one card when the memory was full), then y.
	newX := int64(2 * j)
	t.emit(EventLucky, Frac{newX, ordered}, t.at(n-1, k-evict, 0), true, 1, 0)
	t.emit(EventNewThenKnownPartner, Frac{newX * int64(k-evict), ordered}, t.at(n-1, k-evict, 0), false, 0, 1)
	// y the partner of the card x evicted: new again, stored, and it evicts another.
	t.emit(EventTwoNew, Frac{newX * int64(evict), ordered}, t.at(n, m, 0), false, 0, 0)
	t.emit(EventTwoNew, Frac{newX * int64(2*(j-1)), ordered}, t.at(n, min(k+2, m), 0), false, 0, 0)
}

// blindDaringHandover is a blind daring turn under handover-uniform, u >= 2: nothing is forgotten
// during the turn, so both cards are remembered as with perfect memory, and the hand-over then
// forgets the cards beyond the capacity uniformly among the k cards known before the turn. A
// forgotten old card of a pair known whole leaves that pair half-known; the next seat takes the
// pairs still known whole first.
func (t *turn) blindDaringHandover() {
	n, j := t.st.N, t.st.J
	k, u := n-j, int64(n+j)
	pairs := u * (u - 1) / 2
	t.emit(EventLucky, Frac{int64(j), pairs}, t.at(n-1, k, 0), true, 1, 0)
	t.handOver(EventNewThenKnownPartner, Frac{int64(2 * k * j), pairs}, n, k, k-1, 1, 0)
	t.handOver(EventTwoNew, Frac{int64(2 * j * (j - 1)), pairs}, n, k+2, k, 0, 0)
	p := Frac{int64(k * (k - 1) / 2), pairs}
	if p.Num == 0 {
		return
	}
	// Two pairs known whole: 2 old cards of the k among k + 2 remembered cards.
	excess := k + 2 - t.m.Memory.Capacity
	if excess <= 0 {
		t.emit(EventTwoKnownPartners, p, t.at(n-2, k-2, 0), false, 0, 2)
		return
	}
	// The excess cards forgotten are a uniform subset of the k old cards; s of them are the old
	// cards of the two pairs known whole (hypergeometric).
	total := binom(k, excess)
	for s := 0; s <= min(2, excess); s++ {
		ways := binom(2, s) * binom(k-2, excess-s)
		half := (k - 2 - (excess - s)) + s
		t.emit(EventTwoKnownPartners, p.Mul(Frac{ways, total}), t.at(n-2+s, half, 0), false, 0, 2-s)
	}
}

// binom returns the binomial coefficient C(a, b), 0 outside 0 <= b <= a.
func binom(a, b int) int64 {
	if b < 0 || b > a {
		return 0
	}
	r := int64(1)
	for i := 1; i <= b; i++ {
		r = r * int64(a-b+i) / int64(i)
	}
	return r
}
