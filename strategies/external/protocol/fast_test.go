package protocol

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// fastLines are lines of every message type the fast path reads, with variations of spacing,
// member order and values, and lines it must leave to the general path.
var fastLines = []struct {
	side Side
	line string
}{
	{FromPlayer, `{"type":"flip","game":7,"pos":3}`},
	{FromPlayer, ` {"type" : "flip" , "pos":0,"game":9007199254740991}` + "\r"},
	{FromPlayer, `{"type":"pass","game":0}`},
	{FromPlayer, `{"type":"choice","game":7,"choice":"known-first"}`},
	{FromPlayer, `{"type":"choice","game":7,"choice":"bold"}`},
	{FromPlayer, `{"type":"flip","game":7,"pos":3,"pos":4}`},
	{FromPlayer, `{"type":"flip","game":7}`},
	{FromPlayer, `{"type":"flip","game":7,"pos":3,"face":1}`},
	{FromPlayer, `{"type":"flip","game":7,"pos":3.0}`},
	{FromPlayer, `{"type":"flip","game":7,"pos":1e1}`},
	{FromPlayer, `{"type":"flip","game":07,"pos":3}`},
	{FromPlayer, `{"type":"flip","game":-0,"pos":3}`},
	{FromPlayer, `{"type":"flip","game":null,"pos":3}`},
	{FromPlayer, `{"type":"flip","game":7,"pos":"3"}`},
	{FromPlayer, `{"pos":3,"type":"flip","game":7}`},
	{FromPlayer, `{"type":"fl\u0069p","game":7,"pos":3}`},
	{FromPlayer, `{"type":"flip","game":7,"pos":3}x`},
	{FromPlayer, `{"type":"flip","game":7,"pos":3}{}`},
	{FromPlayer, `{"type":"flip","game":7,"pos":99999999999999999999}`},
	{FromPlayer, `{"type":"move","game":7,"card":1,"legal":[0],"deadline_ms":5}`},
	{FromMemsim, `{"type":"new_game","game":7,"seat":1,"seed":912,"rules":{"pairs":2,"singletons":3,"seats":2,"pass":"never","choices":["daring","safe","known-first","pass"]}}`},
	{FromMemsim, `{"type":"new_game","game":7,"seat":1,"seed":912,"rules":{"pairs":2,"singletons":3,"seats":2,"pass":"never"}}`},
	{FromMemsim, `{"type":"new_game","game":7,"seat":1,"seed":912,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":[]}}`},
	{FromMemsim, `{"type":"flip","game":7,"seat":0,"pos":0,"face":1}`},
	{FromMemsim, `{"type":"pair","game":8,"seat":0,"face":0,"positions":[1,0]}`},
	{FromMemsim, `{"type":"pair","game":8,"seat":0,"face":0,"positions":[1,0,2]}`},
	{FromMemsim, `{"type":"pair","game":8,"seat":0,"face":0,"positions":[]}`},
	{FromMemsim, `{"type":"pair","game":8,"seat":0,"face":0,"positions":[1,1]}`},
	{FromMemsim, `{"type":"pass","game":7,"seat":1}`},
	{FromMemsim, `{"type":"handover","game":7,"seat":1}`},
	{FromMemsim, `{"type":"end","game":7,"scores":[0,2]}`},
	{FromMemsim, `{"type":"end","game":7,"scores":[1.5,-0,2.5e0,1E-2]}`},
	{FromMemsim, `{"type":"end","game":7,"scores":[1e400]}`},
	{FromMemsim, `{"type":"end","game":7,"scores":[1.]}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[0,1,2,3],"deadline_ms":50}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[0,1,2,3],"pass":true,"deadline_ms":50}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[0,1,2,3],"pass":false,"deadline_ms":50}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[ 3, 1 ],"deadline_ms":50}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[],"deadline_ms":50}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[0,1,2,3],"deadline_ms":50,"state":{"n":2,"j":2,"s":0,"f":0,"lead":0,"after_pass":false},"choices":["daring"]}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[0,1,2,3],"deadline_ms":50,"state":{"n":2,"j":1,"s":0,"f":0,"lead":-1,"after_pass":true},"known":[{"pos":0,"face":1},{"face":0,"pos":3}],"choices":["daring","safe"]}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[0,1,2,3],"deadline_ms":50,"state":{"n":2,"j":1,"s":0,"f":0,"lead":-1},"choices":["daring"]}`},
	{FromMemsim, `{"type":"move","game":7,"card":2,"legal":[0],"deadline_ms":50,"state":{"n":2,"j":2,"s":0,"f":0,"lead":0,"after_pass":false},"known":[]}`},
	{FromMemsim, `{"type":"move","game":7,"card":2,"legal":[0],"deadline_ms":50,"known":[{"pos":0,"face":1}]}`},
	{FromMemsim, `{"type":"hello","protocol":"memsim-player/1"}`},
	{FromMemsim, `{"type":"options","values":{}}`},
	{FromPlayer, `{"type":"flips","game":7,"positions":[3,0]}`},
	{FromPlayer, `{"type":"flips","game":7,"positions":[3,3]}`},
	{FromPlayer, `{"type":"flips","game":7,"positions":[3]}`},
	{FromPlayer, `{"type":"flips","game":7,"pos":3}`},
	{FromMemsim, `{"type":"new_game","game":7,"seat":1,"seed":912,"rules":{"pairs":26,"singletons":0,"seats":2,"pass":"never","choices":["daring"],"copies":4,"flips":"blind","turn_limit":52}}`},
	{FromMemsim, `{"type":"new_game","game":7,"seat":1,"seed":912,"rules":{"pairs":3,"singletons":0,"seats":2,"pass":"never","choices":["daring"],"copies":4}}`},
	{FromMemsim, `{"type":"new_game","game":7,"seat":1,"seed":912,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"],"flips":"upside"}}`},
	{FromMemsim, `{"type":"new_game","game":7,"seat":1,"seed":912,"rules":{"pairs":2,"singletons":0,"seats":2,"pass":"never","choices":["daring"],"turn_limit":-1}}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[0,1,2,3],"blind":true,"turn":3,"deadline_ms":50}`},
	{FromMemsim, `{"type":"move","game":7,"card":2,"legal":[0,1],"blind":true,"deadline_ms":50}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[0],"blind":true,"deadline_ms":50}`},
	{FromMemsim, `{"type":"move","game":7,"card":1,"legal":[0,1],"turn":-2,"deadline_ms":50}`},
}

// TestFastPathIsTheGeneralPath: every line the fast path reads, it reads as the general path
// does, and it reads the lines Encode writes.
func TestFastPathIsTheGeneralPath(t *testing.T) {
	for _, tc := range fastLines {
		sameAsGeneral(t, []byte(tc.line), tc.side)
	}
	for _, tc := range fastLines {
		m, err := decode([]byte(tc.line), tc.side)
		if err != nil {
			continue
		}
		line, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type() != "hello" && m.Type() != "options" && new(scanner).decode(line[:len(line)-1], tc.side) == nil {
			t.Errorf("the fast path leaves %s to the general path", line)
		}
	}
}

// sameAsGeneral checks one line and reports whether the fast path read it.
func sameAsGeneral(t *testing.T, line []byte, side Side) bool {
	m := new(scanner).decode(line, side)
	if m == nil {
		return false
	}
	want, err := decode(line, side)
	if m.check() != nil {
		if err == nil {
			t.Errorf("%s: the fast path's message fails its check, the general path reads %#v", line, want)
		}
		return false
	}
	if err != nil || !reflect.DeepEqual(m, want) {
		t.Errorf("%s: the fast path reads %#v, the general path %#v, %v", line, m, want, err)
	}
	return true
}

// FuzzFastPath: on any line, the fast path reads what the general path reads, or leaves the line
// to it.
func FuzzFastPath(f *testing.F) {
	for _, tc := range fastLines {
		f.Add(tc.line, tc.side == FromPlayer)
	}
	f.Fuzz(func(t *testing.T, line string, fromPlayer bool) {
		side := FromMemsim
		if fromPlayer {
			side = FromPlayer
		}
		sameAsGeneral(t, []byte(line), side)
		if m, err := decode([]byte(line), side); err == nil {
			sameEncoding(t, m)
		}
	})
}

// sameEncoding checks that the fast path writes m, a checked message, as the general path does,
// or leaves it to it.
func sameEncoding(t *testing.T, m Message) {
	t.Helper()
	fast, ok := appendFast([]byte("prefix"), m)
	if !ok {
		return
	}
	want, err := encode(m)
	if err != nil || !bytes.Equal(fast, append([]byte("prefix"), want...)) {
		t.Errorf("%#v: the fast path writes\n%s\nthe general path\n%s (%v)", m, fast, want, err)
	}
}

// TestFastEncodingIsTheGeneralOne writes random messages of every type the fast path writes.
func TestFastEncodingIsTheGeneralOne(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	choices := []string{"daring", "safe", "known-first", "pass"}
	scores := []float64{0, 1, 0.5, 1.0 / 3, 2.0 / 3, 1e-7, 999.125, 1000}
	fast := 0
	for range 2000 {
		var m Message
		switch r.IntN(10) {
		case 0:
			m = &Flip{Game: r.Int64N(MaxID), Pos: r.IntN(MaxCards)}
		case 1:
			m = &Pass{Game: r.Int64N(MaxID)}
		case 2:
			m = &Choice{Game: r.Int64N(10), Choice: choices[r.IntN(4)]}
		case 3:
			m = &FlipEvent{Game: r.Int64N(10), Seat: r.IntN(8), Pos: r.IntN(MaxCards), Face: r.IntN(MaxFaces)}
		case 4:
			m = &PairEvent{Game: r.Int64N(10), Seat: r.IntN(8), Face: r.IntN(MaxPairs), Positions: [2]int{r.IntN(10), 10 + r.IntN(10)}}
		case 5:
			m = &Handover{Game: r.Int64N(10), Seat: r.IntN(8)}
		case 6:
			m = &End{Game: r.Int64N(10), Scores: []float64{scores[r.IntN(len(scores))], scores[r.IntN(len(scores))]}}
		case 7:
			mv := &Move{Game: r.Int64N(10), Card: 2, Legal: []int{r.IntN(5), 5 + r.IntN(5)}, DeadlineMS: 1 + r.IntN(MaxDeadline)}
			if r.IntN(2) == 0 {
				mv.Card, mv.Pass = 1, r.IntN(2) == 0
			}
			if r.IntN(2) == 0 {
				n := r.IntN(10)
				mv.State = &State{N: n, J: r.IntN(n + 1), Lead: r.IntN(7) - 3, AfterPass: r.IntN(2) == 0}
				if r.IntN(2) == 0 {
					mv.Known = []Card{{Pos: r.IntN(5), Face: r.IntN(9)}, {Pos: 5 + r.IntN(5), Face: r.IntN(9)}}
				}
				if mv.Card == 1 {
					mv.Choices = choices[:1+r.IntN(4)]
				}
			}
			m = mv
		case 8:
			m = &NewGame{Game: r.Int64N(MaxID), Seat: 0, Seed: r.Int64N(MaxID), Rules: Rules{Pairs: 1 + r.IntN(MaxPairs), Singletons: r.IntN(9), Seats: 1 + r.IntN(8), Pass: []string{"never", "two-known", "always"}[r.IntN(3)], Choices: choices[:1+r.IntN(4)]}}
		case 9:
			n := 1 + r.IntN(10)
			m = &Position{Game: r.Int64N(MaxID), Rules: Rules{Pairs: n + r.IntN(3), Singletons: 2, Seats: 2, Pass: "always", Choices: choices},
				State: State{N: n, J: r.IntN(n + 1), S: 2, F: r.IntN(3), AfterPass: r.IntN(2) == 0}, Choices: choices[:1+r.IntN(4)]}
		}
		if err := m.check(); err != nil {
			t.Fatalf("%#v: %v", m, err)
		}
		if _, ok := appendFast(nil, m); ok {
			fast++
		}
		sameEncoding(t, m)
	}
	if fast < 1900 {
		t.Errorf("the fast path writes %d of 2000 messages", fast)
	}
}
