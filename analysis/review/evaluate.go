package review

import (
	"memsim/sim/rules"
)

// table is the table as a perfect memory sees it: n pairs, j of them unknown (no card seen), w
// known whole (both cards seen), the other h = n - j - w half-known; s singletons, f of them
// unseen. The mover's lead is d; afterPass says the turn before was the other seat's pass.
type table struct {
	n, j, w, h, s, f int
	d                int
	afterPass        bool
}

// unknown returns the number of cards never seen: both cards of each unknown pair, the hidden
// card of each half-known pair, the unseen singletons.
func (t table) unknown() int { return 2*t.j + t.h + t.f }

// seen returns the number of seen cards on the table.
func (t table) seen() int { return 2*t.w + t.h + t.s - t.f }

// score is a value in both measures: the mover's expected pairs from here and its win score.
type score[T any] struct{ pairs, win T }

// evaluator values the moves of a turn from the solver's state values.
type evaluator[T any] struct {
	v *Values[T]
}

// Card classes: the kinds of card a flip can turn, as a perfect memory tells them apart.
type class uint8

const (
	classWhole      class = iota // a card of a pair known whole
	classHalf                    // the seen card of a half-known pair
	classSingleton               // a seen singleton
	classNew                     // a card never seen, at random
	classNewPair                 // (revealed) a card of an unknown pair
	classNewPartner              // (revealed) the hidden card of a half-known pair
	classNewSingle               // (revealed) an unseen singleton
)

// second-card options.
type option uint8

const (
	optPartner option = iota // the first card's partner, seen: take the pair
	optNew                   // a card never seen, at random
	optSeen                  // a seen card that is not the first card's partner
	noOption                 // none made yet
)

// state returns the count state the next mover plays in once it has taken the pairs known whole,
// and the pairs it takes.
func (t table) rest() (rules.State, int) {
	return rules.State{N: t.n - t.w, J: t.j, S: t.s, F: t.f}, t.w
}

// moverAt returns the value of t to the seat to move in it, which first takes the pairs known
// whole (each a turn of its own, after which no pass came before).
func (e evaluator[T]) moverAt(t table) score[T] {
	f := e.v.f
	st, whole := t.rest()
	after := t.afterPass && whole == 0
	sc := score[T]{pairs: f.Add(f.FromInt(int64(whole)), e.v.pairsAt(st, after)), win: f.FromInt(0)}
	if e.v.Win() {
		st.Lead = t.d + whole
		sc.win = e.v.winAt(st, after)
	}
	return sc
}

// handover returns the value to the mover of a turn that ends without a pair in table t (the
// mover's lead d, the next seat to move, after a pass if pass).
func (e evaluator[T]) handover(t table, pass bool) score[T] {
	f := e.v.f
	next := t
	next.d, next.afterPass = -t.d, pass
	o := e.moverAt(next)
	sc := score[T]{pairs: f.Sub(f.FromInt(int64(t.n)), o.pairs), win: f.FromInt(0)}
	if e.v.Win() {
		sc.win = f.Sub(f.FromInt(1), o.win)
	}
	return sc
}

// takes returns the value to the mover of taking a pair, leaving table t (one pair fewer), and
// moving again.
func (e evaluator[T]) takes(t table) score[T] {
	f := e.v.f
	t.d++
	t.afterPass = false
	o := e.moverAt(t)
	return score[T]{pairs: f.Add(f.FromInt(1), o.pairs), win: o.win}
}

// weighted accumulates a probability-weighted sum of scores.
type weighted[T any] struct {
	e   evaluator[T]
	sum score[T]
	den int64
}

func (e evaluator[T]) sum(den int) *weighted[T] {
	z := e.v.f.FromInt(0)
	return &weighted[T]{e: e, sum: score[T]{z, z}, den: int64(den)}
}

// add adds count/den times sc.
func (w *weighted[T]) add(count int, sc score[T]) {
	if count == 0 {
		return
	}
	f := w.e.v.f
	p := f.FromFrac(int64(count), w.den)
	w.sum.pairs = f.Add(w.sum.pairs, f.Mul(p, sc.pairs))
	if w.e.v.Win() {
		w.sum.win = f.Add(w.sum.win, f.Mul(p, sc.win))
	}
}

// The classes of a never-seen second card.
type reveal uint8

const (
	revealLucky  reveal = iota // the first card's hidden partner: the pair is taken
	revealPair                 // a card of an unknown pair
	revealHidden               // the hidden card of another half-known pair
	revealSingle               // an unseen singleton
)

// newBranch returns how many of the unseen cards are of class k, for a second card turned after
// a first card that left table t, partner saying whether the first card's partner is hidden
// among them (1) or not (0), and the value to the mover of the turn's end when the card is of
// class k.
func (e evaluator[T]) newBranch(t table, partner int, k reveal) (int, score[T]) {
	count := [...]int{revealLucky: partner, revealPair: 2 * t.j, revealHidden: t.h - partner, revealSingle: t.f}[k]
	if count == 0 {
		return 0, score[T]{}
	}
	nt := t
	switch k {
	case revealLucky:
		// t counts the first card's pair as half-known, with its hidden card among the unseen.
		nt.n, nt.h = t.n-1, t.h-1
		return count, e.takes(nt)
	case revealPair:
		nt.j, nt.h = t.j-1, t.h+1 // that pair is now half-known
	case revealHidden:
		nt.h, nt.w = t.h-1, t.w+1 // that pair is now whole: the next seat takes it
	case revealSingle:
		nt.f = t.f - 1
	}
	return count, e.handover(nt, false)
}

// newSecond returns the value of turning a never-seen card second, after a first card that left
// table t (its own pair updated: half-known if it was new, whole if it was a hidden card);
// partner is 1 when the first card's partner is hidden among the unseen cards, else 0.
func (e evaluator[T]) newSecond(t table, partner int) score[T] {
	w := e.sum(t.unknown())
	for _, k := range []reveal{revealLucky, revealPair, revealHidden, revealSingle} {
		w.add(e.newBranch(t, partner, k))
	}
	return w.sum
}

// afterFirst returns the table once a first card of class c is seen, whether its partner is
// hidden among the unseen cards (1) or not (0), whether it is seen, and whether the first card
// was seen before the turn.
func afterFirst(t table, c class) (after table, partnerHidden int, partnerSeen, firstSeen bool) {
	after, firstSeen = t, true
	switch c {
	case classWhole:
		partnerSeen = true
	case classHalf:
		partnerHidden = 1
	case classNewPair:
		after.j, after.h = t.j-1, t.h+1
		partnerHidden, firstSeen = 1, false
	case classNewPartner:
		after.h, after.w = t.h-1, t.w+1
		partnerSeen, firstSeen = true, false
	case classNewSingle:
		after.f = t.f - 1
		firstSeen = false
	}
	return after, partnerHidden, partnerSeen, firstSeen
}

// second returns the value of option o for the second card, the first card's class being c
// (revealed, for a new card) in table t as it was at the start of the turn, and whether o is
// possible.
func (e evaluator[T]) second(t table, c class, o option) (score[T], bool) {
	after, partnerHidden, partnerSeen, firstSeen := afterFirst(t, c)
	switch o {
	case optPartner:
		if !partnerSeen {
			return score[T]{}, false
		}
		nt := after
		nt.n, nt.w = after.n-1, after.w-1
		return e.takes(nt), true
	case optNew:
		if after.unknown() == 0 {
			return score[T]{}, false
		}
		return e.newSecond(after, partnerHidden), true
	default:
		others := after.seen() - 1 // the seen cards but the first card itself
		if partnerSeen {
			others-- // the partner is optPartner
		}
		if others <= 0 {
			return score[T]{}, false
		}
		if firstSeen {
			return e.pass(t), true // two seen cards that are not a pair: a pass (models.md §1.4)
		}
		return e.handover(after, false), true
	}
}

// first returns the value of turning a card of class c first (classWhole, classHalf,
// classSingleton or classNew), with the best second card in the set allowed, and whether the
// first card is possible.
func (e evaluator[T]) first(t table, c class, allowed func(c class, o option) bool) (score[T], bool) {
	switch c {
	case classWhole:
		if t.w == 0 {
			return score[T]{}, false
		}
	case classHalf:
		if t.h == 0 {
			return score[T]{}, false
		}
	case classSingleton:
		if t.s-t.f == 0 {
			return score[T]{}, false
		}
	case classNew:
		u := t.unknown()
		if u == 0 {
			return score[T]{}, false
		}
		w := e.sum(u)
		for _, k := range []struct {
			c     class
			count int
		}{{classNewPair, 2 * t.j}, {classNewPartner, t.h}, {classNewSingle, t.f}} {
			if k.count == 0 {
				continue
			}
			sc, ok := e.bestSecondOrAny(t, k.c, allowed)
			if !ok {
				return score[T]{}, false
			}
			w.add(k.count, sc)
		}
		return w.sum, true
	}
	return e.bestSecondOrAny(t, c, allowed)
}

// bestSecondOrAny is bestSecond, or, where no second card is allowed, the best of every second
// card possible.
func (e evaluator[T]) bestSecondOrAny(t table, c class, allowed func(c class, o option) bool) (score[T], bool) {
	if sc, ok := e.bestSecond(t, c, allowed); ok {
		return sc, true
	}
	return e.bestSecond(t, c, func(class, option) bool { return true })
}

// bestSecond returns the best value of a second card allowed after a first card of class c, in
// each measure on its own (the best second card for the pairs may not be the best for the win),
// and whether any is allowed.
func (e evaluator[T]) bestSecond(t table, c class, allowed func(c class, o option) bool) (score[T], bool) {
	var best score[T]
	have := false
	for _, o := range []option{optPartner, optNew, optSeen} {
		if !allowed(c, o) {
			continue
		}
		sc, ok := e.second(t, c, o)
		if !ok {
			continue
		}
		if !have {
			best, have = sc, true
			continue
		}
		best = e.max(best, sc)
	}
	return best, have
}

// max returns the larger of a and b in each measure.
func (e evaluator[T]) max(a, b score[T]) score[T] {
	f := e.v.f
	if f.Cmp(b.pairs, a.pairs) > 0 {
		a.pairs = b.pairs
	}
	if e.v.Win() && f.Cmp(b.win, a.win) > 0 {
		a.win = b.win
	}
	return a
}

// pass returns the value of a pass at the start of the turn: after the other seat's pass, the
// game ends in a stalemate and the pairs left are shared; otherwise the other seat moves.
func (e evaluator[T]) pass(t table) score[T] {
	if !t.afterPass || e.v.model.Pass == rules.PassNever {
		return e.handover(t, true)
	}
	f := e.v.f
	sc := score[T]{pairs: f.FromFrac(int64(t.n), 2), win: f.FromInt(0)}
	if e.v.Win() {
		sc.win = e.v.final(t.d)
	}
	return sc
}

// plan returns the value of choice c made at the start of a turn in t (no pair known whole), the
// turn played as docs/models.md §3.2 says, and whether c can be played in t.
func (e evaluator[T]) plan(t table, c rules.Choice) (score[T], bool) {
	if t.w > 0 || !e.v.model.Legal(rules.State{N: t.n, J: t.j, S: t.s, F: t.f}, c) {
		return score[T]{}, false
	}
	seen := t.seen() > 0
	switch c {
	case rules.Daring, rules.Safe:
		safe := c == rules.Safe
		if safe && !seen {
			return score[T]{}, false
		}
		return e.first(t, classNew, func(k class, o option) bool {
			switch k {
			case classNewPair:
				return o == optSeen && safe || o == optNew && !safe
			case classNewPartner:
				return o == optPartner
			case classNewSingle:
				return o == optSeen && seen || o == optNew && !seen
			}
			return false
		})
	case rules.KnownFirst:
		k := classHalf
		if t.h == 0 {
			k = classSingleton
		}
		return e.first(t, k, func(_ class, o option) bool { return o == optNew })
	case rules.Pass:
		return e.pass(t), true
	}
	return score[T]{}, false
}
