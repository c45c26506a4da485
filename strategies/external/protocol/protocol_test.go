package protocol_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"memsim/sim/rules"
	"memsim/strategies/external/protocol"
	"memsim/tournament"
)

func ptr(f float64) *float64 { return &f }

var allChoices = []string{"daring", "safe", "known-first", "pass"}

// every returns one message of every type, each with the side that writes it.
func every() []struct {
	side protocol.Side
	msg  protocol.Message
} {
	return []struct {
		side protocol.Side
		msg  protocol.Message
	}{
		{protocol.FromMemsim, &protocol.Hello{Protocol: "memsim-player/1"}},
		{protocol.FromPlayer, &protocol.Player{Name: "p", Version: "", View: "events"}},
		{protocol.FromPlayer, &protocol.Player{Name: "agent ü", Version: "2.1", View: "state", Options: []protocol.Option{
			{Name: "greedy", Type: "bool", Default: true},
			{Name: "depth", Type: "int", Default: 3.0, Min: ptr(1), Max: ptr(9)},
			{Name: "noise", Type: "float", Default: 0.5, Max: ptr(1)},
			{Name: "log", Type: "string", Default: "a\"b"},
			{Name: "style", Type: "choice", Default: "safe", Choices: []string{"daring", "safe"}},
		}}},
		{protocol.FromPlayer, &protocol.Player{Name: "p", Version: "1", View: "state", Positions: "count"}},
		{protocol.FromPlayer, &protocol.Player{Name: "p", Version: "1", View: "state", Positions: "lead"}},
		{protocol.FromPlayer, &protocol.Player{Name: "p", Version: "1", View: "events", Variants: []string{"turn_limit", "copies", "flips"}}},
		{protocol.FromMemsim, &protocol.NewGame{Game: 2, Seat: 1, Seed: 5, Rules: protocol.Rules{
			Pairs: 26, Seats: 2, Pass: "never", Choices: []string{"daring"}, Copies: 26, Flips: "blind", TurnLimit: 52}}},
		{protocol.FromMemsim, &protocol.Move{Game: 3, Card: 1, Legal: []int{0, 4, 5}, Blind: true, Turn: 7, DeadlineMS: 50}},
		{protocol.FromPlayer, &protocol.Flips{Game: 3, Positions: [2]int{5, 0}}},
		{protocol.FromMemsim, &protocol.Options{Values: map[string]any{}}},
		{protocol.FromMemsim, &protocol.Options{Values: map[string]any{"depth": 4.0, "greedy": false, "log": "x"}}},
		{protocol.FromMemsim, &protocol.NewGame{Game: protocol.MaxID, Seat: 7, Seed: 0, Rules: protocol.Rules{
			Pairs: 1000, Singletons: 1000, Seats: 8, Pass: "two-known", Choices: allChoices}}},
		{protocol.FromMemsim, &protocol.NewGame{Game: 0, Seat: 0, Seed: 5, Rules: protocol.Rules{
			Pairs: 1, Seats: 1, Pass: "never", Choices: []string{"daring"}}}},
		{protocol.FromMemsim, &protocol.FlipEvent{Game: 3, Seat: 1, Pos: protocol.MaxCards - 1, Face: protocol.MaxFaces - 1}},
		{protocol.FromMemsim, &protocol.PairEvent{Game: 3, Seat: 1, Face: 4, Positions: [2]int{9, 2}}},
		{protocol.FromMemsim, &protocol.PassEvent{Game: 3, Seat: 0}},
		{protocol.FromMemsim, &protocol.Handover{Game: 3, Seat: 1}},
		{protocol.FromMemsim, &protocol.End{Game: 3, Scores: []float64{1.5, 2.5}}},
		{protocol.FromMemsim, &protocol.Move{Game: 3, Card: 1, Legal: []int{0, 4, 5}, Pass: true, DeadlineMS: 50}},
		{protocol.FromMemsim, &protocol.Move{Game: 3, Card: 1, Legal: []int{1, 2}, DeadlineMS: 1,
			State: &protocol.State{N: 5, J: 3, S: 2, F: 1, Lead: -2},
			Known: []protocol.Card{{Pos: 0, Face: 1}, {Pos: 7, Face: 5}}, Choices: []string{"daring", "safe"}}},
		{protocol.FromMemsim, &protocol.Move{Game: 3, Card: 2, Legal: []int{2}, DeadlineMS: protocol.MaxDeadline,
			State: &protocol.State{N: 1, J: 1}}},
		{protocol.FromMemsim, &protocol.Position{Game: 9, Rules: protocol.Rules{Pairs: 6, Seats: 2, Pass: "never", Choices: allChoices},
			State: protocol.State{N: 4, J: 2, Lead: -2}, Choices: []string{"daring", "safe", "known-first"}}},
		{protocol.FromMemsim, &protocol.Position{Game: protocol.MaxID, Rules: protocol.Rules{Pairs: 1000, Singletons: 3, Seats: 2, Pass: "always", Choices: allChoices},
			State: protocol.State{N: 1, J: 1, S: 3, F: 2, Lead: 999, AfterPass: true}, Choices: allChoices}},
		{protocol.FromPlayer, &protocol.Flip{Game: 3, Pos: 4}},
		{protocol.FromPlayer, &protocol.Pass{Game: 3}},
		{protocol.FromPlayer, &protocol.Choice{Game: 3, Choice: "known-first"}},
	}
}

// TestRoundTrip writes a message of every type and reads it back, one at a time and as a
// stream.
func TestRoundTrip(t *testing.T) {
	var streams [2]bytes.Buffer
	var want [2][]protocol.Message
	writers := [2]*protocol.Writer{protocol.NewWriter(&streams[0]), protocol.NewWriter(&streams[1])}
	for _, tc := range every() {
		line, err := protocol.Encode(tc.msg)
		if err != nil {
			t.Fatalf("Encode(%#v): %v", tc.msg, err)
		}
		if bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
			t.Fatalf("Encode(%#v) = %q: not one line", tc.msg, line)
		}
		got, err := protocol.Decode(line[:len(line)-1], tc.side)
		if err != nil {
			t.Fatalf("Decode(%s): %v", line, err)
		}
		if !reflect.DeepEqual(got, tc.msg) {
			t.Errorf("Decode(%s) = %#v, want %#v", line, got, tc.msg)
		}
		if err := writers[tc.side].Write(tc.msg); err != nil {
			t.Fatal(err)
		}
		want[tc.side] = append(want[tc.side], tc.msg)
	}
	for side := range streams {
		if err := writers[side].Flush(); err != nil {
			t.Fatal(err)
		}
		r := protocol.NewReader(&streams[side], protocol.Side(side))
		for i, w := range want[side] {
			got, err := r.Read()
			if err != nil {
				t.Fatalf("%s stream, message %d: %v", protocol.Side(side), i+1, err)
			}
			if !reflect.DeepEqual(got, w) || r.Line() != i+1 {
				t.Errorf("%s stream, line %d (Line() %d): got %#v, want %#v", protocol.Side(side), i+1, r.Line(), got, w)
			}
		}
		if m, err := r.Read(); err != io.EOF {
			t.Errorf("%s stream: after the last message got %v, %v; want io.EOF", protocol.Side(side), m, err)
		}
	}
}

// TestEncodeRefusesInvalidMessages: the writer checks what it sends as the reader checks what it
// reads.
func TestEncodeRefusesInvalidMessages(t *testing.T) {
	for _, tc := range []struct {
		msg  protocol.Message
		want string
	}{
		{&protocol.Hello{Protocol: "memsim-player/2"}, "encode hello: field protocol:"},
		{&protocol.Flip{Game: 1, Pos: -1}, "encode flip: field pos: -1 is out of range"},
		{&protocol.Move{Game: 1, Card: 3, Legal: []int{0}, DeadlineMS: 5}, "field card: 3 is out of range (1 to 2)"},
		{&protocol.NewGame{Rules: protocol.Rules{Pairs: 2, Seats: 2, Pass: "never", Choices: []string{"safe"}}}, "field rules.choices: daring is missing"},
	} {
		w := protocol.NewWriter(io.Discard)
		err := w.Write(tc.msg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Write(%#v) = %v, want an error containing %q", tc.msg, err, tc.want)
		}
	}
}

// TestBadInput: each malformed stream gives one error, on one line, naming the line and the
// field at fault; reading again gives the same error.
func TestBadInput(t *testing.T) {
	const (
		hello = `{"type":"hello","protocol":"memsim-player/1"}` + "\n"
		flip  = `{"type":"flip","game":1,"pos":3}` + "\n"
	)
	m, p := protocol.FromMemsim, protocol.FromPlayer
	for _, tc := range []struct {
		name  string
		side  protocol.Side
		input string
		want  string
	}{
		{"garbage", p, flip + "hello there\n", "line 2: not a JSON object: invalid character 'h'"},
		{"unknown variant", p, `{"type":"player","name":"x","version":"1","view":"events","variants":["colours"]}` + "\n", `line 1: player: field variants[0]: "colours" is not a rule variant (allowed: copies, flips, turn_limit)`},
		{"variant twice", p, `{"type":"player","name":"x","version":"1","view":"events","variants":["flips","flips"]}` + "\n", `line 1: player: field variants[1]: "flips" is listed twice`},
		{"copies odd", m, hello + `{"type":"new_game","game":1,"seat":0,"seed":1,"rules":{"pairs":3,"singletons":0,"seats":2,"pass":"never","choices":["daring"],"copies":3}}` + "\n", "line 2: new_game: field rules.copies: 3 is not an even number from 2 to 64"},
		{"copies and pairs", m, hello + `{"type":"new_game","game":1,"seat":0,"seed":1,"rules":{"pairs":3,"singletons":0,"seats":2,"pass":"never","choices":["daring"],"copies":4}}` + "\n", "line 2: new_game: field rules.copies: 3 pairs do not make whole faces of 4 cards"},
		{"flip rule", m, hello + `{"type":"new_game","game":1,"seat":0,"seed":1,"rules":{"pairs":3,"singletons":0,"seats":2,"pass":"never","choices":["daring"],"flips":"upside"}}` + "\n", `line 2: new_game: field rules.flips: unknown flip rule "upside"`},
		{"blind second card", m, hello + `{"type":"move","game":1,"card":2,"legal":[0,1],"blind":true,"deadline_ms":5}` + "\n", "line 2: move: field blind: only a first-card request names both cards"},
		{"flips one position", p, `{"type":"flips","game":1,"positions":[3]}` + "\n", "line 1: flips: field positions: 1 positions (want 2)"},
		{"flips same position", p, `{"type":"flips","game":1,"positions":[3,3]}` + "\n", "line 1: flips: field positions: the two positions are the same (3)"},
		{"empty line", p, "\n", "line 1: not a JSON object: empty"},
		{"array", p, "[1,2]\n", "line 1: not a JSON object: got an array"},
		{"string", p, `"flip"` + "\n", "line 1: not a JSON object: got a string"},
		{"truncated object", p, `{"type":"flip","game":1` + "\n", "line 1: not a JSON object: unexpected end of JSON input"},
		{"two objects", p, `{"type":"pass","game":1}{"type":"pass","game":2}` + "\n", "line 1: not a JSON object: invalid character '{' after top-level value"},
		{"partial line at EOF", p, flip + `{"type":"flip","game":1,"pos":3}`, "line 2: ends without a newline after 32 bytes"},
		{"huge line", p, flip + strings.Repeat(" ", protocol.MaxLine+1) + "\n", "line 2: longer than 1048576 bytes"},
		{"huge line at EOF", p, strings.Repeat("x", protocol.MaxLine+1), "line 1: longer than 1048576 bytes"},
		{"invalid UTF-8", p, `{"type":"player","name":"a` + "\xff" + `","version":"1","view":"events"}` + "\n", "line 1: not valid UTF-8 (byte 26)"},
		{"missing type", p, `{"game":1,"pos":3}` + "\n", "line 1: field type: is missing"},
		{"type not a string", p, `{"type":7}` + "\n", "line 1: field type: number is not a string"},
		{"unknown type", p, `{"type":"resign","game":1}` + "\n", `line 1: field type: "resign" is not a message a player sends (allowed: player, flip, flips, pass, choice)`},
		{"memsim's type from the player", p, hello, `line 1: field type: "hello" is not a message a player sends`},
		{"player's type from memsim", m, `{"type":"choice","game":1,"choice":"safe"}` + "\n", `line 1: field type: "choice" is not a message memsim sends`},
		{"missing field", p, `{"type":"flip","game":1}` + "\n", "line 1: flip: field pos: is missing"},
		{"missing nested field", m, `{"type":"new_game","game":1,"seat":0,"seed":2,"rules":{"pairs":2,"singletons":0,"seats":2,"choices":["daring"]}}` + "\n", "line 1: new_game: field rules.pass: is missing"},
		{"extra field", p, `{"type":"flip","game":1,"pos":3,"face":2}` + "\n", "line 1: flip: field face: is not a field of this message (fields: game, pos)"},
		{"extra nested field", m, `{"type":"move","game":1,"card":1,"legal":[0],"deadline_ms":5,"state":{"n":1,"j":1,"s":0,"f":0,"lead":0,"after_pass":false,"m":3},"choices":["daring"]}` + "\n", "line 1: move: field state.m: is not a field of this message"},
		{"extra field in a list", m, `{"type":"move","game":1,"card":1,"legal":[0,1],"deadline_ms":5,"state":{"n":1,"j":0,"s":0,"f":0,"lead":0,"after_pass":false},"known":[{"pos":0,"face":0,"x":1}],"choices":["daring"]}` + "\n", "line 1: move: field known[0].x: is not a field"},
		{"null", p, `{"type":"flip","game":null,"pos":3}` + "\n", "line 1: flip: field game: is null"},
		{"string for an integer", p, `{"type":"flip","game":1,"pos":"3"}` + "\n", "line 1: flip: field pos: string is not an integer"},
		{"fraction for an integer", p, `{"type":"flip","game":1,"pos":2.5}` + "\n", "line 1: flip: field pos: number 2.5 is not an integer"},
		{"integer for a list", m, `{"type":"end","game":1,"scores":2}` + "\n", "line 1: end: field scores: number is not an array"},
		{"wrong type in a list", m, `{"type":"move","game":1,"card":1,"legal":[0,"1"],"deadline_ms":5}` + "\n", "line 1: move: field legal[1]: string is not an integer"},
		{"string for an object", m, `{"type":"new_game","game":1,"seat":0,"seed":2,"rules":"default"}` + "\n", "line 1: new_game: field rules: is not an object: got a string"},
		{"wrong protocol", m, `{"type":"hello","protocol":"memsim-player/2"}` + "\n", `line 1: hello: field protocol: "memsim-player/2" is not supported`},
		{"unknown view", p, `{"type":"player","name":"a","version":"1","view":"cards"}` + "\n", `line 1: player: field view: "cards" is not a view (allowed: events, state)`},
		{"empty name", p, `{"type":"player","name":"","version":"1","view":"events"}` + "\n", "line 1: player: field name: is empty"},
		{"option default of the wrong type", p, `{"type":"player","name":"a","version":"1","view":"events","options":[{"name":"d","type":"int","default":"3"}]}` + "\n", `line 1: player: field options[0].default: "3" is not a number`},
		{"option default out of bounds", p, `{"type":"player","name":"a","version":"1","view":"events","options":[{"name":"d","type":"int","default":0,"min":1}]}` + "\n", "line 1: player: field options[0].default: 0 is below min 1"},
		{"option declared twice", p, `{"type":"player","name":"a","version":"1","view":"events","options":[{"name":"d","type":"bool","default":true},{"name":"d","type":"bool","default":false}]}` + "\n", `line 1: player: field options[1].name: "d" is declared twice`},
		{"unknown option type", p, `{"type":"player","name":"a","version":"1","view":"events","options":[{"name":"d","type":"spin","default":1}]}` + "\n", `line 1: player: field options[0].type: "spin" is not an option type`},
		{"option value not a scalar", m, `{"type":"options","values":{"d":[1]}}` + "\n", "line 1: options: field values.d: an array is not a bool, a number or a string"},
		{"negative game", p, `{"type":"pass","game":-1}` + "\n", "line 1: pass: field game: -1 is out of range (0 to 9007199254740991)"},
		{"game id beyond 2^53", p, `{"type":"pass","game":9007199254740992}` + "\n", "line 1: pass: field game: 9007199254740992 is out of range"},
		{"position out of range", p, `{"type":"flip","game":1,"pos":3000}` + "\n", "line 1: flip: field pos: 3000 is out of range (0 to 2999)"},
		{"unknown choice", p, `{"type":"choice","game":1,"choice":"bold"}` + "\n", `line 1: choice: field choice: unknown choice "bold" (allowed: daring, safe, known-first, pass)`},
		{"seat beyond the seats", m, `{"type":"new_game","game":1,"seat":2,"seed":2,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"]}}` + "\n", "line 1: new_game: field seat: 2 is out of range (0 to 1)"},
		{"zero pairs", m, `{"type":"new_game","game":1,"seat":0,"seed":2,"rules":{"pairs":0,"singletons":0,"seats":2,"pass":"never","choices":["daring"]}}` + "\n", "line 1: new_game: field rules.pairs: 0 is out of range (1 to 1000)"},
		{"unknown pass rule", m, `{"type":"new_game","game":1,"seat":0,"seed":2,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"sometimes","choices":["daring"]}}` + "\n", `line 1: new_game: field rules.pass: unknown pass rule "sometimes"`},
		{"choice listed twice", m, `{"type":"new_game","game":1,"seat":0,"seed":2,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring","safe","safe"]}}` + "\n", `line 1: new_game: field rules.choices[2]: "safe" is listed twice`},
		{"same position twice in a pair", m, `{"type":"pair","game":1,"seat":0,"face":0,"positions":[4,4]}` + "\n", "line 1: pair: field positions: the two positions are the same (4)"},
		{"three positions in a pair", m, `{"type":"pair","game":1,"seat":0,"face":0,"positions":[4,5,6]}` + "\n", "line 1: pair: field positions: 3 positions (want 2)"},
		{"no scores", m, `{"type":"end","game":1,"scores":[]}` + "\n", "line 1: end: field scores: 0 scores (allowed: 1 to 8, one per seat)"},
		{"negative score", m, `{"type":"end","game":1,"scores":[1,-1]}` + "\n", "line 1: end: field scores[1]: -1 is out of range (0 to 1000)"},
		{"no legal position", m, `{"type":"move","game":1,"card":1,"legal":[],"deadline_ms":5}` + "\n", "line 1: move: field legal: is empty"},
		{"legal positions out of order", m, `{"type":"move","game":1,"card":1,"legal":[3,1],"deadline_ms":5}` + "\n", "line 1: move: field legal[1]: 1 does not follow 3"},
		{"pass on a second card", m, `{"type":"move","game":1,"card":2,"legal":[3],"pass":true,"deadline_ms":5}` + "\n", "line 1: move: field pass: only a first card may be a pass"},
		{"zero deadline", m, `{"type":"move","game":1,"card":1,"legal":[3],"deadline_ms":0}` + "\n", "line 1: move: field deadline_ms: 0 is out of range (1 to 86400000)"},
		{"j above n", m, `{"type":"move","game":1,"card":1,"legal":[3],"deadline_ms":5,"state":{"n":1,"j":2,"s":0,"f":0,"lead":0,"after_pass":false},"choices":["daring"]}` + "\n", "line 1: move: field state.j: 2 is out of range (0 to 1)"},
		{"known without state", m, `{"type":"move","game":1,"card":1,"legal":[3],"deadline_ms":5,"known":[{"pos":0,"face":0}]}` + "\n", "line 1: move: field known: is sent only with state"},
		{"first card with state but no choices", m, `{"type":"move","game":1,"card":1,"legal":[3],"deadline_ms":5,"state":{"n":1,"j":1,"s":0,"f":0,"lead":0,"after_pass":false}}` + "\n", "line 1: move: field choices: is missing"},
		{"unknown kind of positions", p, `{"type":"player","name":"a","version":"1","view":"state","positions":"all"}` + "\n", `line 1: player: field positions: "all" is not a kind of position (allowed: count, lead)`},
		{"positions from an events player", p, `{"type":"player","name":"a","version":"1","view":"events","positions":"count"}` + "\n", "line 1: player: field positions: only a state-view player answers position queries"},
		{"positions not a string", p, `{"type":"player","name":"a","version":"1","view":"state","positions":true}` + "\n", "line 1: player: field positions: bool is not a string"},
		{"position without state", m, `{"type":"position","game":1,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"]},"choices":["daring"]}` + "\n", "line 1: position: field state: is missing"},
		{"position without choices", m, `{"type":"position","game":1,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"]},"state":{"n":2,"j":2,"s":0,"f":0,"lead":0,"after_pass":false}}` + "\n", "line 1: position: field choices: is missing"},
		{"position with a field of a move", m, `{"type":"position","game":1,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"]},"state":{"n":2,"j":2,"s":0,"f":0,"lead":0,"after_pass":false},"choices":["daring"],"legal":[0]}` + "\n", "line 1: position: field legal: is not a field of this message (fields: game, rules, state, choices)"},
		{"position with no pairs", m, `{"type":"position","game":1,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"]},"state":{"n":0,"j":0,"s":0,"f":0,"lead":0,"after_pass":false},"choices":["daring"]}` + "\n", "line 1: position: field state.n: 0 is out of range (1 to rules.pairs 2)"},
		{"position with more pairs than the deal", m, `{"type":"position","game":1,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"]},"state":{"n":3,"j":3,"s":0,"f":0,"lead":0,"after_pass":false},"choices":["daring"]}` + "\n", "line 1: position: field state.n: 3 is out of range (1 to rules.pairs 2)"},
		{"position with other singletons", m, `{"type":"position","game":1,"rules":{"pairs":2,"singletons":1,"seats":2,"pass":"never","choices":["daring"]},"state":{"n":2,"j":2,"s":0,"f":0,"lead":0,"after_pass":false},"choices":["daring"]}` + "\n", "line 1: position: field state.s: 0 is not rules.singletons 1"},
		{"position with a lead beyond the pairs taken", m, `{"type":"position","game":1,"rules":{"pairs":4,"singletons":0,"seats":2,"pass":"never","choices":["daring"]},"state":{"n":3,"j":3,"s":0,"f":0,"lead":2,"after_pass":false},"choices":["daring"]}` + "\n", "line 1: position: field state.lead: 2 is out of range (-1 to 1: the pairs taken)"},
		{"position with a lead in solitaire", m, `{"type":"position","game":1,"rules":{"pairs":4,"singletons":0,"seats":1,"pass":"never","choices":["daring"]},"state":{"n":3,"j":3,"s":0,"f":0,"lead":1,"after_pass":false},"choices":["daring"]}` + "\n", "line 1: position: field state.lead: 1: the lead is 0 unless there are 2 seats"},
		{"position choice outside the rules", m, `{"type":"position","game":1,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"]},"state":{"n":2,"j":1,"s":0,"f":0,"lead":0,"after_pass":false},"choices":["daring","safe"]}` + "\n", `line 1: position: field choices[1]: "safe" is not in rules.choices`},
		{"position without daring", m, `{"type":"position","game":1,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring","safe"]},"state":{"n":2,"j":1,"s":0,"f":0,"lead":0,"after_pass":false},"choices":["safe"]}` + "\n", "line 1: position: field choices: daring is missing"},
		{"position from the player", p, `{"type":"position","game":1}` + "\n", `line 1: field type: "position" is not a message a player sends`},
		{"error after good lines", p, flip + flip + `{"type":"flip","game":1,"pos":-4}` + "\n" + flip, "line 3: flip: field pos: -4 is out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := protocol.NewReader(strings.NewReader(tc.input), tc.side)
			var err error
			for n := 0; err == nil && n < 10; n++ {
				_, err = r.Read()
			}
			if err == nil || err == io.EOF {
				t.Fatalf("read %q: got %v, want an error %q", tc.input, err, tc.want)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("error\n  %s\nwant one line starting\n  %s", msg, tc.want)
			}
			var e *protocol.Error
			if !errors.As(err, &e) || e.Line == 0 {
				t.Errorf("error %v: not a *protocol.Error with a line", err)
			}
			if _, again := r.Read(); again == nil || again.Error() != msg {
				t.Errorf("second Read after the error: %v, want the same error", again)
			}
		})
	}
}

// TestLongestLine: a line of exactly MaxLine bytes is read; one byte more is refused.
func TestLongestLine(t *testing.T) {
	msg := `{"type":"pass","game":1}`
	line := msg + strings.Repeat(" ", protocol.MaxLine-len(msg))
	r := protocol.NewReader(strings.NewReader(line+"\n"+line+" \n"), protocol.FromPlayer)
	if m, err := r.Read(); err != nil || !reflect.DeepEqual(m, &protocol.Pass{Game: 1}) {
		t.Fatalf("line of %d bytes: %v, %v", len(line), m, err)
	}
	if _, err := r.Read(); err == nil || !strings.Contains(err.Error(), "line 2: longer than") {
		t.Fatalf("line of %d bytes: %v, want longer than", len(line)+1, err)
	}
}

// TestCRLF: a line ended by "\r\n" reads as one ended by "\n".
func TestCRLF(t *testing.T) {
	r := protocol.NewReader(strings.NewReader("{\"type\":\"pass\",\"game\":1}\r\n"), protocol.FromPlayer)
	if m, err := r.Read(); err != nil || !reflect.DeepEqual(m, &protocol.Pass{Game: 1}) {
		t.Fatalf("got %v, %v", m, err)
	}
}

// TestCheckReply checks replies against their move requests.
func TestCheckReply(t *testing.T) {
	first := &protocol.Move{Game: 4, Card: 1, Legal: []int{1, 3, 6}, Pass: true, DeadlineMS: 9,
		State: &protocol.State{N: 3, J: 1}, Choices: []string{"daring", "safe"}}
	second := &protocol.Move{Game: 4, Card: 2, Legal: []int{0, 2}, DeadlineMS: 9}
	blind := &protocol.Move{Game: 4, Card: 1, Legal: []int{1, 3, 6}, Blind: true, Turn: 2, DeadlineMS: 9}
	for _, tc := range []struct {
		req   *protocol.Move
		reply protocol.Message
		want  string // "" for a fitting reply
	}{
		{first, &protocol.Flip{Game: 4, Pos: 6}, ""},
		{first, &protocol.Flip{Game: 4, Pos: 1}, ""},
		{first, &protocol.Pass{Game: 4}, ""},
		{first, &protocol.Choice{Game: 4, Choice: "safe"}, ""},
		{second, &protocol.Flip{Game: 4, Pos: 2}, ""},
		{first, &protocol.Flip{Game: 4, Pos: 2}, "field pos: 2 is not a legal position of game 4's card 1"},
		{first, &protocol.Flip{Game: 5, Pos: 3}, "field game: 5 does not match the request's game 4"},
		{first, &protocol.Choice{Game: 4, Choice: "known-first"}, `field choice: "known-first" is not open in game 4`},
		{second, &protocol.Pass{Game: 4}, "field type: game 4's card 2 may not be a pass"},
		{second, &protocol.Choice{Game: 4, Choice: "daring"}, "field type: game 4's card 2 takes a flip or a pass, not a choice"},
		{second, &protocol.Player{Name: "x", View: "events"}, "a player message is not a reply"},
		{blind, &protocol.Flips{Game: 4, Positions: [2]int{6, 1}}, ""},
		{blind, &protocol.Flip{Game: 4, Pos: 6}, "field type: game 4's request is blind: it takes both cards at once, a flips reply"},
		{blind, &protocol.Flips{Game: 4, Positions: [2]int{6, 2}}, "field positions[1]: 2 is not a legal position of game 4's turn"},
		{blind, &protocol.Pass{Game: 4}, "field type: game 4's card 1 may not be a pass"},
		{first, &protocol.Flips{Game: 4, Positions: [2]int{1, 3}}, "field type: game 4's card 1 takes one card, a flip reply"},
	} {
		err := protocol.CheckReply(tc.req, tc.reply)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("CheckReply(card %d, %#v) = %v, want %q", tc.req.Card, tc.reply, err, tc.want)
		}
	}
}

// TestCheckPositionReply checks replies against position queries: a choice it offers, for its
// id.
func TestCheckPositionReply(t *testing.T) {
	q := &protocol.Position{Game: 12, Rules: protocol.Rules{Pairs: 4, Seats: 2, Pass: "never", Choices: allChoices},
		State: protocol.State{N: 3, J: 1}, Choices: []string{"daring", "safe", "known-first"}}
	for _, tc := range []struct {
		reply protocol.Message
		want  string // "" for a fitting reply
	}{
		{&protocol.Choice{Game: 12, Choice: "safe"}, ""},
		{&protocol.Choice{Game: 12, Choice: "known-first"}, ""},
		{&protocol.Choice{Game: 12, Choice: "pass"}, `field choice: "pass" is not open in position query 12`},
		{&protocol.Choice{Game: 13, Choice: "safe"}, "field game: 13 does not match the query's id 12"},
		{&protocol.Flip{Game: 12, Pos: 0}, "field type: position query 12 takes a choice, not a flip"},
		{&protocol.Pass{Game: 12}, "field type: position query 12 takes a choice, not a pass"},
		{&protocol.Player{Name: "x", View: "state"}, "a player message is not a reply to a position query"},
	} {
		err := protocol.CheckPositionReply(q, tc.reply)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("CheckPositionReply(%#v) = %v, want %q", tc.reply, err, tc.want)
		}
	}
}

// TestCheckValues checks option values against a player's declaration.
func TestCheckValues(t *testing.T) {
	p := &protocol.Player{Name: "a", View: "events", Options: []protocol.Option{
		{Name: "depth", Type: "int", Default: 3.0, Min: ptr(1), Max: ptr(9)},
		{Name: "style", Type: "choice", Default: "safe", Choices: []string{"daring", "safe"}},
	}}
	for _, tc := range []struct {
		values map[string]any
		want   string
	}{
		{map[string]any{}, ""},
		{map[string]any{"depth": 9.0, "style": "daring"}, ""},
		{map[string]any{"depth": 10.0}, "field values.depth: 10 is above max 9"},
		{map[string]any{"depth": 2.5}, "field values.depth: 2.5 is not an integer"},
		{map[string]any{"style": "bold"}, `field values.style: "bold" is not one of the choices`},
		{map[string]any{"width": 1.0}, `field values.width: a declares no option "width"`},
	} {
		err := p.CheckValues(tc.values)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("CheckValues(%v) = %v, want %q", tc.values, err, tc.want)
		}
	}
}

// TestLimitsAreTheEngines: the protocol's limits are those of memsim's configurations and
// rules.
func TestLimitsAreTheEngines(t *testing.T) {
	if protocol.MaxPairs != tournament.MaxPairs || protocol.MaxSingletons != tournament.MaxPairs {
		t.Errorf("protocol allows %d pairs and %d singletons, configurations %d of each",
			protocol.MaxPairs, protocol.MaxSingletons, tournament.MaxPairs)
	}
	if protocol.MaxSeats != rules.MaxPlayers {
		t.Errorf("protocol allows %d seats, rules %d", protocol.MaxSeats, rules.MaxPlayers)
	}
	names := make([]string, 0, rules.NumChoices)
	for _, c := range rules.Choices() {
		names = append(names, c.String())
	}
	if !reflect.DeepEqual(names, allChoices) {
		t.Errorf("rules' choices %v, protocol's %v", names, allChoices)
	}
}
