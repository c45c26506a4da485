package play

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
)

func TestNewLayout(t *testing.T) {
	tests := []struct{ cards, cols, rows int }{
		{1, 2, 1},
		{2, 2, 1},
		{6, 3, 2},
		{7, 4, 2},
		{24, 6, 4},
		{52, 9, 6},
		{220, 12, 19},
	}
	for _, tt := range tests {
		l := NewLayout(tt.cards)
		if l.Cols != tt.cols || l.Rows != tt.rows || l.Cols*l.Rows < tt.cards {
			t.Errorf("NewLayout(%d) = %d columns, %d rows; want %d, %d", tt.cards, l.Cols, l.Rows, tt.cols, tt.rows)
		}
	}
}

func TestLayoutParse(t *testing.T) {
	six, seven := NewLayout(6), NewLayout(7) // 3 x 2, and 4 x 2 with d2 empty
	tests := []struct {
		l    Layout
		in   string
		want int
		err  string // a fragment of the error, "" for none
	}{
		{six, "a1", 0, ""},
		{six, "c1", 2, ""},
		{six, "a2", 3, ""},
		{six, "C2", 5, ""},
		{six, " b2 ", 4, ""},
		{six, "0", 0, ""},
		{six, "5", 5, ""},
		{six, "6", 0, "no card 6: the positions are 0 to 5"},
		{six, "-1", 0, "no card -1"},
		{six, "d1", 0, "no card d1 on this board: name a card by its coordinate, a1 to c2, or its number, 0 to 5"},
		{six, "a3", 0, "no card a3"},
		{six, "a0", 0, "no card a0"},
		{six, "a+1", 0, `"a+1" is not a card`},
		{six, "zz", 0, `"zz" is not a card`},
		{six, "a", 0, `"a" is not a card`},
		{six, "", 0, "no card given"},
		{six, "?1", 0, `"?1" is not a card`},
		{seven, "c2", 6, ""},
		{seven, "d2", 0, "no card d2 on this board: name a card by its coordinate, a1 to c2, or its number, 0 to 6"},
	}
	for _, tt := range tests {
		got, err := tt.l.Parse(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%d cards: Parse(%q) = %d, %v; want %d", tt.l.Cards, tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%d cards: Parse(%q) = %d, %v; want an error with %q", tt.l.Cards, tt.in, got, err, tt.err)
		}
	}
	for pos := range 7 {
		if got, err := seven.Parse(seven.Coord(pos)); err != nil || got != pos {
			t.Errorf("Parse(Coord(%d) = %q) = %d, %v", pos, seven.Coord(pos), got, err)
		}
	}
}

func TestBoardDrawsDownUpAndTakenCards(t *testing.T) {
	tb := NewTable(3, 1, []Seat{{Name: "you", Person: true}, {Name: "daring"}})
	for _, e := range []sim.Event{
		{Kind: sim.EventFlip, Seat: 0, Pos: 0, Face: 2},
		{Kind: sim.EventFlip, Seat: 0, Pos: 6, Face: 2},
		{Kind: sim.EventPair, Seat: 0, Pos: 0, Pos2: 6, Face: 2},
		{Kind: sim.EventFlip, Seat: 0, Pos: 1, Face: 3},
	} {
		tb.Apply(e, 0)
	}
	want := []string{
		"   a   b   c   d",
		"1  ..  S0  ##  ##",
		"2  ##  ##  ..",
	}
	if got := Board(tb, -1); !slices.Equal(got, want) {
		t.Errorf("board:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	want[2] = "2  ## [##] .."
	if got := Board(tb, 5); !slices.Equal(got, want) {
		t.Errorf("board with the cursor at b2:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := tb.ScoreLine(), "scores: you 1, daring 0"; got != want {
		t.Errorf("ScoreLine() = %q, want %q", got, want)
	}
	if got, want := tb.LastLine(), "last turn: you flipped a1 P2 and c2 P2: a pair, taken"; got != want {
		t.Errorf("LastLine() = %q, want %q", got, want)
	}
}

func TestDecodeKeys(t *testing.T) {
	got := decodeKeys([]byte("b2\r\x1b[A\x1b[B\x1bOC\x1b[D\x7f\x03\x04\x1b\x1b[5~ \n"))
	want := []key{{keyRune, 'b'}, {keyRune, '2'}, {kind: keyEnter}, {kind: keyUp}, {kind: keyDown},
		{kind: keyRight}, {kind: keyLeft}, {kind: keyBackspace}, {kind: keyCtrlC}, {kind: keyCtrlD},
		{kind: keyEsc}, {keyRune, ' '}, {kind: keyEnter}}
	if !slices.Equal(got, want) {
		t.Errorf("decodeKeys = %v\nwant %v", got, want)
	}
}

// scriptedUI plays the person's seat by a simple rule from what the table shows, and first tries
// moves that the rules refuse, each of which must come back with a reason.
type scriptedUI struct {
	t         *testing.T
	pass      rules.PassRule
	firstSeen bool // the turn's first card was seen before
	passes    bool // try a pass at each first card
	refusing  bool // the answer given is one the rules refuse
	refusals  int
	inARow    int // refusals of one question
	reasons   []string
	lastFirst int
}

func (u *scriptedUI) Event(context.Context, Snapshot, sim.Event) error { return nil }

func (u *scriptedUI) Ask(_ context.Context, s Snapshot, q Question) (Answer, error) {
	t := s.Table
	if u.refusing != (q.Reason != "") {
		u.t.Fatalf("an answer the rules %s came back with reason %q", map[bool]string{true: "refuse", false: "allow"}[u.refusing], q.Reason)
	}
	if q.Reason != "" {
		u.reasons = append(u.reasons, q.Reason)
		u.refusals++
		u.inARow++
		if u.inARow > 3 {
			u.t.Fatalf("refused again: %s", q.Reason)
		}
	} else {
		u.inARow = 0
	}
	u.refusing = false
	cards := t.Layout.Cards
	seen := func(pos int) bool { return t.Face(pos) >= 0 && t.Cell(pos) != Taken }
	if q.Reason == "" {
		// Something the rules refuse, where there is one.
		for pos := range cards {
			if t.Cell(pos) == Taken {
				u.refusing = true
				return Answer{Pos: pos}, nil
			}
		}
		if !q.CanPass && !q.Second {
			u.refusing = true
			return Answer{Pass: true}, nil
		}
		if q.Second {
			u.refusing = true
			return Answer{Pos: u.lastFirst}, nil
		}
	}
	if q.CanPass && u.passes {
		return Answer{Pass: true}, nil
	}
	if q.Second {
		first := t.Flips[0]
		if strings.Contains(q.Reason, "is your first card") && u.firstSeen && u.pass != rules.PassTwoKnown {
			// A seen card that is not the first card's partner, after a seen first card: a pass,
			// which pass rule never refuses.
			for pos := range cards {
				if pos != first.Pos && seen(pos) && t.Face(pos) != first.Face {
					u.refusing = u.pass == rules.PassNever
					return Answer{Pos: pos}, nil
				}
			}
		}
		for pos := range cards {
			if pos != first.Pos && seen(pos) && t.Face(pos) == first.Face {
				return Answer{Pos: pos}, nil
			}
		}
		for pos := range cards {
			if pos != first.Pos && t.Face(pos) < 0 {
				return Answer{Pos: pos}, nil
			}
		}
		u.t.Fatal("no second card to flip")
	}
	// A seen pair, else a card never seen.
	for a := range cards {
		for b := a + 1; b < cards; b++ {
			if seen(a) && seen(b) && t.Face(a) == t.Face(b) {
				u.lastFirst, u.firstSeen = a, true
				return Answer{Pos: a}, nil
			}
		}
	}
	for pos := range cards {
		if t.Face(pos) < 0 {
			u.lastFirst, u.firstSeen = pos, false
			return Answer{Pos: pos}, nil
		}
	}
	u.t.Fatal("no first card to flip")
	return Answer{}, nil
}

// The person's seat answers the engine with legal moves only: every move the rules refuse comes
// back to the person with a reason, and the game plays to its end, its moves a record that reads
// back with the engine's scores.
func TestPersonAnswersOnlyLegalMoves(t *testing.T) {
	for _, tt := range []struct {
		pass   rules.PassRule
		passes bool
	}{{rules.PassNever, false}, {rules.PassTwoKnown, false}, {rules.PassAlways, false}, {rules.PassTwoKnown, true}} {
		madePass := false
		for seat := range 2 {
			ui := &scriptedUI{t: t, pass: tt.pass, passes: tt.passes}
			tb := NewTable(4, 1, []Seat{{Name: "you", Person: true}, {Name: "daring"}})
			if seat == 1 {
				tb = NewTable(4, 1, []Seat{{Name: "daring"}, {Name: "you", Person: true}})
			}
			p := &Person{Ctx: context.Background(), Table: tb, UI: ui}
			daring, err := rules.FixedChoiceTable(rules.PolicyDaring, 4, 1)
			if err != nil {
				t.Fatal(err)
			}
			players := []sim.Player{{Name: "daring", Table: daring}, {Name: "daring", Table: daring}}
			players[seat] = sim.Player{Name: "you", NewStrategy: func() sim.Strategy { return p }}
			g, err := sim.NewGame(sim.Setup{Pairs: 4, Singletons: 1, Pass: tt.pass, Players: players})
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(sim.GameID{Seed: 11, DealStream: 3, PlayStream: 4}, nil); err != nil {
				t.Fatalf("pass %s, seat %d: %v", tt.pass, seat, err)
			}
			o := g.Outcome()
			if ui.refusals == 0 {
				t.Errorf("pass %s, seat %d: no move refused", tt.pass, seat)
			}
			if slices.ContainsFunc(ui.reasons, func(r string) bool { return strings.Contains(r, "were both seen before and are not a pair") }) {
				madePass = true
			}
			rec := &record.Game{Rules: record.Rules{Pairs: 4, Singletons: 1, Seats: 2, Pass: tt.pass}, Moves: tb.Moves, Ended: o.Stalemate}
			if err := rec.Check(); err != nil {
				t.Fatalf("pass %s, seat %d: the table's moves: %v", tt.pass, seat, err)
			}
			for i, s := range rec.Result.Scores {
				if want := float64(o.Share[i]) / 2; s != want {
					t.Errorf("pass %s, seat %d: the record's seat %d scores %g, the engine's %g", tt.pass, seat, i, s, want)
				}
			}
			if tt.passes && !slices.ContainsFunc(tb.Moves, func(m record.Move) bool { return m.Pass }) {
				t.Errorf("pass %s, seat %d: no pass recorded", tt.pass, seat)
			}
		}
		// A second card that would make a pass is refused under pass rule never only.
		if want := tt.pass == rules.PassNever; madePass != want {
			t.Errorf("pass %s: a second card making a pass refused: %v, want %v", tt.pass, madePass, want)
		}
	}
}

// A move the person tries that the rules refuse is answered with a reason naming the rule.
func TestRefusalsNameTheRule(t *testing.T) {
	var reasons []string
	ui := &funcUI{ask: func(s Snapshot, q Question) (Answer, error) {
		if q.Reason != "" {
			reasons = append(reasons, q.Reason)
		}
		switch len(reasons) {
		case 0:
			return Answer{Pass: true}, nil // pass rule never
		case 1:
			if !q.Second {
				return Answer{Pos: 0}, nil
			}
			return Answer{Pos: 0}, nil // the first card again
		case 2:
			return Answer{Pass: true}, nil // a pass as the second card
		}
		return Answer{}, ErrQuit
	}}
	tb := NewTable(2, 0, []Seat{{Name: "you", Person: true}})
	p := &Person{Ctx: context.Background(), Table: tb, UI: ui}
	g, err := sim.NewGame(sim.Setup{Pairs: 2, Players: []sim.Player{{Name: "you", NewStrategy: func() sim.Strategy { return p }}}})
	if err != nil {
		t.Fatal(err)
	}
	err = g.Play(sim.GameID{Seed: 1}, nil)
	if !errors.Is(err, ErrQuit) {
		t.Fatalf("Play: %v, want ErrQuit", err)
	}
	want := []string{
		"no passing: the pass rule is never",
		"a1 is your first card, face up already: flip another card",
		"a pass is a turn without a flip: flip your second card",
	}
	if !slices.Equal(reasons, want) {
		t.Errorf("reasons:\n%s\nwant\n%s", strings.Join(reasons, "\n"), strings.Join(want, "\n"))
	}
}

// funcUI asks through a function and shows nothing.
type funcUI struct {
	ask func(s Snapshot, q Question) (Answer, error)
}

func (u *funcUI) Event(context.Context, Snapshot, sim.Event) error { return nil }
func (u *funcUI) Ask(_ context.Context, s Snapshot, q Question) (Answer, error) {
	return u.ask(s, q)
}

// RawUI turns keys into moves: a typed card and Enter, the arrows and Enter or space, p, and q
// confirmed by y; a mistyped card is refused on the screen.
func TestRawUIKeys(t *testing.T) {
	tests := []struct {
		keys string
		want Answer
		err  error
	}{
		{"b2\r", Answer{Pos: 4}, nil},
		{"4\r", Answer{Pos: 4}, nil},
		{"\x1b[C\x1b[B\r", Answer{Pos: 4}, nil},
		{"\x1b[C\x1b[C\x1b[C ", Answer{Pos: 2}, nil},
		{"zz\ra1\r", Answer{Pos: 0}, nil},
		{"b3\x7f\x7f\x7fc1\r", Answer{Pos: 2}, nil},
		{"p", Answer{Pass: true}, nil},
		{"qnqy", Answer{}, ErrQuit},
		{"m?\r", Answer{Pos: 0}, nil},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		u := NewRawUI(strings.NewReader(tt.keys), &out, func() {})
		tb := NewTable(3, 0, []Seat{{Name: "you", Person: true}, {Name: "daring"}})
		got, err := u.Ask(context.Background(), Snapshot{Table: tb, Memory: []string{"daring remembers nothing"}}, Question{CanPass: true})
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("keys %q: %+v, %v; want %+v, %v", tt.keys, got, err, tt.want, tt.err)
		}
		if strings.HasPrefix(tt.keys, "zz") && !strings.Contains(out.String(), `not allowed: "zz" is not a card`) {
			t.Errorf("keys %q: the screen does not say why zz is refused:\n%s", tt.keys, out.String())
		}
	}
	// The input ends: the person cannot move.
	u := NewRawUI(strings.NewReader(""), io.Discard, func() {})
	if _, err := u.Ask(context.Background(), Snapshot{Table: NewTable(1, 0, []Seat{{Name: "you", Person: true}})}, Question{}); !errors.Is(err, ErrInputEnded) {
		t.Errorf("Ask at the end of the input: %v, want ErrInputEnded", err)
	}
}

// Under pass rule two-known, a pass before two cards have been seen without their partners is
// refused, saying how many there are.
func TestPassRefusedUntilTwoCardsAreKnown(t *testing.T) {
	var reasons []string
	ui := &funcUI{ask: func(s Snapshot, q Question) (Answer, error) {
		if q.Reason != "" {
			reasons = append(reasons, q.Reason)
			return Answer{}, ErrQuit
		}
		return Answer{Pass: true}, nil
	}}
	tb := NewTable(3, 0, []Seat{{Name: "you", Person: true}})
	p := &Person{Ctx: context.Background(), Table: tb, UI: ui}
	g, err := sim.NewGame(sim.Setup{Pairs: 3, Pass: rules.PassTwoKnown, Players: []sim.Player{{Name: "you", NewStrategy: func() sim.Strategy { return p }}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(sim.GameID{Seed: 1}, nil); !errors.Is(err, ErrQuit) {
		t.Fatalf("Play: %v, want ErrQuit", err)
	}
	want := []string{"no passing yet: pass rule two-known allows a pass once two cards on the table have been seen without their partners (0 now)"}
	if !slices.Equal(reasons, want) {
		t.Errorf("reasons %q, want %q", reasons, want)
	}
}
