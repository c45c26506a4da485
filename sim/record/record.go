// Package record reads and writes game records in the format memsim-record/1 (docs/records.md):
// the rules of a game, its players and every card turned, as JSON lines. Every game read is
// refereed move by move against the rules (package rules), so that a record that could not have
// been played is refused with the line and the field at fault, and the turns of a game that could
// are given with the table as a perfect memory saw it before each one.
//
// The package knows the rules and nothing of the engine: records are written by the engine's
// users (memsim replay, memsim run, memsim play) and read by the review, in the analysis.
package record

import (
	"fmt"
	"time"

	"memsim/sim/rules"
)

// Format is the format's name and version, the value of a game line's "format".
const Format = "memsim-record/1"

// Bounds of a record's rules.
const (
	MaxPairs      = 1000
	MaxSingletons = 1000
)

// Rules are the rules a game was played by.
type Rules struct {
	// Pairs and Singletons are the cards dealt; Seats the number of players (1 to
	// rules.MaxPlayers).
	Pairs, Singletons, Seats int
	// Pass is the pass rule.
	Pass rules.PassRule
	// Choices is the choice set a review judges the decisions in.
	Choices rules.ChoiceSet
	// Variant holds the rule variant (docs/models.md §1.7): copies of a face, blind flips, a
	// turn limit; the zero Variant is the standard game.
	Variant rules.Variant
}

// Cards returns the number of cards dealt, 2*Pairs + Singletons.
func (r Rules) Cards() int { return 2*r.Pairs + r.Singletons }

// PairFaces returns the number of pair faces: Pairs in the standard game, 2*Pairs/copies with
// copies of a face. Faces below it are pair faces, those from it on singletons.
func (r Rules) PairFaces() int { return r.Variant.Faces(r.Pairs) }

// Faces returns the number of faces, pair faces and singletons.
func (r Rules) Faces() int { return r.PairFaces() + r.Singletons }

// Validate reports the first rule out of its range.
func (r Rules) Validate() error {
	switch {
	case r.Pairs < 1 || r.Pairs > MaxPairs:
		return fmt.Errorf("pairs: %d is out of range (1 to %d)", r.Pairs, MaxPairs)
	case r.Singletons < 0 || r.Singletons > MaxSingletons:
		return fmt.Errorf("singletons: %d is out of range (0 to %d)", r.Singletons, MaxSingletons)
	case r.Seats < 1 || r.Seats > rules.MaxPlayers:
		return fmt.Errorf("seats: %d is out of range (1 to %d)", r.Seats, rules.MaxPlayers)
	case r.Pass > rules.PassAlways:
		return fmt.Errorf("pass: %v is not a pass rule", r.Pass)
	}
	if err := r.Choices.Validate(); err != nil {
		return fmt.Errorf("choices: %w", err)
	}
	return r.validateVariant()
}

// validateVariant reports the first rule of the variant out of its range, named as the record
// writes it (copies, flips, turn_limit).
func (r Rules) validateVariant() error {
	v := r.Variant
	switch c := v.CopiesOf(); {
	case v.Copies < 0 || c%2 != 0 || c > rules.MaxCopies:
		return fmt.Errorf("copies: %d is not an even number from 2 to %d", v.Copies, rules.MaxCopies)
	case v.Flips > rules.FlipsBlind:
		return fmt.Errorf("flips: %v is not a flip rule", v.Flips)
	case v.TurnLimit < 0:
		return fmt.Errorf("turn_limit: %d is negative (0 for no limit)", v.TurnLimit)
	case (2*r.Pairs)%c != 0:
		return fmt.Errorf("copies: %d pairs do not make whole faces of %d cards (pairs must be a multiple of %d)", r.Pairs, c, c/2)
	}
	return nil
}

// Kinds of player.
const (
	KindPerson  = "person"
	KindBuiltIn = "built-in"
	KindProgram = "program"
)

// Player is who sat at a seat.
type Player struct {
	// Name is the player's name, not empty.
	Name string
	// Kind is KindPerson, KindBuiltIn, KindProgram, or empty when not known.
	Kind string
	// About is free text: a policy, a program's name and version.
	About string
}

// Move is a flip or a pass.
type Move struct {
	// Seat is the seat that moved. On reading it is always set (the record may leave it out); a
	// game built in code may set it to -1 to let Check work it out.
	Seat int
	// Pass reports a pass; otherwise the move turned the card at Pos, which showed Face.
	Pass      bool
	Pos, Face int
	// MS is the time of the move in milliseconds since the game began, or -1 when not known.
	MS int64
}

// Flip returns the move that turns the card at pos, showing face, with no seat or time given.
func Flip(pos, face int) Move { return Move{Seat: -1, Pos: pos, Face: face, MS: -1} }

// PassMove returns a pass with no seat or time given.
func PassMove() Move { return Move{Seat: -1, Pass: true, MS: -1} }

// Game is one recorded game.
type Game struct {
	Rules   Rules
	Players []Player // one per seat, or none
	// Deal is the face at every position, or nil when not recorded.
	Deal []int
	// Started is when the game began; the zero time when not recorded.
	Started time.Time
	// Meta is the writer's own information, kept as it is.
	Meta map[string]string
	// Moves are the moves in the order they were made.
	Moves []Move
	// Ended reports that the record closes the game with its scores (an end line); Check sets it
	// when the game is over, and the Writer then writes the end line.
	Ended bool

	// Line is the line of the game's game line in the file it was read from (0 for a game built
	// in code).
	Line int
	// Turns and Result are worked out by Check (and by the Reader, which checks every game).
	Turns  []Turn
	Result Result
}

// Result is how a game came out.
type Result struct {
	// Taken[i] is the number of pairs seat i took.
	Taken []int
	// Left is the number of pairs still on the table.
	Left int
	// Over reports that the game is finished: every pair taken, or a stalemate. A game that is
	// not over is unfinished.
	Over bool
	// Stalemate reports that the game ended with every seat passing in turn and the pairs left
	// shared equally.
	Stalemate bool
	// Limited reports that the game ended at the rules' turn limit with pairs left on the table,
	// which count for nobody.
	Limited bool
	// Scores[i] is seat i's score: its pairs, plus Left/Seats after a stalemate (and nothing for
	// the pairs left at a turn limit).
	Scores []float64
	// Mover is the seat to move next and Next the table at the start of its turn, for a game that
	// is not over and does not stop in the middle of a turn (the game's last Turn then ends
	// EndUnfinished).
	Mover int
	Next  Table
}

// Turn is one turn of a game: a pass, or two flips (one, when the record stops in the middle of
// the turn).
type Turn struct {
	// Seat moved; Before is the table at the start of the turn.
	Seat   int
	Before Table
	// First is the index of the turn's first move in Game.Moves, and Moves the number of moves
	// (1 for a pass, 2, or 1 for an unfinished turn).
	First, Moves int
	// End says how the turn ended.
	End TurnEnd
}

// TurnEnd says how a turn ended.
type TurnEnd uint8

const (
	// EndPair: the two cards matched; the seat took the pair and moves again.
	EndPair TurnEnd = iota
	// EndMiss: two cards that do not match, at least one of them never seen before the turn.
	EndMiss
	// EndPass: a pass line, or two cards seen before the turn that do not match.
	EndPass
	// EndUnfinished: the record stops after the turn's first card.
	EndUnfinished
)

// String names the end: "pair", "miss", "pass" or "unfinished".
func (e TurnEnd) String() string {
	switch e {
	case EndPair:
		return "pair"
	case EndMiss:
		return "miss"
	case EndPass:
		return "pass"
	case EndUnfinished:
		return "unfinished"
	}
	return fmt.Sprintf("TurnEnd(%d)", uint8(e))
}

// Table is the table at the start of a turn as a perfect memory sees it: every card ever shown is
// known.
type Table struct {
	// Pairs are the pairs on the table: Unknown of them with no card seen, Whole with both seen,
	// the others with one card seen. With copies of a face (docs/models.md §1.7) Whole counts the
	// pairs a face's seen cards make and the others with one card seen are one per face with an
	// odd number of seen cards on the table.
	Pairs, Unknown, Whole int
	// Singletons are on the table, UnseenSingletons of them never seen.
	Singletons, UnseenSingletons int
	// Taken[i] is the number of pairs seat i has taken.
	Taken []int
	// AfterPass reports that the turn before was another seat's pass.
	AfterPass bool
	// Turn is the number of turns played before this one; under a turn limit, Limit - Turn turns
	// are left, this one included.
	Turn int
}

// Known returns the number of seen cards on the table.
func (t Table) Known() int {
	return 2*t.Whole + (t.Pairs - t.Unknown - t.Whole) + t.Singletons - t.UnseenSingletons
}

// State returns the count state of the mover at seat: n, j, s and f as a perfect memory sees the
// table once it has taken the pairs it knows whole (docs/models.md §3.1: n counts the other
// pairs), and, with two seats, the mover's lead then.
func (t Table) State(seat int) rules.State {
	st := rules.State{N: t.Pairs - t.Whole, J: t.Unknown, S: t.Singletons, F: t.UnseenSingletons}
	if len(t.Taken) == 2 {
		st.Lead = t.Taken[seat] + t.Whole - t.Taken[1-seat]
	}
	return st
}
