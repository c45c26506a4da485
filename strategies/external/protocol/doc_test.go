package protocol_test

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"

	"memsim/strategies/external/protocol"
)

// exampleLine is a line of the example exchange in docs/protocol.md.
type exampleLine struct {
	at   int // line number in the markdown file
	side protocol.Side
	text string
}

// docExample returns the lines of the memsim-player block of docs/protocol.md.
func docExample(t testing.TB) []exampleLine {
	t.Helper()
	const name = "../../../docs/protocol.md"
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []exampleLine
	in, blocks := false, 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case line == "```memsim-player":
			in = true
			blocks++
		case in && line == "```":
			in = false
		case in && strings.HasPrefix(line, "> "):
			lines = append(lines, exampleLine{n, protocol.FromMemsim, line[2:]})
		case in && strings.HasPrefix(line, "< "):
			lines = append(lines, exampleLine{n, protocol.FromPlayer, line[2:]})
		case in:
			t.Fatalf("%s:%d: %q starts with neither \"> \" nor \"< \"", name, n, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if blocks != 1 || len(lines) == 0 {
		t.Fatalf("%s: %d memsim-player blocks with %d lines, want one block", name, blocks, len(lines))
	}
	return lines
}

// TestDocExampleDecodes reads the example exchange of docs/protocol.md message by message: every
// line decodes, is written back byte for byte by Encode, and every reply answers the request in
// flight for its game.
func TestDocExampleDecodes(t *testing.T) {
	lines := docExample(t)
	inFlight := map[int64]*protocol.Move{}
	types := map[string]bool{}
	for _, l := range lines {
		m, err := protocol.Decode([]byte(l.text), l.side)
		if err != nil {
			t.Fatalf("docs/protocol.md:%d: %v", l.at, err)
		}
		types[l.side.String()+" "+m.Type()] = true
		enc, err := protocol.Encode(m)
		if err != nil {
			t.Fatalf("docs/protocol.md:%d: %v", l.at, err)
		}
		if !bytes.Equal(enc, []byte(l.text+"\n")) {
			t.Errorf("docs/protocol.md:%d: Encode writes\n  %s\nnot\n  %s", l.at, enc, l.text)
		}
		switch m := m.(type) {
		case *protocol.Move:
			if inFlight[m.Game] != nil {
				t.Errorf("docs/protocol.md:%d: a second request in flight for game %d", l.at, m.Game)
			}
			inFlight[m.Game] = m
		case *protocol.Flip, *protocol.Pass, *protocol.Choice:
			var game int64
			switch r := m.(type) {
			case *protocol.Flip:
				game = r.Game
			case *protocol.Pass:
				game = r.Game
			case *protocol.Choice:
				game = r.Game
			}
			req := inFlight[game]
			if req == nil {
				t.Errorf("docs/protocol.md:%d: a reply for game %d, which has no request in flight", l.at, game)
				continue
			}
			if err := protocol.CheckReply(req, m); err != nil {
				t.Errorf("docs/protocol.md:%d: %v", l.at, err)
			}
			delete(inFlight, game)
		}
	}
	if len(inFlight) != 0 {
		t.Errorf("docs/protocol.md: requests left unanswered: %v", inFlight)
	}
	for _, want := range []string{"memsim hello", "player player", "memsim options", "memsim new_game",
		"memsim move", "memsim flip", "memsim pair", "memsim handover", "memsim end", "player flip", "player choice"} {
		if !types[want] {
			t.Errorf("docs/protocol.md: the example has no %s message", want)
		}
	}
}
