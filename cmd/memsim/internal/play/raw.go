package play

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"memsim/sim"
)

// keyKind is the kind of a key pressed.
type keyKind uint8

const (
	keyRune keyKind = iota
	keyEnter
	keyBackspace
	keyUp
	keyDown
	keyLeft
	keyRight
	keyEsc
	keyCtrlC
	keyCtrlD
	keyEnd // the input ended, or failed
)

// key is a key pressed: a character (keyRune) or another key.
type key struct {
	kind keyKind
	r    rune
}

// decodeKeys returns the keys of b, bytes read from a terminal in raw mode: characters, Enter
// (CR or LF), Backspace (DEL or BS), the arrows (ESC [ A..D, or ESC O A..D), Esc, Ctrl-C and
// Ctrl-D. Other control bytes and escape sequences are dropped.
func decodeKeys(b []byte) []key {
	var keys []key
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\r' || c == '\n':
			keys = append(keys, key{kind: keyEnter})
		case c == 0x7f || c == 0x08:
			keys = append(keys, key{kind: keyBackspace})
		case c == 0x03:
			keys = append(keys, key{kind: keyCtrlC})
		case c == 0x04:
			keys = append(keys, key{kind: keyCtrlD})
		case c == 0x1b:
			if i+2 < len(b) && (b[i+1] == '[' || b[i+1] == 'O') {
				if k, ok := map[byte]keyKind{'A': keyUp, 'B': keyDown, 'C': keyRight, 'D': keyLeft}[b[i+2]]; ok {
					keys = append(keys, key{kind: k})
					i += 2
					continue
				}
				// Another sequence: skip to its final byte.
				i += 2
				for i < len(b) && (b[i] < 0x40 || b[i] > 0x7e) {
					i++
				}
				continue
			}
			keys = append(keys, key{kind: keyEsc})
		case c >= 0x20 && c < 0x7f:
			keys = append(keys, key{kind: keyRune, r: rune(c)})
		}
	}
	return keys
}

// RawUI shows the game on a terminal in raw mode, redrawn in place with ANSI sequences, and reads
// keys: a card's coordinate or number typed then Enter; the arrows move a cursor, and Enter or
// space flips the card under it; p passes, m shows or hides what each bot remembers, ? shows or
// hides the keys, q quits (after a y to confirm); Ctrl-C interrupts. It pauses Delay after every
// card a bot flips, and after the person's second card, so that the person sees them.
type RawUI struct {
	// Header is the first lines of the screen; Delay the pause after a card is shown.
	Header []string
	Delay  time.Duration
	// ShowMemory shows what each bot remembers under the board.
	ShowMemory bool

	out       io.Writer
	keys      chan key
	interrupt func()
	cursor    int
	showHelp  bool
	log       []string // the last lines of the game's log
}

// logLines is how many lines of the game's log the screen shows.
const logLines = 5

// NewRawUI returns a RawUI reading keys from in, a terminal in raw mode, and drawing on out;
// interrupt is called when Ctrl-C is pressed. It reads in on a goroutine of its own, which ends
// with the input.
func NewRawUI(in io.Reader, out io.Writer, interrupt func()) *RawUI {
	u := &RawUI{out: out, keys: make(chan key, 64), interrupt: interrupt}
	go u.read(in)
	return u
}

// read sends the keys read from in, calling interrupt on Ctrl-C, and keyEnd when in ends.
func (u *RawUI) read(in io.Reader) {
	buf := make([]byte, 256)
	for {
		n, err := in.Read(buf)
		for _, k := range decodeKeys(buf[:n]) {
			if k.kind == keyCtrlC {
				u.interrupt()
			}
			u.keys <- k
		}
		if err != nil {
			u.keys <- key{kind: keyEnd}
			return
		}
	}
}

// Event logs the event, redraws the screen and pauses after a card the person should see.
func (u *RawUI) Event(ctx context.Context, s Snapshot, e sim.Event) error {
	t := s.Table
	if text := t.EventLine(e); text != "" {
		u.log = append(u.log, text)
		if len(u.log) > logLines {
			u.log = u.log[len(u.log)-logLines:]
		}
	}
	u.draw(s, -1, "", "", "")
	person := t.Seats[e.Seat].Person
	if e.Kind != sim.EventFlip || (person && len(t.Flips) < 2) || u.Delay <= 0 {
		return nil
	}
	timer := time.NewTimer(u.Delay)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// Ask reads keys until they make a move.
func (u *RawUI) Ask(ctx context.Context, s Snapshot, q Question) (Answer, error) {
	t := s.Table
	l := t.Layout
	typed, reason, confirm := "", q.Reason, false
	for {
		p := prompt(q) + " " + typed
		if confirm {
			p = "quit? the record of the unfinished game is saved (y/n)"
		}
		u.draw(s, u.cursor, q.Advice, reason, p)
		var k key
		select {
		case <-ctx.Done():
			return Answer{}, ctx.Err()
		case k = <-u.keys:
		}
		if confirm {
			if k.kind == keyRune && (k.r == 'y' || k.r == 'Y') {
				return Answer{}, ErrQuit
			}
			confirm = false
			continue
		}
		switch k.kind {
		case keyCtrlC:
			<-ctx.Done()
			return Answer{}, ctx.Err()
		case keyEnd:
			return Answer{}, ErrInputEnded
		case keyCtrlD:
			confirm = true
		case keyEsc:
			typed, reason, u.showHelp = "", "", false
		case keyBackspace:
			if typed != "" {
				typed = typed[:len(typed)-1]
			}
		case keyUp, keyDown, keyLeft, keyRight:
			u.cursor = l.move(u.cursor, k.kind)
		case keyEnter:
			if typed == "" {
				return Answer{Pos: u.cursor}, nil
			}
			a, err := parseAnswer(l, typed, q)
			typed = ""
			if err != nil {
				reason = err.Error()
				continue
			}
			u.cursor = a.Pos
			return a, nil
		case keyRune:
			switch r := k.r; {
			case r == ' ' && typed == "":
				return Answer{Pos: u.cursor}, nil
			case r == 'p' && typed == "":
				return Answer{Pass: true}, nil
			case r == 'm' && typed == "":
				u.ShowMemory = !u.ShowMemory
			case r == '?' && typed == "":
				u.showHelp = !u.showHelp
			case r == 'q' && typed == "":
				confirm = true
			case len(typed) < 16 && (r != ' ' || q.Blind && !q.Second && !strings.Contains(typed, " ")):
				typed += string(r)
			}
		}
	}
}

// move moves the cursor at pos one step in the direction of the arrow k, staying on the board.
func (l Layout) move(pos int, k keyKind) int {
	r, c := pos/l.Cols, pos%l.Cols
	switch k {
	case keyUp:
		r--
	case keyDown:
		r++
	case keyLeft:
		c--
	case keyRight:
		c++
	}
	r, c = max(0, min(r, l.Rows-1)), max(0, min(c, l.Cols-1))
	if p := r*l.Cols + c; p < l.Cards {
		return p
	}
	return pos
}

// RawHelp is the help of the raw mode, a line a key.
var RawHelp = []string{
	"keys:",
	"  c2 Enter    flip the card at c2 (column c, row 2); a number flips that position",
	"  c2 d1 Enter under blind flips, at the start of a turn: name both cards at once",
	"  arrows      move the cursor; Enter or space flips the card under it",
	"  p           pass, where the pass rule allows it",
	"  m           show or hide what each bot remembers",
	"  ?           show or hide this help",
	"  q           quit (asks first; the record of the unfinished game is saved)",
	"  Ctrl-C      interrupt (the record of the unfinished game is saved)",
}

// draw redraws the screen: the header, the board (with the cursor at cursor, when not -1), the
// scores and the last turn, what the bots remember, the help, the coach's advice, the log, the
// reason of a refused answer, and the prompt.
func (u *RawUI) draw(s Snapshot, cursor int, advice, reason, prompt string) {
	t := s.Table
	lines := append(slices.Clone(u.Header), "(? shows the keys)", "")
	lines = append(lines, Board(t, cursor)...)
	lines = append(lines, "", t.ScoreLine()+fmt.Sprintf("; turn %d: %s", t.TurnNo, t.Name(t.Mover)))
	if l := t.LastLine(); l != "" {
		lines = append(lines, l)
	}
	if u.ShowMemory {
		lines = append(lines, "")
		for _, l := range s.Memory {
			lines = append(lines, "memory: "+l)
		}
	}
	if u.showHelp {
		lines = append(lines, "")
		lines = append(lines, RawHelp...)
	}
	if advice != "" {
		lines = append(lines, "")
		for _, l := range strings.Split(advice, "\n") {
			lines = append(lines, "coach: "+l)
		}
	}
	lines = append(lines, "")
	lines = append(lines, u.log...)
	if reason != "" {
		lines = append(lines, "not allowed: "+reason)
	}
	if prompt != "" {
		lines = append(lines, prompt)
	}
	// Home, clear the screen, the lines with CR LF (raw mode does not add the CR).
	fmt.Fprint(u.out, "\x1b[H\x1b[2J"+strings.Join(lines, "\r\n"))
}
