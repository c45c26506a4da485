package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"memsim/sim/rules"
)

// Writer writes games as a record.
type Writer struct {
	w   *bufio.Writer
	buf []byte
}

// NewWriter returns a Writer to w. Call Flush when done.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

// Flush writes what is buffered.
func (w *Writer) Flush() error { return w.w.Flush() }

// The JSON shapes of the lines, their fields in the order written.
type (
	gameJSON struct {
		Type    string            `json:"type"`
		Format  string            `json:"format"`
		Rules   rulesJSON         `json:"rules"`
		Players []playerJSON      `json:"players,omitempty"`
		Deal    []int             `json:"deal,omitempty"`
		Started string            `json:"started,omitempty"`
		Meta    map[string]string `json:"meta,omitempty"`
	}
	rulesJSON struct {
		Pairs      int      `json:"pairs"`
		Singletons int      `json:"singletons"`
		Seats      int      `json:"seats"`
		Pass       string   `json:"pass"`
		Choices    []string `json:"choices"`
		// The variant's rules, written only where they differ from the standard game.
		Copies    int    `json:"copies,omitempty"`
		Flips     string `json:"flips,omitempty"`
		TurnLimit int    `json:"turn_limit,omitempty"`
	}
	playerJSON struct {
		Name  string `json:"name"`
		Kind  string `json:"kind,omitempty"`
		About string `json:"about,omitempty"`
	}
)

// Write checks game g (Game.Check) and writes it: its game line, its moves and, when it is over,
// its end line. A game that fails its check is not written.
func (w *Writer) Write(g *Game) error {
	if err := g.Check(); err != nil {
		return fmt.Errorf("writing a record: %w", err)
	}
	r := g.Rules
	head := gameJSON{Type: "game", Format: Format, Deal: g.Deal, Meta: g.Meta,
		Rules: rulesJSON{Pairs: r.Pairs, Singletons: r.Singletons, Seats: r.Seats, Pass: r.Pass.String()}}
	if c := r.Variant.CopiesOf(); c != rules.DefaultCopies {
		head.Rules.Copies = c
	}
	if r.Variant.Flips != rules.FlipsSequential {
		head.Rules.Flips = r.Variant.Flips.String()
	}
	head.Rules.TurnLimit = r.Variant.TurnLimit
	for _, c := range r.Choices.Choices() {
		head.Rules.Choices = append(head.Rules.Choices, c.String())
	}
	for _, p := range g.Players {
		head.Players = append(head.Players, playerJSON(p))
	}
	if !g.Started.IsZero() {
		head.Started = g.Started.Format(time.RFC3339Nano)
	}
	b, err := json.Marshal(head)
	if err != nil {
		return fmt.Errorf("writing a record: %w", err)
	}
	w.w.Write(b)
	w.w.WriteByte('\n')
	for _, m := range g.Moves {
		w.buf = w.buf[:0]
		if m.Pass {
			w.buf = append(w.buf, `{"type":"pass","seat":`...)
			w.buf = strconv.AppendInt(w.buf, int64(m.Seat), 10)
		} else {
			w.buf = append(w.buf, `{"type":"flip","seat":`...)
			w.buf = strconv.AppendInt(w.buf, int64(m.Seat), 10)
			w.buf = append(w.buf, `,"pos":`...)
			w.buf = strconv.AppendInt(w.buf, int64(m.Pos), 10)
			w.buf = append(w.buf, `,"face":`...)
			w.buf = strconv.AppendInt(w.buf, int64(m.Face), 10)
		}
		if m.MS >= 0 {
			w.buf = append(w.buf, `,"ms":`...)
			w.buf = strconv.AppendInt(w.buf, m.MS, 10)
		}
		w.buf = append(w.buf, "}\n"...)
		w.w.Write(w.buf)
	}
	if g.Ended {
		w.buf = append(w.buf[:0], `{"type":"end","scores":[`...)
		for i, s := range g.Result.Scores {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.buf = strconv.AppendFloat(w.buf, s, 'g', -1, 64)
		}
		w.buf = append(w.buf, ']')
		if g.Result.Limited {
			w.buf = append(w.buf, `,"reason":"`+ReasonTurnLimit+`"`...)
		}
		w.buf = append(w.buf, "}\n"...)
		w.w.Write(w.buf)
	}
	return nil
}

// Marshal returns games as the text of a record file, checking each (Game.Check).
func Marshal(games ...*Game) ([]byte, error) {
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, g := range games {
		if err := w.Write(g); err != nil {
			return nil, err
		}
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
