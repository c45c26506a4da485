package record_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// mixedTable returns a choice table that plays, in each state, a legal choice picked by a hash of
// the state, so that the games it plays hold every kind of turn, passes and stalemates included.
func mixedTable(t *testing.T, pairs, singletons int, pass rules.PassRule, salt int) *rules.ChoiceTable {
	t.Helper()
	tb, err := rules.NewChoiceTable(pairs, singletons)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= pairs; n++ {
		for j := 0; j <= n; j++ {
			for s := singletons; s <= singletons; s++ { // singletons never leave the table
				for f := 0; f <= s; f++ {
					for _, after := range []bool{false, true} {
						st := rules.State{N: n, J: j, S: s, F: f}
						var legal []rules.Choice
						for _, c := range rules.Choices() {
							if rules.Legal(st, c, pass) {
								legal = append(legal, c)
							}
						}
						h := (n*131 + j*31 + s*17 + f*7 + salt*101)
						if after {
							h += 3
						}
						tb.Set(st, after, legal[h%len(legal)])
					}
				}
			}
		}
	}
	return tb
}

// fromLog returns the record of a game the engine logged.
func fromLog(l *sim.Log, r record.Rules) *record.Game {
	g := &record.Game{Rules: r}
	for _, name := range l.Names {
		g.Players = append(g.Players, record.Player{Name: name, Kind: record.KindBuiltIn})
	}
	for _, t := range l.Turns {
		if len(t.Flips) == 0 {
			m := record.PassMove()
			m.Seat = t.Seat
			g.Moves = append(g.Moves, m)
		}
		for _, c := range t.Flips {
			m := record.Flip(c.Pos, c.Face)
			m.Seat = t.Seat
			g.Moves = append(g.Moves, m)
		}
	}
	return g
}

// TestRecordsOfEngineGamesReadBackWithTheirResults plays games in the engine under every pass
// rule, with singletons, one to three seats and forgetful players, writes each as a record,
// reads it back and checks the record's result and turns against the engine's own.
func TestRecordsOfEngineGamesReadBackWithTheirResults(t *testing.T) {
	stalemates, passes := 0, 0
	deals := uint64(20)
	if testing.Short() {
		deals = 6
	}
	for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for _, seats := range []int{1, 2, 3} {
			for _, singletons := range []int{0, 2} {
				for _, forgetful := range []bool{false, true} {
					const pairs = 6
					setup := sim.Setup{Pairs: pairs, Singletons: singletons, Pass: pass}
					for s := range seats {
						p := sim.Player{Name: fmt.Sprintf("p%d", s), Table: mixedTable(t, pairs, singletons, pass, s)}
						if forgetful {
							p.Memory = rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}
						}
						setup.Players = append(setup.Players, p)
					}
					game, err := sim.NewGame(setup)
					if err != nil {
						t.Fatal(err)
					}
					r := record.Rules{Pairs: pairs, Singletons: singletons, Seats: seats, Pass: pass}
					var buf bytes.Buffer
					w := record.NewWriter(&buf)
					var logs []sim.Log
					var outcomes []sim.Outcome
					for d := range deals {
						var l sim.Log
						if err := game.Play(sim.GameID{Seed: 5, PlayStream: uint64(seats), Index: d}, &l); err != nil {
							t.Fatal(err)
						}
						o := *game.Outcome()
						o.Pairs, o.Share = slices.Clone(o.Pairs), slices.Clone(o.Share)
						logs, outcomes = append(logs, l), append(outcomes, o)
						g := fromLog(&l, r)
						g.Ended = o.Stalemate
						if err := w.Write(g); err != nil {
							t.Fatalf("pass %v, %d seats: game %d: %v", pass, seats, d, err)
						}
					}
					if err := w.Flush(); err != nil {
						t.Fatal(err)
					}
					games, err := record.NewReader(&buf, "").ReadAll()
					if err != nil {
						t.Fatalf("pass %v, %d seats, %d singletons, forgetful %v: %v", pass, seats, singletons, forgetful, err)
					}
					if len(games) != len(logs) {
						t.Fatalf("read %d games, wrote %d", len(games), len(logs))
					}
					for i, g := range games {
						o := &outcomes[i]
						res := g.Result
						if !slices.Equal(res.Taken, o.Pairs) || res.Stalemate != o.Stalemate || !res.Over {
							t.Errorf("game %d: result %+v, the engine's %+v", i, res, o)
						}
						for s, sc := range res.Scores {
							if math.Abs(sc*float64(seats)-float64(o.Share[s])) > 1e-9 {
								t.Errorf("game %d: seat %d scores %v, the engine's share %d/%d", i, s, sc, o.Share[s], seats)
							}
						}
						if len(g.Turns) != len(logs[i].Turns) {
							t.Fatalf("game %d: %d turns, the engine's %d", i, len(g.Turns), len(logs[i].Turns))
						}
						for k, turn := range g.Turns {
							lt := logs[i].Turns[k]
							end := turn.End.String()
							if turn.Seat != lt.Seat || (!forgetful && end != lt.End) || (forgetful && (lt.End == "pass") && end != "pass") ||
								((lt.End == "pair") != (end == "pair")) {
								t.Errorf("game %d turn %d: seat %d ends %s, the engine's seat %d %s", i, k, turn.Seat, end, lt.Seat, lt.End)
							}
							if end == "pass" {
								passes++
							}
							checkTable(t, g, k)
						}
						if res.Stalemate {
							stalemates++
						}
					}
				}
			}
		}
	}
	if stalemates == 0 || passes == 0 {
		t.Errorf("%d stalemates and %d passes in the games: the test covers neither", stalemates, passes)
	}
}

// checkTable recounts the table before turn k of g from the moves before it, by brute force, and
// compares it with the turn's.
func checkTable(t *testing.T, g *record.Game, k int) {
	t.Helper()
	turn := g.Turns[k]
	r := g.Rules
	seenAt := map[int]map[int]bool{} // face -> positions seen
	gone := map[int]bool{}           // positions taken
	taken := map[int]int{}           // face -> pairs taken
	for _, m := range g.Moves[:turn.First] {
		if m.Pass {
			continue
		}
		if seenAt[m.Face] == nil {
			seenAt[m.Face] = map[int]bool{}
		}
		seenAt[m.Face][m.Pos] = true
	}
	for _, tn := range g.Turns[:k] {
		if tn.End == record.EndPair {
			taken[g.Moves[tn.First].Face]++
			gone[g.Moves[tn.First].Pos], gone[g.Moves[tn.First+1].Pos] = true, true
		}
	}
	// A face's seen cards on the table make pairs known whole, two by two; an odd one out makes
	// a pair with one card seen; the face's other pairs are unknown.
	want := record.Table{Turn: k}
	copies := r.Variant.CopiesOf()
	faces := 2 * r.Pairs / copies
	for face := range faces {
		pairs := copies/2 - taken[face]
		seen := 0
		for pos := range seenAt[face] {
			if !gone[pos] {
				seen++
			}
		}
		want.Pairs += pairs
		want.Whole += seen / 2
		want.Unknown += pairs - seen/2 - seen%2
	}
	want.Singletons = r.Singletons
	for face := faces; face < faces+r.Singletons; face++ {
		if len(seenAt[face]) == 0 {
			want.UnseenSingletons++
		}
	}
	got := turn.Before
	if got.Pairs != want.Pairs || got.Unknown != want.Unknown || got.Whole != want.Whole || got.Turn != want.Turn ||
		got.Singletons != want.Singletons || got.UnseenSingletons != want.UnseenSingletons {
		t.Errorf("turn %d: table %+v, counted %+v", k, got, want)
	}
	if k > 0 {
		prev := g.Turns[k-1]
		if wantAfter := prev.End == record.EndPass && r.Seats > 1; got.AfterPass != wantAfter {
			t.Errorf("turn %d: after pass %v, the turn before ended %s", k, got.AfterPass, prev.End)
		}
	}
}

// docExample returns the example record of docs/records.md.
func docExample(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "records.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```memsim-record\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/records.md has no memsim-record example")
	}
	return string(m[1])
}

// TestTheDocumentedExampleReads checks the example of docs/records.md: Ann takes all three pairs
// (worked out by hand in the doc), Ben's turn is a miss, and the times are kept.
func TestTheDocumentedExampleReads(t *testing.T) {
	games, err := record.NewReader(strings.NewReader(docExample(t)), "example").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	if !slices.Equal(g.Result.Scores, []float64{3, 0}) || !g.Result.Over || len(g.Turns) != 5 {
		t.Fatalf("result %+v in %d turns, want 3-0 in 5", g.Result, len(g.Turns))
	}
	var ends []string
	for _, tn := range g.Turns {
		ends = append(ends, fmt.Sprintf("%d:%s", tn.Seat, tn.End))
	}
	if want := []string{"0:miss", "1:miss", "0:pair", "0:pair", "0:pair"}; !slices.Equal(ends, want) {
		t.Errorf("turns %v, want %v", ends, want)
	}
	if g.Players[0].Name != "Ann" || g.Moves[9].MS != 15000 || g.Moves[9].Seat != 0 {
		t.Errorf("players %v, last move %+v", g.Players, g.Moves[9])
	}
	// Ann's third turn: face 1 at 1 seen, faces 0 at 0 and 2 at 2 seen, the second 2 just taken.
	if st := g.Turns[3].Before.State(0); st != (rules.State{N: 2, J: 0, S: 0, F: 0, Lead: 1}) {
		t.Errorf("the state before turn 3 is %v, want (2, 0), d=1", st)
	}
}

// TestWrittenRecordsReadBackTheSame checks that a record read, written and read again is the same
// game.
func TestWrittenRecordsReadBackTheSame(t *testing.T) {
	games, err := record.NewReader(strings.NewReader(docExample(t)), "").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	if err := w.Write(games[0]); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	again, err := record.NewReader(bytes.NewReader(buf.Bytes()), "").ReadAll()
	if err != nil {
		t.Fatalf("%v in\n%s", err, buf.String())
	}
	a, b := games[0], again[0]
	if !slices.Equal(a.Moves, b.Moves) || !slices.Equal(a.Result.Scores, b.Result.Scores) || a.Rules != b.Rules ||
		!slices.Equal(a.Players, b.Players) {
		t.Errorf("read back\n%+v\nwant\n%+v", b, a)
	}
}

// TestBadRecordsAreRefusedWithTheirLine checks that each way a record can be wrong is refused
// with the line and the field at fault.
func TestBadRecordsAreRefusedWithTheirLine(t *testing.T) {
	const head = `{"type":"game","format":"memsim-record/1","rules":{"pairs":2}}` + "\n"
	cases := []struct{ name, record, want string }{
		{"empty", "", "f:0: no game in the record"},
		{"not json", "hello\n", "f:1: not a JSON object"},
		{"no type", `{"format":"x"}` + "\n", `f:1: no "type"`},
		{"moves first", `{"type":"flip","pos":0,"face":0}` + "\n", "f:1: flip: before any game line"},
		{"format", `{"type":"game","format":"memsim-record/2","rules":{"pairs":2}}` + "\n", `f:1: game: format: "memsim-record/2" is not "memsim-record/1"`},
		{"no rules", `{"type":"game","format":"memsim-record/1"}` + "\n", "f:1: game: rules: missing"},
		{"pairs 0", `{"type":"game","format":"memsim-record/1","rules":{"pairs":0}}` + "\n", "f:1: game: rules: pairs: 0 is out of range (1 to 1000)"},
		{"pairs fraction", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2.5}}` + "\n", "f:1: game: rules: pairs: 2.5 is not an integer"},
		{"pass rule", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"pass":"sometimes"}}` + "\n", `f:1: game: rules: pass: unknown pass rule "sometimes"`},
		{"choices", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"choices":["safe"]}}` + "\n", "f:1: game: rules: choices:"},
		{"choices twice", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"choices":["daring","daring"]}}` + "\n", "f:1: game: rules: choices: daring is given twice"},
		{"line too long", head + `{"type":"flip","pos":0,"face":0,"ms":` + strings.Repeat("1", record.MaxLine) + "}\n", "f:2: longer than"},
		{"rules field", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"colours":2}}` + "\n", "f:1: game: rules: colours: not a field of the rules"},
		{"unknown field", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2},"seed":1}` + "\n", "f:1: game: seed: not a field of a game line"},
		{"null", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2},"meta":null}` + "\n", "f:1: game: meta: is null"},
		{"players", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2},"players":[{"name":"a"}]}` + "\n", "f:1: game: players: 1 players for 2 seats"},
		{"player kind", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2},"players":[{"name":"a","kind":"cat"},{"name":"b"}]}` + "\n", `f:1: game: players[0].kind: "cat" is not a kind`},
		{"deal", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2},"deal":[0,0,0,1]}` + "\n", "f:1: game: deal: [2]: face 0 lies at more than 2 positions"},
		{"started", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2},"started":"yesterday"}` + "\n", `f:1: game: started: "yesterday" is not an RFC 3339 time`},
		{"line type", head + `{"type":"turn"}` + "\n", `f:2: type: "turn" is not a line type of a record`},
		{"pos range", head + `{"type":"flip","pos":4,"face":0}` + "\n", "f:2: flip: pos: 4 is out of range (0 to 3)"},
		{"no face", head + `{"type":"flip","pos":1}` + "\n", "f:2: flip: face: missing"},
		{"face range", head + `{"type":"flip","pos":1,"face":2}` + "\n", "f:2: flip: face: 2 is out of range (0 to 1)"},
		{"same card", head + `{"type":"flip","pos":1,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":0}` + "\n", "f:3: flip: pos: the card at 1 is the turn's first card, already face up"},
		{"face changes", head + `{"type":"flip","pos":1,"face":0}` + "\n" + `{"type":"flip","pos":2,"face":1}` + "\n" + `{"type":"flip","pos":1,"face":1}` + "\n", "f:4: flip: face: 1: position 1 showed face 0 before"},
		{"three of a face", head + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":1}` + "\n" +
			`{"type":"flip","pos":2,"face":0}` + "\n" + `{"type":"flip","pos":3,"face":0}` + "\n", "f:5: flip: face: 0: both cards of the face were seen before"},
		{"taken card", head + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":0}` + "\n" + `{"type":"flip","pos":0,"face":0}` + "\n", "f:4: flip: pos: the card at 0 was taken with its pair"},
		{"wrong seat", head + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":1}` + "\n" + `{"type":"flip","seat":0,"pos":2,"face":0}` + "\n", "f:4: flip: seat: 0 is not the seat to move (1)"},
		{"pass never", head + `{"type":"pass"}` + "\n", "f:2: pass: a pass, which the pass rule never does not allow"},
		{"pass two-known", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"pass":"two-known"}}` + "\n" + `{"type":"pass"}` + "\n", "f:2: pass: a pass with 0 seen cards on the table, which the pass rule two-known does not allow"},
		{"time back", head + `{"type":"flip","pos":0,"face":0,"ms":50}` + "\n" + `{"type":"flip","pos":1,"face":1,"ms":40}` + "\n", "f:3: flip: ms: 40 is before the move before (50)"},
		{"after the end", head + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":0}` + "\n" +
			`{"type":"flip","pos":2,"face":1}` + "\n" + `{"type":"flip","pos":3,"face":1}` + "\n" + `{"type":"flip","pos":3,"face":1}` + "\n", "f:6: flip: a move after the game's end"},
		{"end mid-turn", head + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"end","scores":[0,0]}` + "\n", "f:3: end: the game ends in the middle of a turn"},
		{"end early", head + `{"type":"end","scores":[0,0]}` + "\n", "f:2: end: the game ends with 2 pairs on the table, and the pass rule never has no stalemate"},
		{"end early, passes allowed", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"pass":"always"}}` + "\n" + `{"type":"pass"}` + "\n" + `{"type":"end","scores":[1,1]}` + "\n", "f:3: end: the game ends with 2 pairs on the table and no stalemate (only 1 of the 2 seats passed in turn)"},
		{"end scores", head + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":0}` + "\n" +
			`{"type":"flip","pos":2,"face":1}` + "\n" + `{"type":"flip","pos":3,"face":1}` + "\n" + `{"type":"end","scores":[1,1]}` + "\n", "f:6: end: scores[0]: 1, but seat 0's score is 2"},
		{"after end", head + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":0}` + "\n" +
			`{"type":"flip","pos":2,"face":1}` + "\n" + `{"type":"flip","pos":3,"face":1}` + "\n" + `{"type":"end","scores":[2,0]}` + "\n" + `{"type":"pass"}` + "\n", "f:7: pass: after the game's end line"},
		{"field twice", head + `{"type":"flip","pos":0,"face":0,"pos":1}` + "\n", "f:2: flip: pos: given twice"},
		{"type twice", `{"type":"flip","type":"game","format":"memsim-record/1","rules":{"pairs":2}}` + "\n", "f:1: type: given twice"},
		{"rule twice", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"pairs":3}}` + "\n", "f:1: game: rules.pairs: given twice"},
		{"meta key twice", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2},"meta":{"a":"1","a":"2"}}` + "\n", "f:1: game: meta.a: given twice"},
		{"player field twice", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2},"players":[{"name":"a"},{"name":"b","name":"c"}]}` + "\n", "f:1: game: players[1].name: given twice"},
		{"bad utf8", head + "{\"type\":\"flip\",\"pos\":0,\"face\":0,\"x\":\"\xff\"}\n", "f:2: not valid UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := record.NewReader(strings.NewReader(c.record), "f").ReadAll()
			var re *record.Error
			if err == nil || !errors.As(err, &re) || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got %v, want an error beginning %q", err, c.want)
			}
		})
	}
}

// TestUnfinishedAndStalematedGames checks a record that stops with pairs on the table (read as
// unfinished) and one that ends in a stalemate (every seat passed in turn).
func TestUnfinishedAndStalematedGames(t *testing.T) {
	const always = `{"type":"game","format":"memsim-record/1","rules":{"pairs":3,"pass":"always"}}` + "\n"
	unfinished := always + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":1}` + "\n" + `{"type":"flip","pos":2,"face":2}` + "\n"
	games, err := record.NewReader(strings.NewReader(unfinished), "").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	if g.Result.Over || g.Ended || g.Result.Left != 3 || len(g.Turns) != 2 || g.Turns[1].End != record.EndUnfinished {
		t.Errorf("unfinished game read as %+v, turns %+v", g.Result, g.Turns)
	}
	stalemate := always + `{"type":"flip","pos":0,"face":0}` + "\n" + `{"type":"flip","pos":1,"face":0}` + "\n" +
		`{"type":"pass"}` + "\n" + `{"type":"flip","pos":2,"face":1}` + "\n" + `{"type":"flip","pos":3,"face":2}` + "\n" +
		`{"type":"pass"}` + "\n" + `{"type":"pass"}` + "\n" + `{"type":"end","scores":[2,1]}` + "\n"
	games, err = record.NewReader(strings.NewReader(stalemate), "").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	g = games[0]
	if !g.Result.Stalemate || !slices.Equal(g.Result.Scores, []float64{2, 1}) || !g.Turns[2].Before.AfterPass {
		t.Errorf("stalemate read as %+v", g.Result)
	}
	// The same game with two seats passing out of turn order is no stalemate.
	bad := strings.Replace(stalemate, `{"type":"pass"}`+"\n"+`{"type":"end"`, `{"type":"flip","pos":4,"face":1}`+"\n"+`{"type":"flip","pos":5,"face":2}`+"\n"+`{"type":"end"`, 1)
	if _, err := record.NewReader(strings.NewReader(bad), "").ReadAll(); err == nil || !strings.Contains(err.Error(), "no stalemate") {
		t.Errorf("got %v, want an error saying there is no stalemate", err)
	}
}

// TestReaderReadsGameByGame checks that Read returns the games one at a time and then io.EOF.
func TestReaderReadsGameByGame(t *testing.T) {
	ex := docExample(t)
	r := record.NewReader(strings.NewReader(ex+"\n"+ex), "")
	for i := range 2 {
		g, err := r.Read()
		if err != nil || g.Line != 1+i*13 {
			t.Fatalf("game %d: %v at line %d", i, err, g.Line)
		}
	}
	if _, err := r.Read(); err != io.EOF {
		t.Errorf("after the last game: %v, want io.EOF", err)
	}
}
