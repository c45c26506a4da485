package exact

import "memsim/sim/rules"

// Blind flips with decay forgetting (docs/models.md §4.17, §4.14): the blind turn's card events
// are those of perfect memory (blind.go), then the hand-over forgets each remembered card, the
// turn's included, independently with probability q, and with a capacity m the memory then
// forgets cards uniformly among those remembered before the turn until m remain. A blind daring
// turn can leave two pairs known whole; forgetting comes before the next seat takes them, so a
// pair one of whose cards is forgotten stays on the table, half-known through the other. The
// model covers one to eight seats (solitaire under pass rule never, as every solitaire), every
// pass rule (a pass is a hand-over: the memory forgets before the next seat moves), with or
// without a turn limit, the policies that play for pairs and those that play to win (three or
// more seats: selfishwindecay.go).

// blindDecayBucket is one result of a blind turn's hand-over under decay forgetting: the
// half-known pairs afterwards and the pairs left known whole, which the next seat takes.
type blindDecayBucket[T any] struct {
	known, whole int
	prob         T
}

// blindBuckets returns the results of a hand-over after a blind turn that leaves old cards of
// half-known pairs remembered from before the turn, fresh cards seen this turn (each the only
// remembered card of its pair) and whole pairs known whole (an old card and a fresh one each, at
// most two). Each card is forgotten with probability q; with a capacity, the excess is then
// forgotten uniformly among the old cards that survived, the whole pairs' old cards included.
// Buckets with the same result are merged; their probabilities sum to one.
func (h *decayHand[T]) blindBuckets(old, fresh, whole int) []blindDecayBucket[T] {
	key := [3]int{old, fresh, whole}
	if h.blindCache == nil {
		h.blindCache = map[[3]int][]blindDecayBucket[T]{}
	}
	if b, ok := h.blindCache[key]; ok {
		return b
	}
	f := h.f
	acc := map[[2]int]T{}
	var order [][2]int
	add := func(known, w int, p T) {
		if f.IsZero(p) {
			return
		}
		k := [2]int{known, w}
		if v, ok := acc[k]; ok {
			acc[k] = f.Add(v, p)
			return
		}
		acc[k] = p
		order = append(order, k)
	}
	// Each whole pair ends in one of four ways: both cards remembered, the old card only, the
	// fresh card only, neither; the counts of each way follow a multinomial law.
	both, one, none := f.Mul(h.keep, h.keep), f.Mul(h.keep, h.q), f.Mul(h.q, h.q)
	for a := 0; a <= old; a++ {
		for b := 0; b <= fresh; b++ {
			pab := f.Mul(h.pmf[old][a], h.pmf[fresh][b])
			for cB := 0; cB <= whole; cB++ {
				for cO := 0; cO <= whole-cB; cO++ {
					for cF := 0; cF <= whole-cB-cO; cF++ {
						cN := whole - cB - cO - cF
						ways := binom(whole, cB) * binom(whole-cB, cO) * binom(whole-cB-cO, cF)
						p := f.Mul(pab, f.FromInt(ways))
						p = f.Mul(p, pow(f, both, cB))
						p = f.Mul(p, pow(f, one, cO+cF))
						p = f.Mul(p, pow(f, none, cN))
						if f.IsZero(p) {
							continue
						}
						h.blindSettle(a, b, cB, cO, cF, p, add)
					}
				}
			}
		}
	}
	out := make([]blindDecayBucket[T], 0, len(order))
	for _, k := range order {
		out = append(out, blindDecayBucket[T]{known: k[0], whole: k[1], prob: acc[k]})
	}
	h.blindCache[key] = out
	return out
}

// blindSettle applies the capacity to a memory that holds a old survivors of half-known pairs, b
// fresh survivors, cB pairs known whole, cO whole pairs' old cards alone and cF their fresh cards
// alone, emitting the results with probability p. The x excess cards are forgotten uniformly
// among the a + cB + cO old cards (multivariate hypergeometric): an old card of a pair known
// whole forgotten leaves that pair half-known.
func (h *decayHand[T]) blindSettle(a, b, cB, cO, cF int, p T, add func(known, whole int, p T)) {
	f := h.f
	total := a + b + 2*cB + cO + cF
	oldN := a + cB + cO
	x := 0
	if h.capacity > 0 && total > h.capacity {
		x = total - h.capacity
	}
	den := binom(oldN, x)
	for s1 := 0; s1 <= min(cB, x); s1++ {
		for s2 := 0; s2 <= min(cO, x-s1); s2++ {
			s3 := x - s1 - s2
			if s3 > a {
				continue
			}
			ways := binom(cB, s1) * binom(cO, s2) * binom(a, s3)
			known := (a - s3) + (cO - s2) + s1 + cF + b
			add(known, cB-s1, f.Mul(p, f.FromFrac(ways, den)))
		}
	}
}

// pow returns v to the power e >= 0 in field f.
func pow[T any](f interface {
	FromInt(int64) T
	Mul(a, b T) T
}, v T, e int) T {
	r := f.FromInt(1)
	for range e {
		r = f.Mul(r, v)
	}
	return r
}

// blindDecayOutcomes appends to outs and probs the outcomes of a blind turn begun in st (pairs
// only, pass rule never) with choice c under decay forgetting, with their probabilities in the
// field; the outcomes' Prob is left zero. With k = n - j half-known pairs, j unknown pairs and
// u = n + j unknown cards, daring names two unknown cards, uniform among the u(u - 1)/2 pairs of
// them; safe and known-first name a remembered card and an unknown one.
func blindDecayOutcomes[T any](h *decayHand[T], st rules.State, c rules.Choice, outs []Outcome, probs []T) ([]Outcome, []T) {
	f := h.f
	n, j := st.N, st.J
	k, u := n-j, int64(n+j)
	at := func(n, known int) rules.State { return rules.State{N: n, J: n - known} }
	emit := func(e Event, p T, next rules.State, cont bool, moverGain, nextGain int) {
		if f.IsZero(p) {
			return
		}
		outs = append(outs, Outcome{Event: e, Next: next, Continue: cont, MoverGain: moverGain, NextGain: nextGain})
		probs = append(probs, p)
	}
	handOver := func(e Event, p T, old, fresh, whole int) {
		if f.IsZero(p) {
			return
		}
		for _, b := range h.blindBuckets(old, fresh, whole) {
			emit(e, f.Mul(p, b.prob), at(n-b.whole, b.known), false, 0, b.whole)
		}
	}
	switch {
	case c == rules.Pass:
		handOver(EventPass, f.FromInt(1), k, 0, 0)
	case c == rules.Daring && u >= 2:
		pairs := u * (u - 1) / 2
		emit(EventLucky, f.FromFrac(int64(j), pairs), at(n-1, k), true, 1, 0)
		if k >= 2 {
			handOver(EventTwoKnownPartners, f.FromFrac(int64(k*(k-1)/2), pairs), k-2, 0, 2)
		}
		if k >= 1 && j >= 1 {
			handOver(EventNewThenKnownPartner, f.FromFrac(int64(2*k*j), pairs), k-1, 1, 1)
		}
		if j >= 2 {
			handOver(EventTwoNew, f.FromFrac(int64(2*j*(j-1)), pairs), k, 2, 0)
		}
	case c == rules.Daring:
		// One unknown card left (n = 1, j = 0): the second card named is its remembered partner.
		emit(EventFirstHit, f.FromInt(1), at(n-1, k-1), true, 1, 0)
	default:
		// Safe and known-first: a remembered card and an unknown one.
		emit(EventKnownThenPartner, f.FromFrac(1, u), at(n-1, k-1), true, 1, 0)
		if k >= 2 {
			handOver(EventKnownThenKnownPartner, f.FromFrac(int64(k-1), u), k-1, 0, 1)
		}
		if j >= 1 {
			handOver(EventKnownThenNew, f.FromFrac(int64(2*j), u), k, 1, 0)
		}
	}
	return outs, probs
}
