package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// Model is an exact model of the game: the pass rule, a shared memory, the number of singletons
// and the choices a mover may make (the zero ChoiceSet is every choice: the full game; the
// published models allow {daring, safe}, plus pass where the rule permits). Its positions are
// rules.State values with S equal to Singletons. Variant is the rule variant (docs/models.md
// §1.7; the zero value is the standard game): blind flips are solved with pairs only, under
// perfect memory or a fixed capacity's lru or handover-uniform forgetting (blind.go); a turn limit
// as limit.go says.
type Model struct {
	Pass       rules.PassRule
	Memory     rules.Memory
	Singletons int
	Choices    rules.ChoiceSet
	// Variant holds the rules in which the game differs from the standard game (docs/models.md
	// §1.7); the zero value is the standard game. With more than two copies of a face the
	// model's positions are CopiesState values (EvaluateCopies, §4.16).
	Variant rules.Variant
}

// Legal reports whether choice c is open to the mover in st: legal under the pass rule and in
// the model's choice set.
func (m Model) Legal(st rules.State, c rules.Choice) bool {
	return m.Choices.Has(c) && rules.Legal(st, c, m.Pass)
}

// Validate reports whether the model has an exact solution here: perfect memory (with or without
// singletons), or a shared memory of capacity m >= 2 with handover-uniform or lru forgetting (with
// singletons handover-uniform only, husingles.go), or a shared decay memory (with singletons
// without a turn limit only, decaysingles.go).
func (m Model) Validate() error {
	if err := m.Memory.Validate(); err != nil {
		return err
	}
	if err := m.Choices.Validate(); err != nil {
		return err
	}
	if m.Singletons < 0 {
		return fmt.Errorf("singletons %d: must be at least 0", m.Singletons)
	}
	if IsFluctSingles(m) {
		return checkFluctSinglesModel(m) // fluctsingles.go
	}
	if m.Memory.Fluctuation > 0 {
		return m.validateFluct()
	}
	if err := m.validateVariant(); err != nil {
		return err
	}
	if m.Memory.Scope != rules.ScopeShared {
		return fmt.Errorf("memory scope %s has no exact model (the exact models assume a shared memory)", m.Memory.Scope)
	}
	if m.Memory.Perfect() {
		return nil
	}
	switch m.Memory.Forget {
	case rules.ForgetHandoverUniform, rules.ForgetLRU, rules.ForgetDecay:
	default:
		return fmt.Errorf("forgetting rule %s has no exact model (allowed: handover-uniform, lru, decay)", m.Memory.Forget)
	}
	if IsHUSingles(m) {
		return checkHUSinglesModel(m) // husingles.go
	}
	if m.Singletons > 0 && m.isDecay() {
		if err := m.validateDecaySingles(); err != nil {
			return err
		}
	} else if m.Singletons > 0 {
		return fmt.Errorf("singletons with %s memory have no exact model: the count state does not say which card lru forgets (use perfect memory, handover-uniform or decay, or the simulator)", m.Memory.Forget)
	}
	if m.isDecay() {
		return m.validateDecay()
	}
	return nil
}

// Event names what happened in a turn, by the classes of the two cards flipped.
type Event uint8

const (
	// EventPass: the mover passed (two remembered cards that are not a pair).
	EventPass Event = iota
	// EventFirstHit: the first card's partner was remembered; the mover took the pair.
	EventFirstHit
	// EventLucky: a new card, then its partner by chance; the mover took the pair.
	EventLucky
	// EventNewThenKnownPartner: a new card, then the partner of another remembered card; that pair
	// is now fully known and the next player takes it first, unless it is forgotten at hand-over.
	EventNewThenKnownPartner
	// EventTwoNew: two new cards of different pairs.
	EventTwoNew
	// EventNewThenSingleton: a new pair card, then an unseen singleton.
	EventNewThenSingleton
	// EventNewThenKnown: the safe move: a new card, then a remembered card.
	EventNewThenKnown
	// EventSingletonThenKnown: an unseen singleton, then a remembered card.
	EventSingletonThenKnown
	// EventSingletonThenNew: nothing remembered; an unseen singleton, then a new pair card.
	EventSingletonThenNew
	// EventTwoSingletons: nothing remembered; two unseen singletons.
	EventTwoSingletons
	// EventKnownThenPartner: known-first; the unknown card was the known card's partner.
	EventKnownThenPartner
	// EventKnownThenKnownPartner: known-first; the unknown card was another remembered card's partner.
	EventKnownThenKnownPartner
	// EventKnownThenNew: known-first; the unknown card was a new pair card.
	EventKnownThenNew
	// EventKnownThenSingleton: known-first; the unknown card was an unseen singleton.
	EventKnownThenSingleton
	// EventTwoKnownPartners: blind flips; two unknown cards, the partners of two remembered
	// cards; both pairs are now fully known and the next player takes them first.
	EventTwoKnownPartners
	// EventKnownPartnerAndSingleton: blind flips; two unknown cards, the partner of a remembered
	// card and an unseen singleton; that pair is now fully known and the next player takes it
	// first.
	EventKnownPartnerAndSingleton
)

var eventNames = [...]string{
	EventPass:                     "pass",
	EventFirstHit:                 "first-hit",
	EventLucky:                    "lucky",
	EventNewThenKnownPartner:      "new-then-known-partner",
	EventTwoNew:                   "two-new",
	EventNewThenSingleton:         "new-then-singleton",
	EventNewThenKnown:             "new-then-known",
	EventSingletonThenKnown:       "singleton-then-known",
	EventSingletonThenNew:         "singleton-then-new",
	EventTwoSingletons:            "two-singletons",
	EventKnownThenPartner:         "known-then-partner",
	EventKnownThenKnownPartner:    "known-then-known-partner",
	EventKnownThenNew:             "known-then-new",
	EventKnownThenSingleton:       "known-then-singleton",
	EventTwoKnownPartners:         "two-known-partners",
	EventKnownPartnerAndSingleton: "known-partner-and-singleton",
}

// String returns the event's name.
func (e Event) String() string {
	if int(e) < len(eventNames) {
		return eventNames[e]
	}
	return fmt.Sprintf("Event(%d)", uint8(e))
}

// Frac is an exact probability Num/Den. It is not kept in lowest terms (the solver does not need
// it, and skipping the reduction matters in the float64 sweeps): compare fractions with Equal and
// print them with String, which reduce.
type Frac struct{ Num, Den int64 }

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

// Mul returns the product of two fractions. Numerators and denominators are products of at most
// four counts of cards, far from overflowing int64 for any table this solver can sweep.
func (a Frac) Mul(b Frac) Frac { return Frac{a.Num * b.Num, a.Den * b.Den} }

// Reduce returns the fraction in lowest terms.
func (a Frac) Reduce() Frac {
	g := gcd(a.Num, a.Den)
	if g == 0 {
		return Frac{0, 1}
	}
	return Frac{a.Num / g, a.Den / g}
}

// Equal reports whether two fractions have the same value.
func (a Frac) Equal(b Frac) bool { return a.Num*b.Den == b.Num*a.Den }

// Float64 returns the fraction's value.
func (a Frac) Float64() float64 { return float64(a.Num) / float64(a.Den) }

// String formats the fraction in lowest terms as "p/q".
func (a Frac) String() string {
	r := a.Reduce()
	return fmt.Sprintf("%d/%d", r.Num, r.Den)
}

// Outcome is one way a turn can end, with its probability. After a matching pair the mover moves
// again (Continue) in Next; otherwise the turn passes to the next seat, which first takes NextGain
// pairs (a pair left fully known on the table) and then moves in Next.
type Outcome struct {
	Event     Event
	Prob      Frac
	Next      rules.State
	Continue  bool
	MoverGain int
	NextGain  int
}

// Outcomes appends to dst the outcomes of a turn begun in st with choice c, which must be legal in
// st under the model's pass rule, and returns the extended slice. The probabilities of one call's
// outcomes sum to one. Outcomes with the same successor are not merged, so every event of the
// turn can be read off. Under decay forgetting, whose hand-over probabilities are polynomials in q
// rather than ratios of card counts, they are the turn's card events before the hand-over (as
// with perfect memory); the solver adds the forgetting in its own arithmetic (docs/models.md
// §4.14).
func (m Model) Outcomes(st rules.State, c rules.Choice, dst []Outcome) []Outcome {
	t := turn{m: m, st: st, dst: dst}
	if m.Variant.Flips == rules.FlipsBlind {
		t.blind(c)
		return t.dst
	}
	switch c {
	case rules.Pass:
		t.emit(EventPass, Frac{1, 1}, st, false, 0, 0)
	case rules.KnownFirst:
		t.knownFirst()
	default:
		t.unknownFirst(c == rules.Safe)
	}
	return t.dst
}

// turn enumerates the outcomes of one turn in class counts: k = n - j half-known pairs (one card
// remembered), j unknown pairs, ks = s - f seen singletons and f unseen ones, u = n + j + f
// face-down cards the mover does not remember. Face-down cards that are not remembered are
// exchangeable, so each class is hit with probability proportional to its size.
type turn struct {
	m   Model
	st  rules.State
	dst []Outcome
}

func (t *turn) emit(e Event, p Frac, next rules.State, cont bool, moverGain, nextGain int) {
	if p.Num == 0 {
		return
	}
	t.dst = append(t.dst, Outcome{Event: e, Prob: p, Next: next, Continue: cont, MoverGain: moverGain, NextGain: nextGain})
}

// at returns the state with n pairs of which half are half-known, and f unseen singletons.
func (t *turn) at(n, half, f int) rules.State {
	return rules.State{N: n, J: n - half, S: t.st.S, F: f}
}

func (t *turn) lru() bool { return !t.m.Memory.Perfect() && t.m.Memory.Forget == rules.ForgetLRU }

func (t *turn) handover() bool {
	return !t.m.Memory.Perfect() && t.m.Memory.Forget == rules.ForgetHandoverUniform
}

// handOver emits the end of a turn that passes with n pairs on the table, half of them half-known,
// of which oldHalf are remembered through a card known before the turn; full is 1 when one more
// pair is fully known (its old card remembered before the turn, its other card seen this turn),
// and f unseen singletons.
// Under handover-uniform forgetting, the cards beyond the capacity are forgotten uniformly among
// the cards known before the turn; a forgotten old card of the full pair stops the next player
// from taking it. Under perfect memory and lru nothing is forgotten here.
func (t *turn) handOver(e Event, p Frac, n, half, oldHalf, full, f int) {
	excess := 0
	if t.handover() {
		excess = half + 2*full + (t.st.S - f) - t.m.Memory.Capacity
	}
	if excess <= 0 {
		if full == 1 {
			t.emit(e, p, t.at(n-1, half, f), false, 0, 1)
		} else {
			t.emit(e, p, t.at(n, half, f), false, 0, 0)
		}
		return
	}
	if t.st.S > 0 {
		// With singletons the seen singletons remembered before the turn are forgotten too
		// (husingles.go).
		t.forgetSingles(e, p, n, half, oldHalf, t.st.S-t.st.F, full, f, excess)
		return
	}
	eligible := int64(oldHalf + full)
	if full == 0 {
		t.emit(e, p, t.at(n, half-excess, f), false, 0, 0)
		return
	}
	// The full pair's old card is among the forgotten with probability excess/eligible.
	lost := Frac{int64(excess), eligible}
	kept := Frac{eligible - int64(excess), eligible}
	t.emit(e, p.Mul(lost), t.at(n, half+1-(excess-1), f), false, 0, 0)
	t.emit(e, p.Mul(kept), t.at(n-1, half-excess, f), false, 0, 1)
}

// forgetSingles emits the end of a turn that hands over with singletons under handover-uniform
// forgetting: x cards are forgotten one at a time, uniformly among those remembered before the
// turn (oldHalf half-known pairs' cards, oldSeen seen singletons, and the old card of the pair
// the turn left known whole when full is 1).
func (t *turn) forgetSingles(e Event, p Frac, n, half, oldHalf, oldSeen, full, f, x int) {
	if p.Num == 0 {
		return
	}
	if x == 0 {
		t.emit(e, p.Reduce(), t.at(n-full, half, f), false, 0, full)
		return
	}
	pool := int64(oldHalf + oldSeen + full)
	if full == 1 {
		t.forgetSingles(e, p.Mul(Frac{1, pool}), n, half+1, oldHalf, oldSeen, 0, f, x-1)
	}
	if oldHalf > 0 {
		t.forgetSingles(e, p.Mul(Frac{int64(oldHalf), pool}), n, half-1, oldHalf-1, oldSeen, full, f, x-1)
	}
	if oldSeen > 0 {
		t.forgetSingles(e, p.Mul(Frac{int64(oldSeen), pool}), n, half, oldHalf, oldSeen-1, full, f+1, x-1)
	}
}

func (t *turn) unknownFirst(safe bool) {
	n, j, s, f := t.st.N, t.st.J, t.st.S, t.st.F
	k, ks, u := n-j, s-f, int64(t.st.Unknown())
	if u == 0 {
		return
	}
	// The first card's partner is remembered: take the pair and move again.
	t.emit(EventFirstHit, Frac{int64(k), u}, t.at(n-1, k-1, f), true, 1, 0)

	// An unseen singleton: flip a remembered card if there is one, otherwise a second unknown card.
	if f > 0 {
		p := Frac{int64(f), u}
		if k+ks >= 1 {
			t.handOver(EventSingletonThenKnown, p, n, k, k, 0, f-1)
		} else {
			t.handOver(EventTwoSingletons, p.Mul(Frac{int64(f - 1), u - 1}), n, 0, 0, 0, f-2)
			t.handOver(EventSingletonThenNew, p.Mul(Frac{int64(2 * j), u - 1}), n, 1, 0, 0, f-1)
		}
	}
	if j == 0 {
		return
	}

	// A new card of an unknown pair. Under lru, storing it evicts the least recently seen card
	// when the memory was full; that card's pair becomes unknown again.
	pNew := Frac{int64(2 * j), u}
	evict := 0
	if t.lru() && k+1 > t.m.Memory.Capacity {
		evict = 1
	}
	if safe && k+ks >= 1 {
		t.handOver(EventNewThenKnown, pNew, n, k+1-evict, k-evict, 0, f)
		return
	}
	if evict == 1 {
		// lru, memory full: the evicted card and its partner are unknown again, so the second flip
		// chooses among u cards: the first card's partner, the k-1 partners of the cards still
		// remembered, and 2j cards of unknown pairs (the evicted pair included).
		t.emit(EventLucky, pNew.Mul(Frac{1, u}), t.at(n-1, k-1, f), true, 1, 0)
		t.emit(EventNewThenKnownPartner, pNew.Mul(Frac{int64(k - 1), u}), t.at(n-1, k-1, f), false, 0, 1)
		// The second new card is stored and evicts one more old card.
		t.emit(EventTwoNew, pNew.Mul(Frac{int64(2 * j), u}), t.at(n, k, f), false, 0, 0)
		return
	}
	rest := u - 1
	t.emit(EventLucky, pNew.Mul(Frac{1, rest}), t.at(n-1, k, f), true, 1, 0)
	if t.lru() {
		// The partner is recognised, not stored; the next player takes the pair.
		t.emit(EventNewThenKnownPartner, pNew.Mul(Frac{int64(k), rest}), t.at(n-1, k, f), false, 0, 1)
		half := k + 2
		if half > t.m.Memory.Capacity {
			half--
		}
		t.emit(EventTwoNew, pNew.Mul(Frac{int64(2 * (j - 1)), rest}), t.at(n, half, f), false, 0, 0)
		return
	}
	t.handOver(EventNewThenKnownPartner, pNew.Mul(Frac{int64(k), rest}), n, k, k-1, 1, f)
	t.handOver(EventTwoNew, pNew.Mul(Frac{int64(2 * (j - 1)), rest}), n, k+2, k, 0, f)
	if f > 0 {
		t.handOver(EventNewThenSingleton, pNew.Mul(Frac{int64(f), rest}), n, k+1, k, 0, f-1)
	}
}

func (t *turn) knownFirst() {
	n, j, f := t.st.N, t.st.J, t.st.F
	k, u := n-j, int64(t.st.Unknown())
	// The known card is a half-known pair's card if there is one, otherwise a seen singleton.
	own := 0
	if k >= 1 {
		own = 1
		t.emit(EventKnownThenPartner, Frac{1, u}, t.at(n-1, k-1, f), true, 1, 0)
	}
	others := int64(k - own)
	switch {
	case t.lru():
		// The known card becomes the most recent; a recognised partner is not stored, so the
		// next player takes that pair; a new card is stored and may evict an old card, never the
		// one just flipped.
		t.emit(EventKnownThenKnownPartner, Frac{others, u}, t.at(n-1, k-1, f), false, 0, 1)
		half := k + 1
		if half > t.m.Memory.Capacity {
			half--
		}
		t.emit(EventKnownThenNew, Frac{int64(2 * j), u}, t.at(n, half, f), false, 0, 0)
	default:
		t.handOver(EventKnownThenKnownPartner, Frac{others, u}, n, k-1, k-1, 1, f)
		t.handOver(EventKnownThenNew, Frac{int64(2 * j), u}, n, k+1, k, 0, f)
		if f > 0 {
			t.handOver(EventKnownThenSingleton, Frac{int64(f), u}, n, k, k, 0, f-1)
		}
	}
}

// validateVariant reports whether the model's variant has an exact model: k copies of a face with
// perfect memory and no singletons, under either flip rule and every pass rule, with or without a
// turn limit (docs/models.md §4.16; the copies model's own checks say which lineups it solves);
// blind flips with pairs only and perfect memory, or a shared memory of fixed capacity under lru
// or handover-uniform forgetting (capacity 3 or more), with or without a turn limit, and with
// singletons perfect memory or a handover-uniform one (husingles_blind.go) (§4.17); a turn limit
// with every memory (§4.18).
func (m Model) validateVariant() error {
	v := m.Variant
	if err := v.Validate(); err != nil {
		return err
	}
	if c := v.CopiesOf(); c != rules.DefaultCopies {
		switch {
		case isCopiesMem(m):
			return checkCopiesMemModel(m) // copiesmem.go
		case isCopiesDecay(m):
			return checkCopiesDecayModel(m) // copiesdecay.go
		case !m.Memory.Perfect():
			return fmt.Errorf("copies %d: only perfect memory and a shared handover-uniform or decay memory have an exact model, not %s", c, m.Memory)
		case m.Singletons != 0:
			return fmt.Errorf("copies %d: singletons have no exact model", c)
		}
		return nil
	}
	if v.Flips == rules.FlipsBlind {
		switch {
		case m.Memory.Forget == rules.ForgetHandoverUniform && m.Memory.Capacity == 2:
			return fmt.Errorf("blind flips with handover-uniform capacity 2 have no exact model: daring in (2, 0) names the partners of the two remembered cards, which the hand-over forgets, so a game need not end (use capacity 3 or more, or lru)")
		case m.Singletons > 0 && !m.Memory.Perfect() && !IsHUSingles(m):
			return fmt.Errorf("blind flips with singletons and %s memory have no exact model (use perfect memory, pairs only, or the simulator)", m.Memory)
		}
	}
	return nil
}
