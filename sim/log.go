package sim

import (
	"fmt"
	"io"
	"strings"

	"memsim/sim/rules"
)

// Log records one game flip by flip, for replays.
type Log struct {
	Pairs, Singletons int
	// Variant is the game's rule variant (Setup.Variant), with its copies written out.
	Variant rules.Variant
	Names   []string
	Turns   []LoggedTurn
}

// LoggedTurn is one turn of a logged game.
type LoggedTurn struct {
	Turn, Seat int
	Flips      []Card
	// End is "pair" (the mover took a pair and moves again), "miss" or "pass".
	End string
}

func (l *Log) reset(g *Game) {
	l.Pairs, l.Singletons, l.Variant = g.setup.Pairs, g.setup.Singletons, g.setup.Variant.Normal()
	l.Names = l.Names[:0]
	for _, p := range g.setup.Players {
		l.Names = append(l.Names, p.Name)
	}
	l.Turns = l.Turns[:0]
}

func (l *Log) current(g *Game) *LoggedTurn {
	if n := len(l.Turns); n == 0 || l.Turns[n-1].Turn != int(g.turn) {
		l.Turns = append(l.Turns, LoggedTurn{Turn: int(g.turn), Seat: g.mover})
	}
	return &l.Turns[len(l.Turns)-1]
}

func (l *Log) flip(g *Game, pos, face int32) {
	t := l.current(g)
	t.Flips = append(t.Flips, Card{Pos: int(pos), Face: int(face)})
}

func (l *Log) endTurn(g *Game, seat int, end turnEnd) {
	t := l.current(g)
	t.Seat = seat
	t.End = [...]string{turnMatched: "pair", turnMissed: "miss", turnPassed: "pass"}[end]
}

// faceName names a face: pair faces are P0, P1, ...; singletons S0, S1, ...
func (l *Log) faceName(f int) string {
	if f >= l.Pairs {
		return fmt.Sprintf("S%d", f-l.Pairs)
	}
	return fmt.Sprintf("P%d", f)
}

// WriteTo writes the move log, one line per turn.
func (l *Log) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	for _, t := range l.Turns {
		fmt.Fprintf(&b, "turn %3d  seat %d %-12s", t.Turn, t.Seat, l.Names[t.Seat])
		if len(t.Flips) == 0 {
			b.WriteString("  passes")
		}
		for i, c := range t.Flips {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "  flips %d (%s)", c.Pos, l.faceName(c.Face))
		}
		switch t.End {
		case "pair":
			b.WriteString("  -> takes the pair")
		case "miss":
			b.WriteString("  -> no pair")
		}
		b.WriteString("\n")
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}
