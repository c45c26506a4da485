package rules

import (
	"fmt"
	"strings"
)

// Flips says when the mover sees its first card: before naming the second (sequential, the
// standard game) or only after naming both (blind).
type Flips uint8

const (
	// FlipsSequential turns the first card up before the mover names the second.
	FlipsSequential Flips = iota
	// FlipsBlind has the mover name both cards before either is turned up.
	FlipsBlind
)

var flipsNames = [...]string{FlipsSequential: "sequential", FlipsBlind: "blind"}

// String returns the flip rule's name as written in configurations.
func (f Flips) String() string { return nameOf(flipsNames[:], f, "Flips") }

// ParseFlips parses a flip rule: sequential or blind.
func ParseFlips(name string) (Flips, error) {
	return parseName[Flips](flipsNames[:], name, "flip rule", flipsNames[:])
}

// DefaultCopies is the number of cards of a face in the standard game: two, a pair.
const DefaultCopies = 2

// MaxCopies is the largest number of cards of one face.
const MaxCopies = 64

// Variant is the part of the rules in which the games people play differ from the standard game
// of docs/models.md §1 (§1.7): how many cards share a face, whether the two cards of a turn are
// named blind, and a limit on the number of turns. The zero Variant is the standard game.
type Variant struct {
	// Copies is the number of cards of each pair face, an even number from 2 to MaxCopies; 0
	// means DefaultCopies. Any two cards of a face match, so a face of k cards makes k/2 pairs.
	Copies int
	// Flips says whether the mover sees its first card before naming the second.
	Flips Flips
	// TurnLimit, when positive, ends the game after that many turns; the pairs still on the
	// table then count for nobody. 0 means no limit.
	TurnLimit int
}

// CopiesOf returns the number of cards of each pair face: Copies, or DefaultCopies when it is 0.
func (v Variant) CopiesOf() int {
	if v.Copies == 0 {
		return DefaultCopies
	}
	return v.Copies
}

// Standard reports whether the variant is the standard game (two copies, sequential flips, no
// turn limit).
func (v Variant) Standard() bool {
	return v.CopiesOf() == DefaultCopies && v.Flips == FlipsSequential && v.TurnLimit == 0
}

// Normal returns the variant with Copies written out as DefaultCopies when it is 0, so that two
// variants of the same rules compare equal.
func (v Variant) Normal() Variant {
	v.Copies = v.CopiesOf()
	return v
}

// Faces returns the number of pair faces of a deal of the given number of pairs: 2·pairs/copies.
func (v Variant) Faces(pairs int) int { return 2 * pairs / v.CopiesOf() }

// Validate reports whether the variant is well formed. A copies value must be even, so that every
// card of a face can be matched; this keeps the end of the game (no pair left on the table) and
// the score (pairs) as in the standard game.
func (v Variant) Validate() error {
	c := v.CopiesOf()
	switch {
	case v.Copies < 0 || c%2 != 0 || c > MaxCopies:
		return fmt.Errorf("copies %d: must be an even number from 2 to %d", v.Copies, MaxCopies)
	case v.Flips > FlipsBlind:
		return fmt.Errorf("flip rule %s: unknown (allowed: %s)", v.Flips, strings.Join(flipsNames[:], ", "))
	case v.TurnLimit < 0:
		return fmt.Errorf("turn limit %d: must be at least 1 (or 0 for none)", v.TurnLimit)
	}
	return nil
}

// ValidateDeal reports whether a deal of the given number of pairs can be dealt: its 2·pairs
// cards must make whole faces of Copies cards.
func (v Variant) ValidateDeal(pairs int) error {
	if c := v.CopiesOf(); (2*pairs)%c != 0 {
		return fmt.Errorf("%d pairs with copies %d: the %d cards must make whole faces of %d cards (pairs a multiple of %d)",
			pairs, c, 2*pairs, c, c/2)
	}
	return nil
}

// String describes the variant: "standard", or its rules that differ from the standard game,
// for example "copies 4, blind flips, turn limit 40".
func (v Variant) String() string {
	var parts []string
	if c := v.CopiesOf(); c != DefaultCopies {
		parts = append(parts, fmt.Sprintf("copies %d", c))
	}
	if v.Flips != FlipsSequential {
		parts = append(parts, v.Flips.String()+" flips")
	}
	if v.TurnLimit > 0 {
		parts = append(parts, fmt.Sprintf("turn limit %d", v.TurnLimit))
	}
	if len(parts) == 0 {
		return "standard"
	}
	return strings.Join(parts, ", ")
}

// Board is a named preset of a deal and its variant (docs/tournaments.md, "Board presets").
type Board struct {
	// Name is the preset's name as written in configurations.
	Name string
	// Pairs is the deal size, in pairs of cards.
	Pairs int
	// Variant holds the preset's rules; a field left zero is the standard rule.
	Variant Variant
	// About says what the preset models.
	About string
}

// Boards lists the board presets, in the order the documentation lists them.
func Boards() []Board {
	return []Board{
		{Name: "tournament-32", Pairs: 32, About: "the 64-card board of Memory tournaments (8 x 8)"},
		{Name: "deck-52-rank", Pairs: 26, Variant: Variant{Copies: 4},
			About: "a 52-card deck matched by rank: 13 faces of 4 cards"},
		{Name: "deck-52-colour", Pairs: 26, Variant: Variant{Copies: 26},
			About: "a 52-card deck matched by colour: 2 faces of 26 cards"},
		{Name: "popgym-easy", Pairs: 26, Variant: Variant{Copies: 26, TurnLimit: 52},
			About: "POPGym's ConcentrationEasy: one deck matched by colour, 104 flips"},
		{Name: "popgym-medium", Pairs: 52, Variant: Variant{Copies: 52, TurnLimit: 104},
			About: "POPGym's ConcentrationMedium: two decks matched by colour, 208 flips"},
		{Name: "popgym-hard", Pairs: 26, Variant: Variant{Copies: 4, TurnLimit: 52},
			About: "POPGym's ConcentrationHard: one deck matched by rank, 104 flips"},
		{Name: "textarena", Pairs: 8, Variant: Variant{Flips: FlipsBlind, TurnLimit: 31},
			About: "TextArena's MemoryGame-v0: a 4 x 4 grid, both cards named at once, 31 moves"},
		{Name: "textarena-medium", Pairs: 18, Variant: Variant{Flips: FlipsBlind, TurnLimit: 51},
			About: "TextArena's MemoryGame-v0-medium: a 6 x 6 grid, both cards named at once, 51 moves"},
		{Name: "textarena-hard", Pairs: 32, Variant: Variant{Flips: FlipsBlind, TurnLimit: 81},
			About: "TextArena's MemoryGame-v0-hard: an 8 x 8 grid, both cards named at once, 81 moves"},
	}
}

// ParseBoard returns the preset of that name, or an error listing the allowed names.
func ParseBoard(name string) (Board, error) {
	var names []string
	for _, b := range Boards() {
		if b.Name == name {
			return b, nil
		}
		names = append(names, b.Name)
	}
	return Board{}, fmt.Errorf("unknown board %q (allowed: %s)", name, strings.Join(names, ", "))
}
