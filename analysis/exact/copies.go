package exact

import (
	"fmt"
	"strings"

	"memsim/sim/rules"
)

// CopiesState is the count state of a deal with k copies of a face (docs/models.md §4.16) at the
// start of a turn, under perfect memory and without singletons. The mover has taken every pair it
// remembers whole, so a face has at most one remembered card; a face on the table has an even
// number of cards, from 2 to k. Index i of both slices stands for the faces with 2(i+1) cards on
// the table; both slices have k/2 entries.
type CopiesState struct {
	// Unknown[i] is the number of faces with 2(i+1) cards on the table, none of them remembered.
	Unknown []int
	// Half[i] is the number of faces with 2(i+1) cards on the table, one of them remembered.
	Half []int
}

// StartCopiesState returns the state at the start of a game of the given number of pairs, copies
// cards to a face: every face whole and unseen.
func StartCopiesState(pairs, copies int) (CopiesState, error) {
	v := rules.Variant{Copies: copies}
	if err := v.Validate(); err != nil {
		return CopiesState{}, err
	}
	if err := v.ValidateDeal(pairs); err != nil {
		return CopiesState{}, err
	}
	st := CopiesState{Unknown: make([]int, copies/2), Half: make([]int, copies/2)}
	st.Unknown[copies/2-1] = v.Faces(pairs)
	return st, nil
}

// Copies returns the number of cards of a face in the deal the state belongs to.
func (st CopiesState) Copies() int { return 2 * len(st.Unknown) }

// Pairs returns the number of pairs on the table.
func (st CopiesState) Pairs() int {
	n := 0
	for i := range st.Unknown {
		n += (i + 1) * (st.Unknown[i] + st.Half[i])
	}
	return n
}

// Remembered returns the number of remembered cards: one per half-known face.
func (st CopiesState) Remembered() int {
	h := 0
	for _, a := range st.Half {
		h += a
	}
	return h
}

// UnknownCards returns the number of cards on the table that are not remembered.
func (st CopiesState) UnknownCards() int {
	u := 0
	for i := range st.Unknown {
		r := 2 * (i + 1)
		u += r*st.Unknown[i] + (r-1)*st.Half[i]
	}
	return u
}

// RulesState returns the state as rules.State counts it (docs/models.md §1.7): N pairs on the
// table, of which N - J stand for the faces with a remembered card.
func (st CopiesState) RulesState() rules.State {
	n := st.Pairs()
	return rules.State{N: n, J: n - st.Remembered()}
}

// Validate reports whether the state is well formed.
func (st CopiesState) Validate() error {
	k := st.Copies()
	switch {
	case len(st.Unknown) == 0 || len(st.Half) != len(st.Unknown):
		return fmt.Errorf("copies state: Unknown and Half must have the same length k/2 >= 1, not %d and %d", len(st.Unknown), len(st.Half))
	case k > rules.MaxCopies:
		return fmt.Errorf("copies state: %d copies, at most %d", k, rules.MaxCopies)
	}
	for i := range st.Unknown {
		if st.Unknown[i] < 0 || st.Half[i] < 0 {
			return fmt.Errorf("copies state: negative count of faces with %d cards", 2*(i+1))
		}
	}
	if f := st.faces(); f > maxCopiesFaces {
		return fmt.Errorf("copies state: %d faces, at most %d", f, maxCopiesFaces)
	}
	return nil
}

// maxCopiesFaces bounds the faces of a state, so that a count fits the state's key.
const maxCopiesFaces = 1 << 15

func (st CopiesState) faces() int {
	f := 0
	for i := range st.Unknown {
		f += st.Unknown[i] + st.Half[i]
	}
	return f
}

// String writes the state as its faces by cards on the table, largest first: "4:3u+1h,2:2u" is
// three unknown and one half-known face of 4 cards and two unknown faces of 2 cards; "empty" when
// no card is left.
func (st CopiesState) String() string {
	var parts []string
	for i := len(st.Unknown) - 1; i >= 0; i-- {
		var c []string
		if st.Unknown[i] > 0 {
			c = append(c, fmt.Sprintf("%du", st.Unknown[i]))
		}
		if st.Half[i] > 0 {
			c = append(c, fmt.Sprintf("%dh", st.Half[i]))
		}
		if len(c) > 0 {
			parts = append(parts, fmt.Sprintf("%d:%s", 2*(i+1), strings.Join(c, "+")))
		}
	}
	if len(parts) == 0 {
		return "empty"
	}
	return strings.Join(parts, ",")
}

// copiesVec is a state as one slice: v[2i+b] faces with 2(i+1) cards on the table, b of them
// remembered.
type copiesVec []int

func (st CopiesState) vec() copiesVec {
	v := make(copiesVec, 2*len(st.Unknown))
	for i := range st.Unknown {
		v[2*i], v[2*i+1] = st.Unknown[i], st.Half[i]
	}
	return v
}

func (v copiesVec) state() CopiesState {
	st := CopiesState{Unknown: make([]int, len(v)/2), Half: make([]int, len(v)/2)}
	for i := range st.Unknown {
		st.Unknown[i], st.Half[i] = v[2*i], v[2*i+1]
	}
	return st
}

// key encodes the state as a map key, two bytes a class.
func (v copiesVec) key() string { return string(rules.AppendCopiesKey(nil, v)) }

func vecOfKey(key string) copiesVec {
	v := make(copiesVec, len(key)/2)
	for i := range v {
		v[i] = int(key[2*i]) | int(key[2*i+1])<<8
	}
	return v
}

// copiesClass returns the index in a copiesVec of the faces with r cards on the table, b of them
// remembered; r >= 2.
func copiesClass(r, b int) int { return r - 2 + b }

// copiesOutcome is one outcome of a turn in the copies model: with probability Num/Den the turn
// ends in the state Next. Keep says that the mover took a pair and moves again; otherwise the
// next seat moves, and Handed is the number of pairs the turn left remembered whole, which that
// seat takes first (one, or under blind flips up to two; Next is the state after them). Lucky
// says that the mover took a pair of two cards neither of which was remembered.
type copiesOutcome struct {
	num, den    int64
	next        string
	handed      int
	keep, lucky bool
}

// copiesMove is the change of one class's count of faces.
type copiesMove struct{ class, delta int }

// moved returns the key of v with the moves applied; a move to a face with no card left is
// dropped (the face has left the table).
func (v copiesVec) moved(moves ...copiesMove) string {
	w := append(copiesVec(nil), v...)
	for _, m := range moves {
		if m.class >= 0 {
			w[m.class] += m.delta
		}
	}
	return w.key()
}

// taken returns the class of a face of r cards after a pair of it is taken and none of its
// remaining cards is remembered: -1 when no card of it is left.
func taken(r int) int {
	if r == 2 {
		return -1
	}
	return copiesClass(r-2, 0)
}

// copiesLegal reports whether choice c is open to the mover in v under pass rule never and the
// choice set s: daring always, safe and known-first when a card is remembered.
func copiesLegal(v copiesVec, c rules.Choice, s rules.ChoiceSet) bool {
	if !s.Has(c) {
		return false
	}
	switch c {
	case rules.Daring:
		return true
	case rules.Safe, rules.KnownFirst:
		return remembered(v) >= 1
	}
	return false
}

func remembered(v copiesVec) int {
	h := 0
	for i := 1; i < len(v); i += 2 {
		h += v[i]
	}
	return h
}

func unknownCards(v copiesVec) int {
	u := 0
	for c, a := range v {
		u += a * (c&^1 + 2 - c&1)
	}
	return u
}

// copiesOutcomes appends to out the outcomes of the legal choice c in v (docs/models.md §4.16), as
// the engine plays it card by card (§5.2): daring and safe flip an unknown card first; if a card
// of its face is remembered the mover takes the two; otherwise safe flips a remembered card (a
// miss) and daring another unknown card. Known-first flips the remembered card of a face with
// the most cards on the table, then an unknown card.
func copiesOutcomes(v copiesVec, c rules.Choice, out []copiesOutcome) []copiesOutcome {
	u := int64(unknownCards(v))
	if c == rules.KnownFirst {
		return knownFirstOutcomes(v, u, out)
	}
	safe := c == rules.Safe && remembered(v) >= 1
	for cl, a := range v {
		if a == 0 {
			continue
		}
		r, b := cl&^1+2, cl&1
		cards := int64(a * (r - b))
		if b == 1 {
			out = append(out, copiesOutcome{num: cards, den: u, keep: true,
				next: v.moved(copiesMove{cl, -1}, copiesMove{taken(r), 1})})
			continue
		}
		seen := []copiesMove{{cl, -1}, {copiesClass(r, 1), 1}} // the first card is remembered
		if safe {
			out = append(out, copiesOutcome{num: cards, den: u, next: v.moved(seen...)})
			continue
		}
		den := u * (u - 1)
		out = append(out, copiesOutcome{num: cards * int64(r-1), den: den, keep: true, lucky: true,
			next: v.moved(copiesMove{cl, -1}, copiesMove{taken(r), 1})})
		out = secondUnknown(v, cl, cards, den, seen, out)
	}
	return out
}

// knownFirstOutcomes appends the outcomes of known-first in v, with u unknown cards.
func knownFirstOutcomes(v copiesVec, u int64, out []copiesOutcome) []copiesOutcome {
	cl := -1
	for c := len(v) - 1; c >= 1; c -= 2 {
		if v[c] > 0 {
			cl = c
			break
		}
	}
	r := cl&^1 + 2
	out = append(out, copiesOutcome{num: int64(r - 1), den: u, keep: true,
		next: v.moved(copiesMove{cl, -1}, copiesMove{taken(r), 1})})
	return secondUnknown(v, cl, 1, u, nil, out)
}

// secondUnknown appends the outcomes of a second card turned up among the unknown cards of v not
// of the first card's face (of class cl, whose own cards its caller counts): each with weight
// scale·(the class's unknown cards)/den, after the moves seen of the first card. A card of a
// half-known face leaves that face known whole, and the next seat takes the pair first; a card of
// an unknown face makes it half-known.
func secondUnknown(v copiesVec, cl int, scale, den int64, seen []copiesMove, out []copiesOutcome) []copiesOutcome {
	seen = seen[:len(seen):len(seen)] // each outcome appends its own moves to a copy
	for cl2, a2 := range v {
		if cl2 == cl {
			a2-- // the first card's face is counted by the caller
		}
		if a2 <= 0 {
			continue
		}
		r2, b2 := cl2&^1+2, cl2&1
		num := scale * int64(a2*(r2-b2))
		if b2 == 1 {
			out = append(out, copiesOutcome{num: num, den: den, handed: 1,
				next: v.moved(append(seen, copiesMove{cl2, -1}, copiesMove{taken(r2), 1})...)})
			continue
		}
		out = append(out, copiesOutcome{num: num, den: den,
			next: v.moved(append(seen, copiesMove{cl2, -1}, copiesMove{copiesClass(r2, 1), 1})...)})
	}
	return out
}

// CopiesStates returns the number of count states of a deal of the given pairs and copies of a
// face: the ways to put at most 2·pairs/copies faces into the copies classes (cards on the table
// 2, 4, .., copies; one card remembered or none), C(faces + copies, copies), or -1 beyond 2^62.
func CopiesStates(pairs, copies int) int64 {
	faces := int64(2 * pairs / copies)
	c := int64(1)
	for i := int64(1); i <= int64(copies); i++ {
		// c = C(faces + i, i), exact at every step.
		if c > (1<<62)/(faces+i) {
			return -1
		}
		c = c * (faces + i) / i
	}
	return c
}

// CopiesRationalStates is the largest number of count states (CopiesStates) for which a player's
// copies table is solved in exact rationals; larger ones are solved in float64.
const CopiesRationalStates = 20000

// CopiesStateLimit is the largest number of count states a copies table is solved for.
const CopiesStateLimit = 2000000

// ParseCopiesState parses a state as CopiesState.String writes it, for a deal of copies cards to
// a face: groups "R:Au+Bh" separated by commas (or spaces), A faces with R cards on the table
// none of which is remembered and B with one remembered (either part may be left out; R even, 2
// to copies).
func ParseCopiesState(s string, copies int) (CopiesState, error) {
	if err := (rules.Variant{Copies: copies}).Validate(); err != nil {
		return CopiesState{}, err
	}
	st := CopiesState{Unknown: make([]int, copies/2), Half: make([]int, copies/2)}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(fields) == 0 {
		return CopiesState{}, fmt.Errorf("state %q: no faces (write groups such as 4:3u+1h,2:2u)", s)
	}
	for _, g := range fields {
		rs, counts, ok := strings.Cut(g, ":")
		var r int
		if _, err := fmt.Sscanf(rs, "%d", &r); !ok || err != nil || fmt.Sprint(r) != rs {
			return CopiesState{}, fmt.Errorf("state %q: group %q: want R:Au+Bh (R cards on the table)", s, g)
		}
		if r < 2 || r > copies || r%2 != 0 {
			return CopiesState{}, fmt.Errorf("state %q: group %q: %d cards on the table, must be even, 2 to %d", s, g, r, copies)
		}
		for _, part := range strings.Split(counts, "+") {
			var a int
			var kind byte
			if len(part) < 2 {
				return CopiesState{}, fmt.Errorf("state %q: group %q: %q is not Au or Bh", s, g, part)
			}
			kind = part[len(part)-1]
			if _, err := fmt.Sscanf(part[:len(part)-1], "%d", &a); err != nil || fmt.Sprint(a) != part[:len(part)-1] || a < 0 {
				return CopiesState{}, fmt.Errorf("state %q: group %q: %q is not Au or Bh", s, g, part)
			}
			switch kind {
			case 'u':
				st.Unknown[r/2-1] += a
			case 'h':
				st.Half[r/2-1] += a
			default:
				return CopiesState{}, fmt.Errorf("state %q: group %q: %q is not Au (unknown faces) or Bh (half-known faces)", s, g, part)
			}
		}
	}
	if err := st.Validate(); err != nil {
		return CopiesState{}, err
	}
	return st, nil
}

// CheckCopies reports whether the copies model m can evaluate the matchup mu.
func CheckCopies(m Model, mu Lineup) error {
	if isCopiesMem(m) {
		return checkCopiesMem(m, mu) // copiesmem.go
	}
	if isCopiesDecay(m) {
		return checkCopiesDecay(m, mu) // copiesdecay.go
	}
	if isCopiesSelfWin(m, mu) {
		return checkCopiesSelfWin(m, mu)
	}
	return checkCopies(m, mu)
}
