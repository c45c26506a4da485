// Package rules defines the game of Memory as memsim plays and solves it: the pass rules, the ways
// of forgetting, the state (n, j, s, f) of the exact models, the choices open to a mover and the
// fixed policies that pick among them. The exact solver (analysis/exact) and the card-level engine
// (sim) both take these definitions from here, so the two cannot disagree about the game.
//
// docs/models.md describes the rules and the models; the comments below cite its sections.
package rules

import (
	"fmt"
	"math"
	"strings"
)

// nameOf returns the name of an enumerated value, or Kind(value) for a value without one.
func nameOf[E ~uint8](names []string, e E, kind string) string {
	if int(e) < len(names) {
		return names[e]
	}
	return fmt.Sprintf("%s(%d)", kind, uint8(e))
}

// parseName returns the value whose name is name, or an error listing the allowed names.
func parseName[E ~uint8](names []string, name, what string, allowed []string) (E, error) {
	for i, n := range names {
		if n == name {
			return E(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (allowed: %s)", what, name, strings.Join(allowed, ", "))
}

// MaxPlayers is the largest number of seats at a table: the engine, the exact solver and the
// configurations all accept 1 to MaxPlayers players.
const MaxPlayers = 8

// PassRule says when a mover may pass (flip two remembered cards that are not a pair, revealing
// nothing).
type PassRule uint8

const (
	// PassNever forbids passing: every turn flips at least one card the mover does not remember.
	PassNever PassRule = iota
	// PassTwoKnown allows a pass when the mover remembers at least two unmatched cards on the table.
	PassTwoKnown
	// PassAlways allows a pass at any time.
	PassAlways
)

var passRuleNames = [...]string{PassNever: "never", PassTwoKnown: "two-known", PassAlways: "always"}

// String returns the rule's name as written in configurations and flags.
func (p PassRule) String() string { return nameOf(passRuleNames[:], p, "PassRule") }

// ParsePassRule parses a pass rule name: never, two-known or always.
func ParsePassRule(name string) (PassRule, error) {
	return parseName[PassRule](passRuleNames[:], name, "pass rule", passRuleNames[:])
}

// Forgetting is the discipline by which a memory of limited capacity forgets cards.
type Forgetting uint8

const (
	// ForgetNone is perfect memory: every card seen stays known until it is removed.
	ForgetNone Forgetting = iota
	// ForgetHandoverUniform forgets nothing during a turn; when the turn passes and the memory holds
	// more than its capacity, cards are forgotten one at a time, each chosen uniformly among the
	// cards that were already known before the turn began (Sjölund & Åstrand).
	ForgetHandoverUniform
	// ForgetLRU recognises a newly seen card whose partner is remembered without storing it;
	// otherwise it stores the card and at once forgets the least recently seen card if the memory
	// then exceeds its capacity.
	ForgetLRU
	// ForgetDecay forgets each remembered card independently with a fixed probability at every
	// hand-over. No exact model covers it.
	ForgetDecay
)

var forgettingNames = [...]string{
	ForgetNone:            "none",
	ForgetHandoverUniform: "handover-uniform",
	ForgetLRU:             "lru",
	ForgetDecay:           "decay",
}

// String returns the discipline's name as written in configurations and flags.
func (f Forgetting) String() string { return nameOf(forgettingNames[:], f, "Forgetting") }

// ParseForgetting parses a forgetting discipline: handover-uniform, lru or decay ("none" is
// accepted too and means perfect memory).
func ParseForgetting(name string) (Forgetting, error) {
	return parseName[Forgetting](forgettingNames[:], name, "forgetting rule", forgettingNames[1:])
}

// Scope says whose memory a player's memory is.
type Scope uint8

const (
	// ScopeShared: all players remember and forget the same cards (the assumption of every exact
	// model).
	ScopeShared Scope = iota
	// ScopePrivate: each player has its own memory and its own forgetting draws.
	ScopePrivate
)

var scopeNames = [...]string{ScopeShared: "shared", ScopePrivate: "private"}

// String returns the scope's name as written in configurations and flags.
func (s Scope) String() string { return nameOf(scopeNames[:], s, "Scope") }

// ParseScope parses a memory scope: shared or private.
func ParseScope(name string) (Scope, error) {
	return parseName[Scope](scopeNames[:], name, "memory scope", scopeNames[:])
}

// Memory describes what a player remembers. Forget ForgetNone (with Capacity 0) is perfect memory.
// Otherwise at most Capacity cards are remembered (Capacity 0 means no limit, which only decay
// forgetting allows) and Forget says how the others are forgotten; Decay is the probability q with
// which decay forgetting drops each remembered card at every hand-over. Scope says whether the
// memory is shared by all players or private to each.
type Memory struct {
	Capacity int
	Forget   Forgetting
	Decay    float64
	Scope    Scope
	// Fluctuation σ >= 0, with lru or handover-uniform forgetting, makes the capacity fluctuate:
	// at the start of every turn of a seat that uses the memory, its capacity is
	// max(2, Capacity + d), d uniform on the integers -σ .. σ (docs/models.md §2.2); σ is at
	// most MaxFluctuation.
	Fluctuation int
}

// MaxFluctuation is the largest capacity fluctuation σ a memory takes.
const MaxFluctuation = math.MaxInt32

// Perfect reports whether the memory never forgets.
func (m Memory) Perfect() bool { return m.Forget == ForgetNone }

// String describes the memory, for example "perfect", "lru(7)", "decay(q=0.1)",
// "lru(7, fluctuation 2)" or "lru(7), private".
func (m Memory) String() string {
	var s string
	switch {
	case m.Perfect():
		s = "perfect"
	case m.Forget == ForgetDecay && m.Capacity == 0:
		s = fmt.Sprintf("decay(q=%g)", m.Decay)
	case m.Forget == ForgetDecay:
		s = fmt.Sprintf("decay(%d, q=%g)", m.Capacity, m.Decay)
	case m.Fluctuation > 0:
		s = fmt.Sprintf("%s(%d, fluctuation %d)", m.Forget, m.Capacity, m.Fluctuation)
	default:
		s = fmt.Sprintf("%s(%d)", m.Forget, m.Capacity)
	}
	if m.Scope == ScopePrivate {
		s += ", private"
	}
	return s
}

// Validate reports whether the memory is well formed: perfect memory has no capacity; lru and
// handover-uniform need a capacity of at least 2; decay needs a probability 0 < q <= 1 and takes a
// capacity of 0 (no limit) or at least 2.
func (m Memory) Validate() error {
	switch {
	case m.Capacity < 0 || m.Capacity == 1:
		return fmt.Errorf("memory capacity %d: must be 0 (perfect memory) or at least 2", m.Capacity)
	case m.Forget > ForgetDecay:
		return fmt.Errorf("forgetting rule %s: unknown", m.Forget)
	case m.Scope > ScopePrivate:
		return fmt.Errorf("memory scope %s: unknown", m.Scope)
	case m.Forget == ForgetNone && m.Capacity > 0:
		return fmt.Errorf("memory capacity %d needs a forgetting rule (allowed: handover-uniform, lru, decay)", m.Capacity)
	case (m.Forget == ForgetHandoverUniform || m.Forget == ForgetLRU) && m.Capacity == 0:
		return fmt.Errorf("forgetting rule %s needs a memory capacity of at least 2", m.Forget)
	case m.Forget == ForgetDecay && !(m.Decay > 0 && m.Decay <= 1):
		return fmt.Errorf("decay probability q = %g: must be in (0, 1]", m.Decay)
	case m.Forget != ForgetDecay && m.Decay != 0:
		return fmt.Errorf("decay probability q = %g: only decay forgetting takes one", m.Decay)
	case m.Fluctuation < 0 || m.Fluctuation > MaxFluctuation:
		return fmt.Errorf("capacity fluctuation %d: must be between 0 and %d", m.Fluctuation, MaxFluctuation)
	case m.Fluctuation > 0 && m.Forget != ForgetLRU && m.Forget != ForgetHandoverUniform:
		return fmt.Errorf("capacity fluctuation %d: only lru and handover-uniform forgetting take one (forget is %s)", m.Fluctuation, m.Forget)
	}
	return nil
}

// Holds reports whether the memory can hold k cards at the start of a turn.
func (m Memory) Holds(k int) bool { return m.Capacity == 0 || k <= m.Capacity }

// State is a position of the exact models at the start of a turn, as seen through a shared memory:
// N pairs on the table, J of them unknown (no card of the pair remembered; the other N-J pairs have
// exactly one card remembered), S singletons on the table, F of them unseen. No pair is fully known
// at the start of a turn: a mover who knows both cards of a pair takes it first. Lead is the
// mover's lead so far, its pairs minus the other seat's (two players): what a policy that plays to
// win looks at besides the counts (docs/models.md §4.13); the other policies, and the transitions
// of the counts, ignore it.
type State struct {
	N, J, S, F int
	Lead       int
}

// String formats the state as (n, j) or, with singletons, (n, j, s, f), with ", d=Lead" added
// when the lead is not 0.
func (st State) String() string {
	var s string
	if st.S == 0 {
		s = fmt.Sprintf("(n=%d, j=%d", st.N, st.J)
	} else {
		s = fmt.Sprintf("(n=%d, j=%d, s=%d, f=%d", st.N, st.J, st.S, st.F)
	}
	if st.Lead != 0 {
		s += fmt.Sprintf(", d=%d", st.Lead)
	}
	return s + ")"
}

// Counts returns the state without its lead: the count state the transitions act on.
func (st State) Counts() State {
	st.Lead = 0
	return st
}

// HalfKnown returns the number of pairs with exactly one card remembered, n - j.
func (st State) HalfKnown() int { return st.N - st.J }

// Known returns the number of remembered cards on the table: one per half-known pair and the
// seen singletons.
func (st State) Known() int { return st.N - st.J + st.S - st.F }

// Unknown returns the number of face-down cards the mover does not remember, u = n + j + f.
func (st State) Unknown() int { return st.N + st.J + st.F }

// Validate checks that the state is a position of a game with the given memory and returns an
// error naming the offending quantity otherwise.
func (st State) Validate(m Memory) error {
	switch {
	case st.N < 0:
		return fmt.Errorf("pairs %d: must be at least 0", st.N)
	case st.J < 0 || st.J > st.N:
		return fmt.Errorf("unknown pairs %d: must be between 0 and the number of pairs %d", st.J, st.N)
	case st.S < 0:
		return fmt.Errorf("singletons %d: must be at least 0", st.S)
	case st.F < 0 || st.F > st.S:
		return fmt.Errorf("unseen singletons %d: must be between 0 and the number of singletons %d", st.F, st.S)
	case !m.Holds(st.Known()):
		return fmt.Errorf("%d known cards (n - j + s - f) exceed the memory capacity %d", st.Known(), m.Capacity)
	}
	return nil
}

// Choice is what a mover decides at the start of a turn.
type Choice uint8

const (
	// Daring (the 2-move): flip an unknown card; if it is new, flip another unknown card.
	Daring Choice = iota
	// Safe (the 1-move): flip an unknown card; if it is new, flip a known card.
	Safe
	// KnownFirst: flip a known card first (a half-known pair's card if there is one, otherwise a
	// seen singleton), then an unknown card. It hands the move over, often with a pair, and is
	// strictly best in some states (docs/models.md §3.5); the published models leave it out.
	KnownFirst
	// Pass (the 0-move): flip two remembered cards that are not a pair, revealing nothing.
	Pass
	// NumChoices is the number of choices.
	NumChoices = 4
)

var choiceNames = [...]string{Daring: "daring", Safe: "safe", KnownFirst: "known-first", Pass: "pass"}

// String returns the choice's name.
func (c Choice) String() string { return nameOf(choiceNames[:], c, "Choice") }

// Choices lists every choice in the order used for tie-breaking: daring, safe, known-first, pass.
func Choices() [NumChoices]Choice { return [NumChoices]Choice{Daring, Safe, KnownFirst, Pass} }

// Allows reports whether the pass rule lets the mover pass in st.
func (p PassRule) Allows(st State) bool {
	switch p {
	case PassTwoKnown:
		return st.Known() >= 2
	case PassAlways:
		return true
	}
	return false
}

// Legal reports whether choice c is open to the mover in st under the pass rule. Daring is always
// legal (it is forced when nothing is remembered); Safe and KnownFirst need a remembered card.
func Legal(st State, c Choice, pass PassRule) bool {
	switch c {
	case Daring:
		return true
	case Safe, KnownFirst:
		return st.Known() >= 1
	case Pass:
		return pass.Allows(st)
	}
	return false
}

// HasDecision reports whether the safe-or-daring decision can arise in st: some pair is unknown,
// so the first card can be new, and a known card exists to make the safe move.
func HasDecision(st State) bool { return st.J >= 1 && st.Known() >= 1 }
