package play

import (
	"fmt"
	"strings"

	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// Seat is who sits at a seat.
type Seat struct {
	// Name is the player's name; Person reports the person's seat.
	Name   string
	Person bool
	// Memory describes a bot's memory model ("perfect", "lru(7)").
	Memory string
	// Program reports a player that is a process, which keeps its own memory.
	Program bool
}

// Turn is one turn as the table saw it: the seat, the cards it flipped and how it ended.
type Turn struct {
	Seat  int
	Flips []sim.Card
	// End is "pair", "miss" or "pass".
	End string
}

// Table is the game as every player sees it, kept from the engine's events: the cards on the
// table, those face up, the faces shown so far, the pairs each seat took, the turn under way and
// the last one, and the moves for the record.
type Table struct {
	Pairs, Singletons int
	// Variant is the game's rule variant (docs/models.md §1.7); the zero Variant is the standard
	// game.
	Variant rules.Variant
	Seats   []Seat
	Layout  Layout
	// Scores[i] is the number of pairs seat i took.
	Scores []int
	// Mover is the seat to move; TurnNo the number of the turn under way, from 1.
	Mover, TurnNo int
	// Flips are the cards of the turn under way; Last is the turn before it (no flips and End ""
	// before the first).
	Flips []sim.Card
	Last  Turn
	// Moves are the moves so far, timed, for the record.
	Moves []record.Move

	face  []int // the face each position showed, -1 when never flipped
	up    []bool
	taken []bool
}

// NewTable returns the table of a game of the given deal and seats, before its first move.
func NewTable(pairs, singletons int, seats []Seat) *Table {
	cards := 2*pairs + singletons
	t := &Table{Pairs: pairs, Singletons: singletons, Seats: seats, Layout: NewLayout(cards),
		Scores: make([]int, len(seats)), TurnNo: 1,
		face: make([]int, cards), up: make([]bool, cards), taken: make([]bool, cards)}
	for i := range t.face {
		t.face[i] = -1
	}
	return t
}

// Cell returns what the board shows at pos.
func (t *Table) Cell(pos int) Cell {
	switch {
	case t.taken[pos]:
		return Taken
	case t.up[pos]:
		return Up
	}
	return Down
}

// Face returns the face pos showed, or -1 when it was never flipped.
func (t *Table) Face(pos int) int { return t.face[pos] }

// FaceName names a face as memsim replay does: P0, P1, ... for the pair faces (with copies of a
// face, fewer than the pairs), S0, S1, ... for the singletons.
func (t *Table) FaceName(face int) string {
	if f := t.Variant.Faces(t.Pairs); face >= f {
		return fmt.Sprintf("S%d", face-f)
	}
	return fmt.Sprintf("P%d", face)
}

// Card names a flipped card: its coordinate and its face, "c2 P3".
func (t *Table) Card(c sim.Card) string {
	return t.Layout.Coord(c.Pos) + " " + t.FaceName(c.Face)
}

// Name names seat i for messages: "you" for the person's seat when it is called so, the
// player's name otherwise, with the seat's number when two seats have the same name.
func (t *Table) Name(i int) string {
	name := t.Seats[i].Name
	for k, s := range t.Seats {
		if k != i && s.Name == name {
			return fmt.Sprintf("%s (seat %d)", name, i)
		}
	}
	return name
}

// verb returns the verb (in the third person, "flips") as seat i's name takes it: "you flip".
func (t *Table) verb(i int, v string) string {
	if t.Name(i) != "you" {
		return v
	}
	if strings.HasSuffix(v, "ses") {
		return strings.TrimSuffix(v, "es")
	}
	return strings.TrimSuffix(v, "s")
}

// Left returns the pairs still on the table.
func (t *Table) Left() int {
	left := t.Pairs
	for _, s := range t.Scores {
		left -= s
	}
	return left
}

// Apply records event e, which happened ms milliseconds after the game began.
func (t *Table) Apply(e sim.Event, ms int64) {
	switch e.Kind {
	case sim.EventFlip:
		t.Mover = e.Seat
		t.face[e.Pos], t.up[e.Pos] = e.Face, true
		t.Flips = append(t.Flips, sim.Card{Pos: e.Pos, Face: e.Face})
		m := record.Flip(e.Pos, e.Face)
		m.Seat, m.MS = e.Seat, ms
		t.Moves = append(t.Moves, m)
	case sim.EventPair:
		t.taken[e.Pos], t.taken[e.Pos2] = true, true
		t.Scores[e.Seat]++
		t.endTurn(e.Seat, "pair")
	case sim.EventPass:
		if len(t.Flips) == 0 {
			m := record.PassMove()
			m.Seat, m.MS = e.Seat, ms
			t.Moves = append(t.Moves, m)
		}
		t.endTurn(e.Seat, "pass")
	case sim.EventHandover:
		if len(t.Flips) > 0 {
			t.endTurn(t.Mover, "miss")
		}
		t.Mover = e.Seat
	}
}

// endTurn closes the turn under way: its cards go face down (or were taken), and the next turn
// begins.
func (t *Table) endTurn(seat int, end string) {
	t.Last = Turn{Seat: seat, Flips: append([]sim.Card(nil), t.Flips...), End: end}
	for _, c := range t.Flips {
		t.up[c.Pos] = false
	}
	t.Flips = t.Flips[:0]
	t.TurnNo++
}

// ScoreLine gives every seat's pairs: "scores: you 1, daring 2".
func (t *Table) ScoreLine() string {
	parts := make([]string, len(t.Seats))
	for i := range t.Seats {
		parts[i] = fmt.Sprintf("%s %d", t.Name(i), t.Scores[i])
	}
	return "scores: " + strings.Join(parts, ", ")
}

// LastLine describes the last turn: "last turn: daring flipped a1 P0 and c2 P1: no pair", or ""
// before the first.
func (t *Table) LastLine() string {
	l := t.Last
	if l.End == "" {
		return ""
	}
	return fmt.Sprintf("last turn: %s %s", t.Name(l.Seat), t.turnText(l))
}

// turnText describes a finished turn: "flipped a1 P0 and c2 P1: no pair".
func (t *Table) turnText(l Turn) string {
	if len(l.Flips) == 0 {
		return "passed"
	}
	cards := make([]string, len(l.Flips))
	for i, c := range l.Flips {
		cards[i] = t.Card(c)
	}
	s := "flipped " + strings.Join(cards, " and ")
	switch l.End {
	case "pair":
		return s + ": a pair, taken"
	case "pass":
		return s + ": both seen before, no pair: a pass"
	}
	return s + ": no pair"
}

// EventLine describes event e, once applied, in one line for the log of the game; "" for an
// event that needs none.
func (t *Table) EventLine(e sim.Event) string {
	switch e.Kind {
	case sim.EventFlip:
		return fmt.Sprintf("%s %s %s", t.Name(e.Seat), t.verb(e.Seat, "flips"), t.Card(sim.Card{Pos: e.Pos, Face: e.Face}))
	case sim.EventPair:
		return fmt.Sprintf("%s %s the pair %s and %s again (%s)", t.Name(e.Seat), t.verb(e.Seat, "takes"), t.FaceName(e.Face), t.verb(e.Seat, "moves"), t.ScoreLine())
	case sim.EventPass:
		if len(t.Last.Flips) > 0 {
			return fmt.Sprintf("%s: both cards seen before and no pair: a pass", t.Name(e.Seat))
		}
		return fmt.Sprintf("%s %s", t.Name(e.Seat), t.verb(e.Seat, "passes"))
	case sim.EventHandover:
		if t.Last.End == "miss" {
			return fmt.Sprintf("no pair; %s to move", t.Name(e.Seat))
		}
		return fmt.Sprintf("%s to move", t.Name(e.Seat))
	}
	return ""
}
