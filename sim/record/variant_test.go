package record_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/record"
	"memsim/sim/rules"
)

// randomFlips flips a random legal card for both cards of every turn.
type randomFlips struct{}

func (randomFlips) Flip(*sim.View) sim.Move { return sim.FlipRandom() }

// TestRecordsOfVariantGamesReadBackWithTheirResults plays games in the engine under copies of a
// face, blind flips and a turn limit, alone and together, writes each as a record, reads it back
// and checks the rules, the result (a game ended at the limit says so) and the turns against the
// engine's own, and every turn's table against a count from the moves.
func TestRecordsOfVariantGamesReadBackWithTheirResults(t *testing.T) {
	variants := []struct {
		pairs   int
		variant rules.Variant
	}{
		{6, rules.Variant{Copies: 4}},
		{6, rules.Variant{Copies: 6}},
		{5, rules.Variant{Flips: rules.FlipsBlind}},
		{5, rules.Variant{TurnLimit: 6}},
		{6, rules.Variant{Copies: 4, Flips: rules.FlipsBlind, TurnLimit: 9}},
	}
	limited := 0
	for _, v := range variants {
		for _, seats := range []int{1, 2, 3} {
			setup := sim.Setup{Pairs: v.pairs, Singletons: 1, Variant: v.variant}
			for s := range seats {
				setup.Players = append(setup.Players, sim.Player{Name: fmt.Sprintf("p%d", s),
					NewStrategy: func() sim.Strategy { return randomFlips{} }})
			}
			game, err := sim.NewGame(setup)
			if err != nil {
				t.Fatal(err)
			}
			r := record.Rules{Pairs: v.pairs, Singletons: 1, Seats: seats, Variant: v.variant}
			for d := range uint64(4) {
				var l sim.Log
				if err := game.Play(sim.GameID{Seed: 9, PlayStream: uint64(seats), Index: d}, &l); err != nil {
					t.Fatal(err)
				}
				o := game.Outcome()
				data, err := record.Marshal(fromLog(&l, r))
				if err != nil {
					t.Fatalf("%v, %d seats, game %d: %v", v.variant, seats, d, err)
				}
				games, err := record.NewReader(bytes.NewReader(data), "").ReadAll()
				if err != nil {
					t.Fatalf("%v, %d seats, game %d: %v\n%s", v.variant, seats, d, err, data)
				}
				g := games[0]
				res := g.Result
				if g.Rules.Variant.Normal() != v.variant.Normal() {
					t.Errorf("%v: read back as %v", v.variant, g.Rules.Variant)
				}
				if !res.Over || res.Limited != o.Limited || !slices.Equal(res.Taken, o.Pairs) || len(g.Turns) != o.Turns {
					t.Errorf("%v, %d seats, game %d: result %+v in %d turns, the engine's %+v", v.variant, seats, d, res, len(g.Turns), o)
				}
				for s, sc := range res.Scores {
					if math.Abs(sc*float64(seats)-float64(o.Share[s])) > 1e-9 {
						t.Errorf("%v, game %d: seat %d scores %v, the engine's share %d/%d", v.variant, d, s, sc, o.Share[s], seats)
					}
				}
				if wantReason := `"reason":"turn-limit"`; bytes.Contains(data, []byte(wantReason)) != o.Limited {
					t.Errorf("%v, game %d: limited %v, but the end line is %s", v.variant, d, o.Limited, data[bytes.LastIndex(data[:len(data)-1], []byte("\n"))+1:])
				}
				for k, turn := range g.Turns {
					if lt := l.Turns[k]; turn.Seat != lt.Seat || (turn.End == record.EndPair) != (lt.End == "pair") {
						t.Errorf("%v, game %d turn %d: seat %d ends %s, the engine's seat %d %s", v.variant, d, k, turn.Seat, turn.End, lt.Seat, lt.End)
					}
					checkTable(t, g, k)
				}
				if o.Limited {
					limited++
				}
			}
		}
	}
	if limited == 0 {
		t.Error("no game ended at its turn limit: the test does not cover the limit")
	}
}

// TestStandardRecordsHaveNoVariantFields checks that a standard game is written as before: no
// copies, flips, turn_limit or reason.
func TestStandardRecordsHaveNoVariantFields(t *testing.T) {
	g := &record.Game{Rules: record.Rules{Pairs: 1, Seats: 1}, Moves: []record.Move{record.Flip(0, 0), record.Flip(1, 0)}}
	data, err := record.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"copies", "flips", "turn_limit", "reason"} {
		if bytes.Contains(data, []byte(field)) {
			t.Errorf("a standard game's record holds %s:\n%s", field, data)
		}
	}
}

// TestBadVariantRecordsAreRefusedWithTheirLine checks damaged and inconsistent variant fields and
// moves that break a variant's rules.
func TestBadVariantRecordsAreRefusedWithTheirLine(t *testing.T) {
	game := func(rules string) string {
		return `{"type":"game","format":"memsim-record/1","rules":{` + rules + `}}` + "\n"
	}
	flip := func(pos, face int) string { return fmt.Sprintf(`{"type":"flip","pos":%d,"face":%d}`+"\n", pos, face) }
	limit2 := game(`"pairs":3,"turn_limit":2`) + flip(0, 0) + flip(1, 1) + flip(2, 2) + flip(3, 0)
	copies4 := game(`"pairs":2,"copies":4`)
	cases := []struct{ name, record, want string }{
		{"copies odd", game(`"pairs":3,"copies":3`), "f:1: game: rules: copies: 3 is not an even number from 2 to 64"},
		{"copies too many", game(`"pairs":100,"copies":66`), "f:1: game: rules: copies: 66 is not an even number from 2 to 64"},
		{"copies text", game(`"pairs":2,"copies":"4"`), `f:1: game: rules: copies: "4" is not an integer`},
		{"copies and pairs", game(`"pairs":3,"copies":4`), "f:1: game: rules: copies: 3 pairs do not make whole faces of 4 cards (pairs must be a multiple of 2)"},
		{"flips", game(`"pairs":2,"flips":"upside"`), `f:1: game: rules: flips: unknown flip rule "upside"`},
		{"turn limit", game(`"pairs":2,"turn_limit":-1`), "f:1: game: rules: turn_limit: -1 is negative (0 for no limit)"},
		{"turn limit fraction", game(`"pairs":2,"turn_limit":1.5`), "f:1: game: rules: turn_limit: 1.5 is not an integer"},
		{"deal of copies", `{"type":"game","format":"memsim-record/1","rules":{"pairs":2,"copies":4},"deal":[0,0,0,1]}` + "\n", "f:1: game: deal: [3]: face 1 is out of range (0 to 0)"},
		{"face of copies", copies4 + flip(0, 1), "f:2: flip: face: 1 is out of range (0 to 0)"},
		{"five of four", copies4 + flip(0, 0) + flip(1, 0) + flip(2, 0) + flip(3, 0) + `{"type":"end","scores":[1,1]}` + "\n", "f:6: end: scores[0]: 1, but seat 0's score is 2"},
		{"after the limit", limit2 + flip(4, 1), "f:6: flip: a move after the game's end: the turn limit of 2 turns is reached"},
		{"limit scores", limit2 + `{"type":"end","scores":[0,1]}` + "\n", "f:6: end: scores[1]: 1, but seat 1's score is 0"},
		{"reason unknown", limit2 + `{"type":"end","scores":[0,0],"reason":"time"}` + "\n", `f:6: end: reason: "time" is not a reason (allowed: pairs, stalemate, turn-limit)`},
		{"reason wrong", game(`"pairs":1`) + flip(0, 0) + flip(1, 0) + `{"type":"end","scores":[1,0],"reason":"turn-limit"}` + "\n", "f:4: end: reason: turn-limit, but the game ended by pairs"},
		{"reason before the limit", game(`"pairs":3,"turn_limit":5`) + flip(0, 0) + flip(1, 1) + `{"type":"end","scores":[0,0],"reason":"turn-limit"}` + "\n", "f:4: end: the game ends with 3 pairs on the table, and the pass rule never has no stalemate"},
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

// TestGameAtTheTurnLimit checks a game stopped by its limit: it is over, the pairs left count for
// nobody, with or without its end line, and its end line's reason is checked.
func TestGameAtTheTurnLimit(t *testing.T) {
	const moves = `{"type":"game","format":"memsim-record/1","rules":{"pairs":3,"turn_limit":3}}
{"type":"flip","pos":0,"face":0}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":2,"face":1}
{"type":"flip","pos":1,"face":1}
{"type":"flip","pos":3,"face":2}
{"type":"flip","pos":4,"face":0}
`
	for _, end := range []string{"", `{"type":"end","scores":[0,1]}` + "\n", `{"type":"end","scores":[0,1],"reason":"turn-limit"}` + "\n"} {
		games, err := record.NewReader(strings.NewReader(moves+end), "").ReadAll()
		if err != nil {
			t.Fatalf("end line %q: %v", end, err)
		}
		res := games[0].Result
		if !res.Over || !res.Limited || res.Stalemate || res.Left != 2 || !slices.Equal(res.Scores, []float64{0, 1}) || !games[0].Ended {
			t.Errorf("end line %q: result %+v", end, res)
		}
		data, err := record.Marshal(games[0])
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"type":"end","scores":[0,1],"reason":"turn-limit"}`; !bytes.Contains(data, []byte(want)) {
			t.Errorf("written as\n%s\nwant the end line %s", data, want)
		}
	}
}
