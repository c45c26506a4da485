package exact

import (
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Decay forgetting with singletons (docs/models.md §4.14): the count state (n, j, s, f) still
// describes the game, for the remembered cards are of two kinds, a half-known pair's lone card
// (n - j of them) and a seen singleton (s - f), each forgotten independently with probability q
// at a hand-over; with a capacity the cards beyond it are forgotten uniformly among the survivors
// remembered before the turn, of both kinds. The states of one size form a row (decayrow.go),
// numbered by decayIndex: known pair cards, then seen singletons.

// decayIndex numbers the states of a row of the decay model: k = n - j known pair cards, and
// with s singletons g = s - f seen ones, k*(s+1) + g. Without singletons it is k.
func decayIndex(st rules.State) int {
	k := st.N - st.J
	if st.S == 0 {
		return k
	}
	return k*(st.S+1) + st.S - st.F
}

// validateDecaySingles reports whether a decay model with singletons has an exact solution: it
// has one under every pass rule, sequential flips, with or without a turn limit, for one to eight
// players, those that play to win included (two seats: the lead sweep, decaywin.go; three or more:
// selfishwindecay.go).
func (m Model) validateDecaySingles() error {
	return nil
}

// decaySingleBucket is one result of a hand-over with singletons: half-known pairs and seen
// singletons afterwards, whether the pair left fully known survived (and is taken by the next
// seat), and the probability.
type decaySingleBucket[T any] struct {
	pairs, singles int
	full           bool
	prob           T
}

// binomial returns C(n, k) in the field, as a product of small fractions (exact in an exact field).
func binomial[T any](f field.Field[T], n, k int) T {
	v := f.FromInt(1)
	if k < 0 || k > n {
		return f.FromInt(0)
	}
	for i := 1; i <= k; i++ {
		v = f.Mul(v, f.FromFrac(int64(n-k+i), int64(i)))
	}
	return v
}

// singleBuckets returns the results of a hand-over with old and fresh pair cards (as buckets
// does), oldS seen singletons remembered from before the turn and freshS seen in it. Each card is
// forgotten independently with probability q; with a capacity the excess is then forgotten
// uniformly among the old survivors of both kinds (the full pair's old card included). Buckets
// with the same result are merged; their probabilities sum to one.
func (h *decayHand[T]) singleBuckets(old, fresh, oldS, freshS int, full bool) []decaySingleBucket[T] {
	key := [5]int{old, fresh, oldS, freshS, 0}
	if full {
		key[4] = 1
	}
	if h.singleCache == nil {
		h.singleCache = map[[5]int][]decaySingleBucket[T]{}
	}
	if b, ok := h.singleCache[key]; ok {
		return b
	}
	f := h.f
	type res struct {
		pairs, singles int
		full           bool
	}
	acc := map[res]T{}
	var order []res
	add := func(r res, p T) {
		if f.IsZero(p) {
			return
		}
		if v, ok := acc[r]; ok {
			acc[r] = f.Add(v, p)
			return
		}
		acc[r] = p
		order = append(order, r)
	}
	bit := func(v int) T {
		if v == 1 {
			return h.keep
		}
		return h.q
	}
	fullBits := 1
	if full {
		fullBits = 2
	}
	for a := 0; a <= old; a++ {
		for b := 0; b <= fresh; b++ {
			for as := 0; as <= oldS; as++ {
				for bs := 0; bs <= freshS; bs++ {
					pab := f.Mul(f.Mul(h.pmf[old][a], h.pmf[fresh][b]), f.Mul(h.pmf[oldS][as], h.pmf[freshS][bs]))
					for y := 0; y < fullBits; y++ { // the full pair's old card survives
						for z := 0; z < fullBits; z++ { // its card seen this turn survives
							p := pab
							if full {
								p = f.Mul(p, f.Mul(bit(y), bit(z)))
							}
							if f.IsZero(p) {
								continue
							}
							h.settleSingles(a, y, b, z, as, bs, p, func(pairs, singles int, isFull bool, p T) {
								add(res{pairs, singles, isFull}, p)
							})
						}
					}
				}
			}
		}
	}
	out := make([]decaySingleBucket[T], 0, len(order))
	for _, r := range order {
		out = append(out, decaySingleBucket[T]{pairs: r.pairs, singles: r.singles, full: r.full, prob: acc[r]})
	}
	h.singleCache[key] = out
	return out
}

// settleSingles applies the capacity to a memory holding a old pair-card survivors besides the
// full pair's old card (y: whether it survived), b fresh pair-card survivors besides the full
// pair's new card (z), as old and bs fresh singleton survivors, emitting the results with
// probability p. The x cards beyond the capacity are forgotten uniformly among the a + y + as old
// survivors: h singletons among them, and the full pair's old card or not, hypergeometrically.
func (h *decayHand[T]) settleSingles(a, y, b, z, as, bs int, p T, emit func(pairs, singles int, full bool, p T)) {
	f := h.f
	result := func(a, y, as int, p T) {
		if y == 1 && z == 1 {
			emit(a+b, as+bs, true, p)
			return
		}
		emit(a+y+b+z, as+bs, false, p)
	}
	total, oldN := a+y+b+z+as+bs, a+y+as
	if h.capacity == 0 || total <= h.capacity {
		result(a, y, as, p)
		return
	}
	// At most 2 cards are fresh and the capacity is at least 2, so x <= oldN.
	x := total - h.capacity
	all := binomial(f, oldN, x)
	for hs := 0; hs <= min(as, x); hs++ {
		ws := binomial(f, as, hs)
		// The full pair's old card kept (or absent): x - hs of the a other pair cards forgotten.
		if kept := binomial(f, a, x-hs); !f.IsZero(kept) {
			result(a-(x-hs), y, as-hs, f.Div(f.Mul(p, f.Mul(ws, kept)), all))
		}
		// The full pair's old card among the forgotten.
		if y == 1 {
			if lost := binomial(f, a, x-1-hs); !f.IsZero(lost) {
				result(a-(x-1-hs), 0, as-hs, f.Div(f.Mul(p, f.Mul(ws, lost)), all))
			}
		}
	}
}

// decaySinglesOutcomes appends to outs and probs the outcomes of a turn begun in st (with
// singletons) with choice c under decay forgetting, as decayOutcomes does without them (the
// card events of docs/models.md §4.3).
func decaySinglesOutcomes[T any](h *decayHand[T], st rules.State, c rules.Choice, outs []Outcome, probs []T) ([]Outcome, []T) {
	f := h.f
	n, j, s, fu := st.N, st.J, st.S, st.F
	k, g, u := n-j, s-fu, int64(n+j+fu)
	at := func(n, pairs, singles int) rules.State {
		return rules.State{N: n, J: n - pairs, S: s, F: s - singles}
	}
	emit := func(e Event, p T, next rules.State, cont bool, moverGain, nextGain int) {
		if f.IsZero(p) {
			return
		}
		outs = append(outs, Outcome{Event: e, Next: next, Continue: cont, MoverGain: moverGain, NextGain: nextGain})
		probs = append(probs, p)
	}
	frac := func(num, den int64) T { return f.FromFrac(num, den) }
	// handOver: old and fresh pair cards, old and fresh singletons, and a full pair.
	handOver := func(e Event, p T, old, fresh, oldS, freshS int, full bool) {
		if f.IsZero(p) {
			return
		}
		for _, b := range h.singleBuckets(old, fresh, oldS, freshS, full) {
			if b.full {
				emit(e, f.Mul(p, b.prob), at(n-1, b.pairs, b.singles), false, 0, 1)
			} else {
				emit(e, f.Mul(p, b.prob), at(n, b.pairs, b.singles), false, 0, 0)
			}
		}
	}
	if u == 0 {
		return outs, probs
	}
	switch c {
	case rules.Pass:
		// The pass hands the turn over: the hand-over forgets among the remembered cards.
		handOver(EventPass, f.FromInt(1), k, 0, g, 0, false)
	case rules.KnownFirst:
		// The known card is a half-known pair's card if there is one, otherwise a seen singleton.
		if k >= 1 {
			emit(EventKnownThenPartner, frac(1, u), at(n-1, k-1, g), true, 1, 0)
			if k > 1 {
				handOver(EventKnownThenKnownPartner, frac(int64(k-1), u), k-1, 0, g, 0, true)
			}
		}
		if j > 0 {
			handOver(EventKnownThenNew, frac(int64(2*j), u), k, 1, g, 0, false)
		}
		if fu > 0 {
			handOver(EventKnownThenSingleton, frac(int64(fu), u), k, 0, g, 1, false)
		}
	case rules.Daring, rules.Safe:
		if k > 0 {
			emit(EventFirstHit, frac(int64(k), u), at(n-1, k-1, g), true, 1, 0)
		}
		if fu > 0 {
			// An unseen singleton: flip a remembered card if there is one, otherwise a second
			// unknown card.
			p := frac(int64(fu), u)
			if k+g >= 1 {
				handOver(EventSingletonThenKnown, p, k, 0, g, 1, false)
			} else {
				handOver(EventTwoSingletons, f.Mul(p, frac(int64(fu-1), u-1)), 0, 0, 0, 2, false)
				handOver(EventSingletonThenNew, f.Mul(p, frac(int64(2*j), u-1)), 0, 1, 0, 1, false)
			}
		}
		if j == 0 {
			break
		}
		pNew := frac(int64(2*j), u)
		if c == rules.Safe && k+g >= 1 {
			handOver(EventNewThenKnown, pNew, k, 1, g, 0, false)
			break
		}
		rest := u - 1
		emit(EventLucky, f.Mul(pNew, frac(1, rest)), at(n-1, k, g), true, 1, 0)
		if k > 0 {
			handOver(EventNewThenKnownPartner, f.Mul(pNew, frac(int64(k), rest)), k-1, 1, g, 0, true)
		}
		if j > 1 {
			handOver(EventTwoNew, f.Mul(pNew, frac(int64(2*(j-1)), rest)), k, 2, g, 0, false)
		}
		if fu > 0 {
			handOver(EventNewThenSingleton, f.Mul(pNew, frac(int64(fu), rest)), k, 1, g, 1, false)
		}
	}
	return outs, probs
}
