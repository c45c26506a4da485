package play

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"memsim/sim"
)

// MaxLine is the longest line LineUI reads, in bytes.
const MaxLine = 4096

// LineUI asks for moves line by line and shows the game as plain text, one line per event, with
// no terminal control: for a pipe, a script or a file. Before each question it prints the board
// and the scores, then the prompt on a line of its own: "your move (card 1):", with ", or pass"
// where a pass is allowed. It reads a card (c2, or 7), pass, memory, help or quit (or their first
// letters p, m, ? and q); the end of the input quits.
type LineUI struct {
	// ShowMemory prints what each bot remembers after every turn.
	ShowMemory bool

	out   io.Writer
	lines chan line
}

// line is a line read, or the error that ended the input.
type line struct {
	text string
	err  error
}

// NewLineUI returns a LineUI reading in and writing out. It reads in on a goroutine of its own,
// which ends with the input.
func NewLineUI(in io.Reader, out io.Writer) *LineUI {
	u := &LineUI{out: out, lines: make(chan line)}
	go u.read(in)
	return u
}

// read sends the lines of in, then the error that ended it (io.EOF at its end).
func (u *LineUI) read(in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 256), MaxLine)
	for sc.Scan() {
		u.lines <- line{text: sc.Text()}
	}
	err := sc.Err()
	if err == nil {
		err = io.EOF
	}
	if err == bufio.ErrTooLong {
		err = fmt.Errorf("a line of more than %d bytes", MaxLine)
	}
	u.lines <- line{err: err}
}

// Event prints a line for the event and, with ShowMemory, what each bot remembers after a turn.
func (u *LineUI) Event(_ context.Context, s Snapshot, e sim.Event) error {
	if text := s.Table.EventLine(e); text != "" {
		fmt.Fprintln(u.out, text)
	}
	if u.ShowMemory && (e.Kind == sim.EventHandover || e.Kind == sim.EventPair) {
		u.printMemory(s)
	}
	return nil
}

// printMemory prints what each bot remembers.
func (u *LineUI) printMemory(s Snapshot) {
	for _, l := range s.Memory {
		fmt.Fprintln(u.out, "memory: "+l)
	}
}

// Ask prints the board (or, after a refused answer, the reason) and the prompt, and reads lines
// until one is a move.
func (u *LineUI) Ask(ctx context.Context, s Snapshot, q Question) (Answer, error) {
	t := s.Table
	if q.Reason != "" {
		fmt.Fprintln(u.out, "not allowed: "+q.Reason)
	} else {
		for _, l := range Board(t, -1) {
			fmt.Fprintln(u.out, l)
		}
		fmt.Fprintln(u.out, t.ScoreLine())
		if q.Advice != "" {
			for _, l := range strings.Split(q.Advice, "\n") {
				fmt.Fprintln(u.out, "coach: "+l)
			}
		}
	}
	for {
		fmt.Fprintln(u.out, prompt(q))
		var in line
		select {
		case <-ctx.Done():
			return Answer{}, ctx.Err()
		case in = <-u.lines:
		}
		if in.err == io.EOF {
			return Answer{}, ErrInputEnded
		}
		if in.err != nil {
			return Answer{}, fmt.Errorf("reading the input: %w", in.err)
		}
		switch cmd := strings.ToLower(strings.TrimSpace(in.text)); cmd {
		case "pass", "p":
			return Answer{Pass: true}, nil
		case "quit", "q":
			return Answer{}, ErrQuit
		case "memory", "m":
			u.printMemory(s)
			continue
		case "help", "?", "h":
			fmt.Fprint(u.out, LineHelp)
			continue
		}
		a, err := parseAnswer(t.Layout, in.text, q)
		if err != nil {
			fmt.Fprintln(u.out, "not allowed: "+err.Error())
			continue
		}
		return a, nil
	}
}

// parseAnswer reads a card, or, at the start of a blind turn, two cards separated by spaces.
func parseAnswer(l Layout, text string, q Question) (Answer, error) {
	fields := strings.Fields(text)
	if q.Blind && !q.Second && len(fields) == 2 {
		a, err := l.Parse(fields[0])
		if err != nil {
			return Answer{}, err
		}
		b, err := l.Parse(fields[1])
		if err != nil {
			return Answer{}, err
		}
		return Answer{Pos: a, Pos2: b, Both: true}, nil
	}
	pos, err := l.Parse(text)
	return Answer{Pos: pos}, err
}

// prompt is the question's prompt line.
func prompt(q Question) string {
	card := "card 1"
	switch {
	case q.Blind && q.Second:
		card = "card 2, blind: your first card stays face down"
	case q.Blind:
		card = "both cards, blind: c2 d1, or card 1 alone"
	case q.Second:
		card = "card 2"
	}
	if q.CanPass {
		card += ", or pass"
	}
	return "your move (" + card + "):"
}

// LineHelp is the help of the line mode.
const LineHelp = `commands:
  c2 or 7   flip the card at c2 (column c, row 2), or at position 7
  c2 d1     under blind flips, at the start of a turn: name both cards at once
  pass, p   pass, where the pass rule allows it
  memory, m what each bot remembers now
  help, ?   this help
  quit, q   quit (the record of the unfinished game is saved)
`
