package client_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"memsim/strategies/external/client"
	"memsim/strategies/external/protocol"
)

// chunk is what memsim writes at once, and what the player must write back in one write ("" for
// nothing).
type chunk struct {
	in, out string
}

// writes records each Write call of Run's as one string and signals it.
type writes struct {
	mu  sync.Mutex
	all []string
	ch  chan string
}

func (w *writes) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.all = append(w.all, string(p))
	w.mu.Unlock()
	w.ch <- string(p)
	return len(p), nil
}

// session runs Run on a pipe: it writes each chunk's input in one write and, where the chunk
// expects an answer, waits for the player's next write and compares it. It returns Run's error
// and every write of the player's.
func session(t *testing.T, info client.Info, newPlayer func(map[string]any) (client.Player, error), chunks []chunk) (error, []string) {
	t.Helper()
	pr, pw := io.Pipe()
	out := &writes{ch: make(chan string, 1024)}
	done := make(chan error, 1)
	go func() {
		err := client.Run(pr, out, info, newPlayer)
		pr.CloseWithError(errors.New("Run returned"))
		done <- err
	}()
	for i, c := range chunks {
		if _, err := io.WriteString(pw, c.in); err != nil {
			break // Run stopped reading: its error tells why
		}
		if c.out == "" {
			continue
		}
		select {
		case got := <-out.ch:
			if got != c.out {
				t.Errorf("chunk %d: the player writes\n%s\nwant\n%s", i+1, got, c.out)
			}
		case err := <-done:
			t.Fatalf("chunk %d: Run returned %v before writing\n%s", i+1, err, c.out)
		}
	}
	pw.Close()
	err := <-done
	out.mu.Lock()
	defer out.mu.Unlock()
	return err, out.all
}

// scripted plays the replies it is given, in order, and records the requests and options.
type scripted struct {
	replies []client.Reply
	reqs    []string
}

func (s *scripted) Move(g *client.Game, req *protocol.Move) client.Reply {
	s.reqs = append(s.reqs, fmt.Sprintf("game %d card %d", g.ID, req.Card))
	if len(s.reqs) > len(s.replies) {
		return client.Reply{}
	}
	return s.replies[len(s.reqs)-1]
}

// docExchange reads the example of docs/protocol.md as chunks: memsim's lines between two of the
// player's writes, and the player's lines that follow them.
func docExchange(t *testing.T) []chunk {
	t.Helper()
	f, err := os.Open("../../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var chunks []chunk
	var in, out strings.Builder
	inBlock, done := false, false
	sc := bufio.NewScanner(f)
	for !done && sc.Scan() {
		line := sc.Text()
		switch {
		case line == "```memsim-player":
			inBlock = true
		case inBlock && line == "```":
			inBlock, done = false, true // the first example: a game's exchange
		case inBlock && strings.HasPrefix(line, "> "):
			if out.Len() > 0 {
				chunks = append(chunks, chunk{in.String(), out.String()})
				in.Reset()
				out.Reset()
			}
			in.WriteString(line[2:] + "\n")
		case inBlock && strings.HasPrefix(line, "< "):
			out.WriteString(line[2:] + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	chunks = append(chunks, chunk{in.String(), out.String()})
	if len(chunks) < 3 {
		t.Fatalf("docs/protocol.md: the example has %d exchanges, want 3 or more", len(chunks))
	}
	return chunks
}

// TestDocExample plays the player's side of the example of docs/protocol.md: given memsim's
// lines, the player writes the doc's lines, its handshake from its Info and its replies, the
// first two in one write, from the choices the example's player makes.
func TestDocExample(t *testing.T) {
	info := client.Info{Name: "parity-py", Version: "1.0", View: protocol.ViewState, Options: []protocol.Option{
		{Name: "noise", Type: "float", Default: 0.0, Min: ptr(0), Max: ptr(1)}}}
	p := &scripted{replies: []client.Reply{client.Choose("daring"), client.Flip(1), client.Flip(0)}}
	var values map[string]any
	err, _ := session(t, info, func(v map[string]any) (client.Player, error) {
		values = v
		return p, nil
	}, docExchange(t))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if want := map[string]any{"noise": 0.25}; !reflect.DeepEqual(values, want) {
		t.Errorf("options %v, want %v", values, want)
	}
	if want := []string{"game 7 card 1", "game 8 card 1", "game 8 card 2"}; !reflect.DeepEqual(p.reqs, want) {
		t.Errorf("requests %q, want %q", p.reqs, want)
	}
}

func ptr(f float64) *float64 { return &f }

const (
	hello   = `{"type":"hello","protocol":"memsim-player/1"}` + "\n"
	noOpts  = `{"type":"options","values":{}}` + "\n"
	rules2  = `"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"]}`
	events  = `{"type":"player","name":"t","version":"1","view":"events"}` + "\n"
	newGame = `{"type":"new_game","game":%d,"seat":0,"seed":1,` + rules2 + "}\n"
	move1   = `{"type":"move","game":%d,"card":1,"legal":[0,1,2,3],"deadline_ms":50}` + "\n"
)

// TestOptions: the player gets every declared option, memsim's value or the default, int options
// as int.
func TestOptions(t *testing.T) {
	opts := []protocol.Option{
		{Name: "greedy", Type: "bool", Default: true},
		{Name: "depth", Type: "int", Default: 3.0, Min: ptr(1), Max: ptr(9)},
		{Name: "noise", Type: "float", Default: 0.5},
		{Name: "log", Type: "string", Default: "x"},
		{Name: "style", Type: "choice", Default: "safe", Choices: []string{"daring", "safe"}},
	}
	for _, tc := range []struct {
		values string
		want   map[string]any
	}{
		{`{}`, map[string]any{"greedy": true, "depth": 3, "noise": 0.5, "log": "x", "style": "safe"}},
		{`{"depth":9,"style":"daring","log":""}`, map[string]any{"greedy": true, "depth": 9, "noise": 0.5, "log": "", "style": "daring"}},
		{`{"greedy":false,"noise":1e-3}`, map[string]any{"greedy": false, "depth": 3, "noise": 0.001, "log": "x", "style": "safe"}},
	} {
		var got map[string]any
		info := client.Info{Name: "t", Version: "1", View: "events", Options: opts}
		err, _ := session(t, info, func(v map[string]any) (client.Player, error) {
			got = v
			return client.Random{}, nil
		}, []chunk{{hello, ""}, {`{"type":"options","values":` + tc.values + "}\n", ""}})
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("values %s: got %v (%v), want %v", tc.values, got, err, tc.want)
		}
	}
}

// TestHandshake: the player's first line is its declaration, written as soon as hello comes.
func TestHandshake(t *testing.T) {
	info := client.Info{Name: "agent ü", Version: "2.1", View: "state", Options: []protocol.Option{
		{Name: "depth", Type: "int", Default: 3.0, Min: ptr(1)}}}
	want := `{"type":"player","name":"agent ü","version":"2.1","view":"state","options":[{"name":"depth","type":"int","default":3,"min":1}]}` + "\n"
	err, out := session(t, info, func(map[string]any) (client.Player, error) { return client.Random{}, nil },
		[]chunk{{hello, want}, {noOpts, ""}})
	if err != nil || len(out) != 1 {
		t.Errorf("Run: %v, writes %q", err, out)
	}
}

// counter counts the requests it answers, flipping the last legal position.
type counter struct{ n int }

func (c *counter) Move(g *client.Game, req *protocol.Move) client.Reply {
	c.n++
	return client.Flip(req.Legal[len(req.Legal)-1])
}

// TestBatching: the requests that arrive together are answered in one write, in their order.
func TestBatching(t *testing.T) {
	for _, n := range []int{1, 2, 7, 256} {
		var games, reqs, replies strings.Builder
		for i := range n {
			fmt.Fprintf(&games, newGame, i)
			fmt.Fprintf(&reqs, move1, i)
			fmt.Fprintf(&replies, `{"type":"flip","game":%d,"pos":3}`+"\n", i)
		}
		c := &counter{}
		err, out := session(t, client.Info{Name: "t", Version: "1", View: "events"},
			func(map[string]any) (client.Player, error) { return c, nil },
			[]chunk{{hello, events}, {noOpts, ""}, {games.String(), ""}, {reqs.String(), replies.String()}})
		if err != nil || len(out) != 2 || c.n != n {
			t.Errorf("%d requests: Run %v, %d writes (want 2: the handshake and the replies), %d decisions", n, err, len(out), c.n)
		}
	}
}

// batcher decides in batches and records their sizes.
type batcher struct{ sizes []int }

func (b *batcher) Move(g *client.Game, req *protocol.Move) client.Reply {
	panic("Run calls MoveBatch, not Move, for a BatchPlayer")
}

func (b *batcher) MoveBatch(reqs []client.Request) []client.Reply {
	b.sizes = append(b.sizes, len(reqs))
	out := make([]client.Reply, len(reqs))
	for i, r := range reqs {
		out[i] = client.Flip(r.Move.Legal[0])
	}
	return out
}

// TestBatchPlayer: a BatchPlayer gets the requests that arrive together in one call.
func TestBatchPlayer(t *testing.T) {
	b := &batcher{}
	in := fmt.Sprintf(newGame+newGame+newGame, 1, 2, 3)
	err, _ := session(t, client.Info{Name: "t", Version: "1", View: "events"},
		func(map[string]any) (client.Player, error) { return b, nil },
		[]chunk{{hello, events}, {noOpts + in, ""},
			{fmt.Sprintf(move1+move1, 1, 3), `{"type":"flip","game":1,"pos":0}` + "\n" + `{"type":"flip","game":3,"pos":0}` + "\n"},
			{fmt.Sprintf(move1, 2), `{"type":"flip","game":2,"pos":0}` + "\n"}})
	if err != nil || !reflect.DeepEqual(b.sizes, []int{2, 1}) {
		t.Errorf("Run: %v, batches of %v, want [2 1]", err, b.sizes)
	}
}

// TestEndOfInput: Run returns nil when memsim closes the stream after a whole line, whatever is in
// flight.
func TestEndOfInput(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []chunk
	}{
		{"nothing", nil},
		{"after hello", []chunk{{hello, events}}},
		{"after the options", []chunk{{hello, events}, {noOpts, ""}}},
		{"games in flight", []chunk{{hello, events}, {noOpts + fmt.Sprintf(newGame+newGame, 1, 2), ""},
			{fmt.Sprintf(move1, 1), `{"type":"flip","game":1,"pos":3}` + "\n"}}},
	} {
		err, _ := session(t, client.Info{Name: "t", Version: "1", View: "events"},
			func(map[string]any) (client.Player, error) { return &counter{}, nil }, tc.chunks)
		if err != nil {
			t.Errorf("%s: Run = %v, want nil", tc.name, err)
		}
	}
}

// TestErrors: a line of memsim's that breaks the protocol or the game's rules, or a reply of the
// player's that does not answer its request, ends Run with one error naming the line.
func TestErrors(t *testing.T) {
	start := hello + noOpts + fmt.Sprintf(newGame, 7) // lines 1-3
	flip := func(seat, pos, face int) string {
		return fmt.Sprintf(`{"type":"flip","game":7,"seat":%d,"pos":%d,"face":%d}`+"\n", seat, pos, face)
	}
	move2 := `{"type":"move","game":7,"card":2,"legal":[1,2,3],"deadline_ms":50}` + "\n"
	handover := func(seat int) string { return fmt.Sprintf(`{"type":"handover","game":7,"seat":%d}`+"\n", seat) }
	for _, tc := range []struct {
		name  string
		in    string
		reply client.Reply // the player's reply to every request
		want  string
	}{
		{"not JSON", hello + "hello\n", client.Flip(0), "line 2: not a JSON object"},
		{"a player's message", hello + `{"type":"choice","game":1,"choice":"safe"}` + "\n", client.Flip(0), `line 2: field type: "choice" is not a message memsim sends`},
		{"no hello first", noOpts, client.Flip(0), "line 1: options: memsim's first message is not hello"},
		{"no options", hello + fmt.Sprintf(newGame, 7), client.Flip(0), "line 2: new_game: memsim's message after the handshake is not options"},
		{"an undeclared option", hello + `{"type":"options","values":{"depth":3}}` + "\n", client.Flip(0), `line 2: options: field values.depth: t declares no option "depth"`},
		{"hello twice", start + hello, client.Flip(0), "line 4: hello: not a message memsim sends after the handshake"},
		{"a game started twice", start + fmt.Sprintf(newGame, 7), client.Flip(0), "line 4: new_game: game 7 is in flight already"},
		{"an unknown game", start + fmt.Sprintf(move1, 8), client.Flip(0), "line 4: move: game 8 is not in flight"},
		{"an event of an unknown game", start + `{"type":"pass","game":9,"seat":0}` + "\n", client.Flip(0), "line 4: pass: game 9 is not in flight"},
		{"two requests in flight", start + fmt.Sprintf(move1+move1, 7, 7), client.Flip(0), "line 5: move: game 7 has a move request in flight already"},
		{"an event before the reply", start + fmt.Sprintf(move1, 7) + flip(0, 1, 0), client.Flip(0), "line 5: flip: game 7 has a move request awaiting the player's reply"},
		{"a flip by a seat not to move", start + flip(1, 0, 0), client.Flip(0), "line 4: flip: game 7: seat 1 plays, but seat 0 is to move"},
		{"a position beyond the deal", start + flip(0, 4, 0), client.Flip(0), "line 4: flip: game 7: position 4 is beyond the deal's 4 cards"},
		{"a face beyond the deal", start + flip(0, 3, 2), client.Flip(0), "line 4: flip: game 7: face 2 is beyond the deal's 2 faces"},
		{"the same card twice", start + flip(0, 3, 1) + flip(0, 3, 1), client.Flip(0), "line 5: flip: game 7: position 3 is already face up"},
		{"a card changes face", start + flip(0, 3, 1) + flip(0, 2, 0) + handover(1) + flip(1, 3, 0), client.Flip(0), "line 7: flip: game 7: position 3 showed face 1 before, now 0"},
		{"three cards in a turn", start + flip(0, 3, 1) + flip(0, 2, 1) + flip(0, 1, 1), client.Flip(0), "line 6: flip: game 7: a third card in seat 0's turn"},
		{"a third card of a face", start + flip(0, 3, 1) + flip(0, 2, 0) + handover(1) + flip(1, 1, 1) + flip(1, 0, 1), client.Flip(0), "line 8: flip: game 7: face 1 at position 0, but it was seen at [3 1]"},
		{"a pair that is not face up", start + flip(0, 3, 1) + flip(0, 2, 1) + `{"type":"pair","game":7,"seat":0,"face":1,"positions":[3,1]}` + "\n", client.Flip(0), "line 6: pair: game 7: pair at 3 and 1, but the cards face up are at 3 and 2"},
		{"a flip of a taken card", start + flip(0, 3, 1) + flip(0, 2, 1) + `{"type":"pair","game":7,"seat":0,"face":1,"positions":[2,3]}` + "\n" + flip(0, 2, 1), client.Flip(0), "line 7: flip: game 7: position 2 has left the table"},
		{"a handover mid-turn", start + flip(0, 3, 1) + handover(1), client.Flip(0), "line 5: handover: game 7: a handover before seat 0's turn is over"},
		{"a handover to the wrong seat", start + flip(0, 3, 1) + flip(0, 2, 0) + handover(0), client.Flip(0), "line 6: handover: game 7: handover to seat 0, but seat 1 follows seat 0"},
		{"a request for another seat's turn", start + flip(0, 3, 1) + flip(0, 2, 0) + handover(1) + fmt.Sprintf(move1, 7), client.Flip(0), "line 7: move: game 7: seat 1 is to move, not the player's seat 0"},
		{"a request for the wrong card", start + move2, client.Flip(1), "line 4: move: game 7: a request for card 2 after 0 cards turned in the turn"},
		{"a request with a taken card", start + flip(0, 3, 1) + flip(0, 2, 1) + `{"type":"pair","game":7,"seat":0,"face":1,"positions":[2,3]}` + "\n" + fmt.Sprintf(move1, 7), client.Flip(0), "line 7: move: game 7: legal position 2 has left the table"},
		{"a request with the first card", start + flip(0, 3, 1) + `{"type":"move","game":7,"card":2,"legal":[0,3],"deadline_ms":5}` + "\n", client.Flip(0), "line 5: move: game 7: legal position 3 is face up"},
		{"a state to an events player", start + `{"type":"move","game":7,"card":1,"legal":[0],"deadline_ms":5,"state":{"n":2,"j":2,"s":0,"f":0,"lead":0,"after_pass":false},"choices":["daring"]}` + "\n", client.Flip(0), "line 4: move: game 7: a state sent to an events-view player"},
		{"scores for the wrong seats", start + `{"type":"end","game":7,"scores":[1]}` + "\n", client.Flip(0), "line 4: end: game 7: 1 scores for 2 seats"},
		{"an illegal reply", start + fmt.Sprintf(move1, 7), client.Flip(5), "the player's reply to game 7's card 1 (flip 5): field pos: 5 is not a legal position of game 7's card 1"},
		{"a pass not offered", start + fmt.Sprintf(move1, 7), client.Pass(), "the player's reply to game 7's card 1 (pass): field type: game 7's card 1 may not be a pass"},
		{"a choice from an events player", start + fmt.Sprintf(move1, 7), client.Choose("daring"), "the player's reply to game 7's card 1 (choice daring): field type: game 7's card 1 takes a flip or a pass, not a choice"},
		{"no reply", start + fmt.Sprintf(move1, 7), client.Reply{}, "the player's reply to game 7's card 1: no reply"},
		{"a line cut short", start + `{"type":"pass","game":7,"seat":0}`, client.Flip(0), "line 4: ends without a newline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &scripted{replies: []client.Reply{tc.reply, tc.reply}}
			err, _ := session(t, client.Info{Name: "t", Version: "1", View: "events"},
				func(map[string]any) (client.Player, error) { return p, nil }, []chunk{{tc.in, ""}})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Run = %v\nwant one line starting %q", err, tc.want)
			}
		})
	}
}

// TestPlayerErrors: newPlayer's error and a batch of the wrong size end Run.
func TestPlayerErrors(t *testing.T) {
	info := client.Info{Name: "t", Version: "1", View: "events"}
	err, _ := session(t, info, func(map[string]any) (client.Player, error) { return nil, errors.New("no model file") },
		[]chunk{{hello + noOpts, ""}})
	if err == nil || err.Error() != "start the player: no model file" {
		t.Errorf("newPlayer failing: Run = %v", err)
	}
	err, _ = session(t, info, func(map[string]any) (client.Player, error) { return short{}, nil },
		[]chunk{{hello + noOpts + fmt.Sprintf(newGame+move1, 1, 1), ""}})
	if err == nil || err.Error() != "the player's MoveBatch returned 0 replies to 1 requests" {
		t.Errorf("short batch: Run = %v", err)
	}
}

// short answers no request.
type short struct{}

func (short) Move(*client.Game, *protocol.Move) client.Reply { return client.Reply{} }
func (short) MoveBatch(reqs []client.Request) []client.Reply { return nil }

// recorder records what an Observer is told.
type recorder struct {
	client.Random
	log []string
}

func (r *recorder) NewGame(g *client.Game) {
	r.log = append(r.log, fmt.Sprintf("new %d seat %d", g.ID, g.Seat))
}

func (r *recorder) Event(g *client.Game, ev protocol.Message) {
	r.log = append(r.log, fmt.Sprintf("%s %d: first %d, seen %v, taken %v, mover %d, ended %v",
		ev.Type(), g.ID, g.First, g.Seen, g.Taken, g.Mover, g.Ended()))
}

// TestObserver: an Observer sees each game start and each event after the record is updated.
func TestObserver(t *testing.T) {
	r := &recorder{}
	in := hello + noOpts + fmt.Sprintf(newGame, 7) +
		`{"type":"flip","game":7,"seat":0,"pos":3,"face":1}` + "\n" +
		`{"type":"flip","game":7,"seat":0,"pos":0,"face":1}` + "\n" +
		`{"type":"pair","game":7,"seat":0,"face":1,"positions":[3,0]}` + "\n" +
		`{"type":"flip","game":7,"seat":0,"pos":1,"face":0}` + "\n" +
		`{"type":"flip","game":7,"seat":0,"pos":2,"face":0}` + "\n" +
		`{"type":"pair","game":7,"seat":0,"face":0,"positions":[1,2]}` + "\n" +
		`{"type":"end","game":7,"scores":[2,0]}` + "\n" +
		fmt.Sprintf(newGame, 7)
	err, _ := session(t, client.Info{Name: "t", Version: "1", View: "events"},
		func(map[string]any) (client.Player, error) { return r, nil }, []chunk{{in, ""}})
	want := []string{
		"new 7 seat 0",
		"flip 7: first 3, seen [-1 -1 -1 1], taken [0 0], mover 0, ended false",
		"flip 7: first 3, seen [1 -1 -1 1], taken [0 0], mover 0, ended false",
		"pair 7: first -1, seen [-1 -1 -1 -1], taken [1 0], mover 0, ended false",
		"flip 7: first 1, seen [-1 0 -1 -1], taken [1 0], mover 0, ended false",
		"flip 7: first 1, seen [-1 0 0 -1], taken [1 0], mover 0, ended false",
		"pair 7: first -1, seen [-1 -1 -1 -1], taken [2 0], mover 0, ended false",
		"end 7: first -1, seen [-1 -1 -1 -1], taken [2 0], mover 0, ended true",
		"new 7 seat 0",
	}
	if err != nil || !reflect.DeepEqual(r.log, want) {
		t.Errorf("Run: %v; told\n%s\nwant\n%s", err, strings.Join(r.log, "\n"), strings.Join(want, "\n"))
	}
}

// parityAt answers position queries and first-card requests with the parity policy's choice:
// daring when j is odd, safe when j is even and safe is open.
type parityAt struct{}

func (parityAt) ChooseAt(_ protocol.Rules, st protocol.State, choices []string) string {
	if st.J%2 == 0 && slices.Contains(choices, "safe") {
		return "safe"
	}
	return "daring"
}

func (p parityAt) Move(g *client.Game, req *protocol.Move) client.Reply {
	return client.Choose(p.ChooseAt(g.Rules, *req.State, req.Choices))
}

// safeAt answers safe to every position query, open or not.
type safeAt struct{ parityAt }

func (safeAt) ChooseAt(protocol.Rules, protocol.State, []string) string { return "safe" }

// position is a position query of a game of 4 pairs and the full choice set.
func position(id int64, n, j, lead int, choices string) string {
	return fmt.Sprintf(`{"type":"position","game":%d,"rules":{"pairs":4,"singletons":0,"seats":2,"pass":"never","choices":["daring","safe","known-first","pass"]},`+
		`"state":{"n":%d,"j":%d,"s":0,"f":0,"lead":%d,"after_pass":false},"choices":[%s]}`+"\n", id, n, j, lead, choices)
}

// TestPositions: a player that declares positions answers the queries that arrive together with
// ChooseAt, in one write, and declares them in its handshake.
func TestPositions(t *testing.T) {
	info := client.Info{Name: "p", Version: "1", View: protocol.ViewState, Positions: protocol.PositionsCount}
	all := `"daring","safe","known-first"`
	err, _ := session(t, info, func(map[string]any) (client.Player, error) { return parityAt{}, nil }, []chunk{
		{hello, `{"type":"player","name":"p","version":"1","view":"state","positions":"count"}` + "\n"},
		{noOpts + position(0, 3, 2, 0, all) + position(1, 3, 1, 0, all) + position(2, 2, 2, 0, `"daring"`),
			`{"type":"choice","game":0,"choice":"safe"}` + "\n" + `{"type":"choice","game":1,"choice":"daring"}` + "\n" +
				`{"type":"choice","game":2,"choice":"daring"}` + "\n"},
		{position(3, 4, 0, 0, all), `{"type":"choice","game":3,"choice":"safe"}` + "\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPositionErrors: a query to a player that declares no positions, at a lead to a lead-free
// player, or with the id of a game in flight ends Run naming the line; so does a declaration
// without ChooseAt.
func TestPositionErrors(t *testing.T) {
	all := `"daring","safe","known-first"`
	stateGame := `{"type":"new_game","game":5,"seat":0,"seed":1,` + rules2 + "}\n"
	for _, tc := range []struct {
		name      string
		positions string
		player    client.Player
		in        string
		want      string
	}{
		{"no positions declared", "", parityAt{}, hello + noOpts + position(0, 3, 2, 0, all), "line 3: position: the player declares no positions"},
		{"a lead to a lead-free player", protocol.PositionsCount, parityAt{}, hello + noOpts + position(0, 3, 2, 1, all), "line 3: position: lead 1: the player declares positions count"},
		{"the id of a game in flight", protocol.PositionsCount, parityAt{}, hello + noOpts + stateGame + position(5, 3, 2, 0, all), "line 4: position: id 5 is a game in flight"},
		{"a choice not open", protocol.PositionsCount, safeAt{}, hello + noOpts + position(0, 3, 2, 0, `"daring"`), `line 3: position: the player's reply to position query 0: field choice: "safe" is not open`},
		{"no ChooseAt", protocol.PositionsCount, &scripted{}, hello + noOpts, "start the player: its Info declares positions, and it has no ChooseAt method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := client.Info{Name: "t", Version: "1", View: protocol.ViewState, Positions: tc.positions}
			err, _ := session(t, info, func(map[string]any) (client.Player, error) { return tc.player, nil }, []chunk{{tc.in, ""}})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Run = %v\nwant one line starting %q", err, tc.want)
			}
		})
	}
}
