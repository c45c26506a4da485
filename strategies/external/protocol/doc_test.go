package protocol_test

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"

	"memsim/strategies/external/protocol"
)

// exampleLine is a line of an example exchange in docs/protocol.md.
type exampleLine struct {
	at    int // line number in the markdown file
	block int // the example's number, from 1
	side  protocol.Side
	text  string
}

// docExample returns the lines of the memsim-player blocks of docs/protocol.md, each an exchange
// of its own.
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
			lines = append(lines, exampleLine{n, blocks, protocol.FromMemsim, line[2:]})
		case in && strings.HasPrefix(line, "< "):
			lines = append(lines, exampleLine{n, blocks, protocol.FromPlayer, line[2:]})
		case in:
			t.Fatalf("%s:%d: %q starts with neither \"> \" nor \"< \"", name, n, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if blocks == 0 || len(lines) == 0 {
		t.Fatalf("%s: %d memsim-player blocks with %d lines, want one or more", name, blocks, len(lines))
	}
	return lines
}

// TestDocExampleDecodes reads the example exchange of docs/protocol.md message by message: every
// line decodes, is written back byte for byte by Encode, and every reply answers the request in
// flight for its game.
func TestDocExampleDecodes(t *testing.T) {
	lines := docExample(t)
	inFlight := map[int64]*protocol.Move{}
	queries := map[int64]*protocol.Position{}
	types := map[string]bool{}
	block := 1
	for _, l := range lines {
		if l.block != block {
			if len(inFlight) != 0 || len(queries) != 0 {
				t.Errorf("docs/protocol.md: example %d leaves requests unanswered", block)
			}
			block = l.block
			inFlight, queries = map[int64]*protocol.Move{}, map[int64]*protocol.Position{}
		}
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
		case *protocol.Position:
			if queries[m.Game] != nil || inFlight[m.Game] != nil {
				t.Errorf("docs/protocol.md:%d: id %d is in flight already", l.at, m.Game)
			}
			queries[m.Game] = m
		case *protocol.Move:
			if inFlight[m.Game] != nil {
				t.Errorf("docs/protocol.md:%d: a second request in flight for game %d", l.at, m.Game)
			}
			inFlight[m.Game] = m
		case *protocol.Flip, *protocol.Flips, *protocol.Pass, *protocol.Choice:
			var game int64
			switch r := m.(type) {
			case *protocol.Flip:
				game = r.Game
			case *protocol.Flips:
				game = r.Game
			case *protocol.Pass:
				game = r.Game
			case *protocol.Choice:
				game = r.Game
			}
			if q := queries[game]; q != nil {
				if err := protocol.CheckPositionReply(q, m); err != nil {
					t.Errorf("docs/protocol.md:%d: %v", l.at, err)
				}
				delete(queries, game)
				continue
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
	if len(inFlight) != 0 || len(queries) != 0 {
		t.Errorf("docs/protocol.md: requests left unanswered: %v %v", inFlight, queries)
	}
	for _, want := range []string{"memsim hello", "player player", "memsim options", "memsim new_game",
		"memsim move", "memsim flip", "memsim pair", "memsim handover", "memsim end", "player flip", "player flips", "player choice",
		"memsim position"} {
		if !types[want] {
			t.Errorf("docs/protocol.md: the example has no %s message", want)
		}
	}
}
