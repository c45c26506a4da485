package exact

import "memsim/sim/rules"

// blindFlips reports whether the sweep's model has blind flips: a turn can then hand the next
// seat two pairs known whole, so the sweep keeps the values of the last three deal sizes.
func (w *sweep[T]) blindFlips() bool { return w.m.Variant.Flips == rules.FlipsBlind }

// blind enumerates the outcomes of a turn under blind flips (docs/models.md §1.7, §4.17), perfect
// memory and pairs only: k = n - j half-known pairs, j unknown pairs, u = n + j unknown cards. The
// mover names both cards before either is turned up, as the engine does (§5.2 step 6): daring an
// unknown card and another unknown one (a remembered one when no other is left); safe and
// known-first an unknown card and a remembered one, which have the same outcomes.
func (t *turn) blind(c rules.Choice) {
	n, j := t.st.N, t.st.J
	k, u := n-j, int64(n+j)
	switch {
	case c == rules.Pass:
		t.emit(EventPass, Frac{1, 1}, t.st, false, 0, 0)
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
	default:
		// A remembered card and an unknown one, uniform among the u unknown cards.
		t.emit(EventKnownThenPartner, Frac{1, u}, t.at(n-1, k-1, 0), true, 1, 0)
		t.emit(EventKnownThenKnownPartner, Frac{int64(k - 1), u}, t.at(n-1, k-1, 0), false, 0, 1)
		t.emit(EventKnownThenNew, Frac{int64(2 * j), u}, t.at(n, k+1, 0), false, 0, 0)
	}
}
