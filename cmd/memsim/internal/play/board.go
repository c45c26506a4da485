// Package play seats a person at a game of Memory against the engine's players (memsim play): the
// table as every player sees it, drawn as a board with coordinates; the person's seat, a
// sim.Strategy that asks the person for each flip and accepts only legal ones; and the two ways of
// asking, keys on a terminal in raw mode and lines over a pipe.
package play

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxColumns is the widest board: columns a to l, so that the letters of the keys p (pass), m
// (memory) and q (quit) are never a column's.
const MaxColumns = 12

// Layout places the positions 0 .. Cards-1 of a deal in a grid, row by row: position p is in row
// p / Cols (numbered from 1) and column p % Cols (lettered from a). Its coordinate is the column's
// letter and the row's number, such as c2.
type Layout struct {
	Cards, Cols, Rows int
}

// NewLayout returns the layout of a deal of cards cards: about one and a half times as many
// columns as rows, at most MaxColumns.
func NewLayout(cards int) Layout {
	cols := min(MaxColumns, max(1, int(math.Ceil(math.Sqrt(1.5*float64(cards))))))
	return Layout{Cards: cards, Cols: cols, Rows: (cards + cols - 1) / cols}
}

// Coord returns the coordinate of position pos, such as c2.
func (l Layout) Coord(pos int) string {
	return fmt.Sprintf("%c%d", 'a'+pos%l.Cols, pos/l.Cols+1)
}

// Last returns the coordinate of the last position.
func (l Layout) Last() string { return l.Coord(l.Cards - 1) }

// Parse reads a card the person names: a coordinate (c2, C2) or a position number (7). It says in
// one line why a text names no card of the deal.
func (l Layout) Parse(s string) (int, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return 0, fmt.Errorf("no card given: %s", l.hint())
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 || n >= l.Cards {
			return 0, fmt.Errorf("no card %d: the positions are 0 to %d", n, l.Cards-1)
		}
		return n, nil
	}
	col := int(s[0]) - 'a'
	row, err := strconv.Atoi(s[1:])
	if s[0] < 'a' || s[0] > 'z' || err != nil || strings.ContainsAny(s[1:], "+-") {
		return 0, fmt.Errorf("%q is not a card: %s", cut(s), l.hint())
	}
	pos := (row-1)*l.Cols + col
	if col >= l.Cols || row < 1 || row > l.Rows || pos >= l.Cards {
		return 0, fmt.Errorf("no card %s on this board: %s", s, l.hint())
	}
	return pos, nil
}

// hint says how cards are named.
func (l Layout) hint() string {
	return fmt.Sprintf("name a card by its coordinate, a1 to %s, or its number, 0 to %d", l.Last(), l.Cards-1)
}

// cut shortens a text quoted in a message to 20 characters.
func cut(s string) string {
	if r := []rune(s); len(r) > 20 {
		return string(r[:20]) + "…"
	}
	return s
}

// Cell is what the board shows at a position.
type Cell uint8

const (
	// Down is a face-down card.
	Down Cell = iota
	// Up is a face-up card, showing its face.
	Up
	// Taken is the place of a card taken with its pair.
	Taken
)

// Symbols of the board.
const (
	downMark  = "##"
	takenMark = ".."
)

// Board draws the grid of t: a header of column letters, then a row per line beginning with the
// row's number; a face-down card is ##, a face-up card its face (P3, S0), a taken card's place ..,
// and the card at cursor (when cursor >= 0) is bracketed, [##].
func Board(t *Table, cursor int) []string {
	l := t.Layout
	w := 2
	for pos := range l.Cards {
		if t.Cell(pos) == Up {
			w = max(w, len(t.FaceName(t.Face(pos))))
		}
	}
	rowW := len(strconv.Itoa(l.Rows))
	var lines []string
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", rowW+1))
	for c := range l.Cols {
		fmt.Fprintf(&b, " %-*c ", w, 'a'+c)
	}
	lines = append(lines, strings.TrimRight(b.String(), " "))
	for r := range l.Rows {
		b.Reset()
		fmt.Fprintf(&b, "%*d ", rowW, r+1)
		for c := range l.Cols {
			pos := r*l.Cols + c
			if pos >= l.Cards {
				break
			}
			var s string
			switch t.Cell(pos) {
			case Down:
				s = downMark
			case Up:
				s = t.FaceName(t.Face(pos))
			case Taken:
				s = takenMark
			}
			open, close := " ", " "
			if pos == cursor {
				open, close = "[", "]"
			}
			fmt.Fprintf(&b, "%s%-*s%s", open, w, s, close)
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return lines
}
