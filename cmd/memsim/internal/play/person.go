package play

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"memsim/sim"
	"memsim/sim/rules"
)

// ErrQuit is the error of a person who quit the game.
var ErrQuit = errors.New("quit")

// ErrInputEnded is the error of input that ended (EOF) before the game.
var ErrInputEnded = errors.New("the input ended")

// Question is what the person is asked: a card of the turn, and whether a pass is allowed.
type Question struct {
	// Second reports the turn's second card; CanPass that a pass is allowed now.
	Second, CanPass bool
	// Blind reports blind flips: the person names both cards before either is turned up, at
	// once (an Answer with Both) or one after the other, the first staying face down.
	Blind bool
	// Reason says why the answer before was refused, "" when the question is new.
	Reason string
	// Advice is the coach's, "" without a coach.
	Advice string
}

// Answer is the person's move: a pass, or the card at Pos; under blind flips, with Both, the
// turn's two cards at Pos and Pos2.
type Answer struct {
	Pass      bool
	Pos, Pos2 int
	Both      bool
}

// Snapshot is what a UI shows: the table, and what each bot remembers now (one line a bot).
type Snapshot struct {
	Table  *Table
	Memory []string
}

// UI is a way of showing the game to the person and asking for moves.
type UI interface {
	// Event shows event e, already applied to the table. It may pause to let the person see a
	// bot's card, and returns ctx's error when ctx ends the pause.
	Event(ctx context.Context, s Snapshot, e sim.Event) error
	// Ask asks the person's move until it gets one: an Answer, or ErrQuit, ErrInputEnded, or
	// ctx's error. Commands that ask for no move (showing the memories, the help) it serves
	// itself.
	Ask(ctx context.Context, s Snapshot, q Question) (Answer, error)
}

// Situation is the person's position when a move is asked, for a Coach.
type Situation struct {
	// Table is the game as every player sees it; Seat the person's.
	Table *Table
	Seat  int
	// State is the count state a perfect memory sees at the start of the turn (docs/models.md
	// §3), with the person's lead with two seats; AfterPass reports that the previous seat
	// passed.
	State     rules.State
	AfterPass bool
	// Second reports that the turn's first card, First, is face up.
	Second bool
	First  sim.Card
	// Pass is the game's pass rule.
	Pass rules.PassRule
}

// A Coach advises the person at each move: the value of each choice, what the last move cost.
// Person shows its text (lines separated by "\n") with the question; "" shows nothing.
type Coach interface {
	Advise(s Situation) string
}

// Person is the person's seat: a sim.Strategy that asks the person for each flip through a UI
// and answers the engine only with legal moves, and a sim.Observer that keeps the Table and
// shows every event. Give it to the engine through sim.Player.NewStrategy; it plays one game.
type Person struct {
	// Ctx ends the game when it is done: the person's move is then a failure with its error.
	Ctx   context.Context
	Table *Table
	UI    UI
	// Memories, when not nil, returns the cards a seat remembers now (sim.Game.Remembered).
	Memories func(seat int) []sim.Card
	// Coach, when not nil, advises the person at each move.
	Coach Coach

	start      time.Time
	firstKnown bool // the turn's first card was seen before it was flipped
	// second is the second card of a blind turn the person named with the first, or -1.
	second int
	err    error
}

// BeginGame starts the game's clock.
func (p *Person) BeginGame(sim.GameInfo) error {
	p.start, p.second = time.Now(), -1
	return nil
}

// Observe keeps the table and shows the event.
func (p *Person) Observe(e sim.Event) {
	p.Table.Apply(e, time.Since(p.start).Milliseconds())
	if p.err != nil {
		return
	}
	if err := p.UI.Event(p.Ctx, p.Snapshot(), e); err != nil {
		p.err = err
	}
}

// EndGame does nothing: the caller shows the outcome.
func (p *Person) EndGame(*sim.Outcome) error { return nil }

// Snapshot returns what the UI shows now.
func (p *Person) Snapshot() Snapshot {
	return Snapshot{Table: p.Table, Memory: p.MemoryLines()}
}

// MemoryLines says what each bot remembers now, a line each: "daring (seat 1, perfect memory)
// remembers a1 P0, b2 P3".
func (p *Person) MemoryLines() []string {
	t := p.Table
	var lines []string
	for i, s := range t.Seats {
		if s.Person {
			continue
		}
		who := fmt.Sprintf("%s (seat %d", s.Name, i)
		switch {
		case s.Program:
			lines = append(lines, who+"): unknown (a program keeps its own memory)")
			continue
		case s.Memory != "":
			who += ", " + s.Memory + " memory"
		}
		who += ")"
		if p.Memories == nil {
			lines = append(lines, who+": unknown")
			continue
		}
		cards := p.Memories(i)
		if len(cards) == 0 {
			lines = append(lines, who+" remembers nothing")
			continue
		}
		names := make([]string, len(cards))
		for k, c := range cards {
			names[k] = t.Card(c)
		}
		lines = append(lines, who+" remembers "+strings.Join(names, ", "))
	}
	return lines
}

// Flip asks the person for a card (or a pass) until the answer is legal.
func (p *Person) Flip(v *sim.View) sim.Move {
	if p.err != nil {
		return sim.Fail(p.err)
	}
	if v.Second && p.second >= 0 {
		pos := p.second
		p.second = -1
		return sim.FlipAt(pos)
	}
	passRule := v.PassRule.Allows(v.State)
	q := Question{Second: v.Second, CanPass: !v.Second && passRule, Blind: v.Blind}
	if p.Coach != nil {
		q.Advice = p.Coach.Advise(p.situation(v))
	}
	for {
		a, err := p.UI.Ask(p.Ctx, p.Snapshot(), q)
		if err == nil {
			err = p.Ctx.Err()
		}
		if err != nil {
			p.err = err
			return sim.Fail(err)
		}
		if q.Reason = p.refusal(v, a, passRule); q.Reason != "" {
			continue
		}
		switch {
		case a.Pass:
			return sim.Pass()
		case !v.Second:
			_, p.firstKnown = v.Remembers(a.Pos)
		}
		if a.Both {
			if q.Reason = p.blindRefusal(v, a, passRule); q.Reason != "" {
				continue
			}
			p.second = a.Pos2
		}
		return sim.FlipAt(a.Pos)
	}
}

// situation describes the person's position for the coach.
func (p *Person) situation(v *sim.View) Situation {
	s := Situation{Table: p.Table, Seat: v.Seat, State: v.State, AfterPass: v.AfterPass,
		Second: v.Second, First: v.First, Pass: v.PassRule}
	if sc := p.Table.Scores; len(sc) == 2 {
		s.State.Lead = sc[v.Seat] - sc[1-v.Seat]
	}
	return s
}

// blindRefusal says in one line why the second card of answer a, both cards of a blind turn
// whose first is legal, is not legal, or "" when it is.
func (p *Person) blindRefusal(v *sim.View, a Answer, passRule bool) string {
	t := p.Table
	c := t.Layout.Coord(a.Pos2)
	switch {
	case !v.OnTable(a.Pos2):
		return c + " has been taken: name two cards on the table"
	case a.Pos2 == a.Pos:
		return c + " named twice: name two different cards"
	case passRule:
		return ""
	}
	f1, known1 := v.Remembers(a.Pos)
	if f2, known2 := v.Remembers(a.Pos2); known1 && known2 && f1 != f2 {
		return fmt.Sprintf("%s and %s were both seen before and are not a pair: that would be a pass, which pass rule %s does not allow now",
			t.Layout.Coord(a.Pos), c, v.PassRule)
	}
	return ""
}

// refusal says in one line why answer a is not a legal move now, or "" when it is. passRule
// reports whether the pass rule allows a pass in the turn's state.
func (p *Person) refusal(v *sim.View, a Answer, passRule bool) string {
	t := p.Table
	if a.Pass {
		switch {
		case v.Second:
			return "a pass is a turn without a flip: flip your second card"
		case !passRule && v.PassRule == rules.PassNever:
			return "no passing: the pass rule is never"
		case !passRule:
			return fmt.Sprintf("no passing yet: pass rule %s allows a pass once two cards on the table have been seen without their partners (%d now)", v.PassRule, v.State.Known())
		}
		return ""
	}
	x := a.Pos
	c := t.Layout.Coord(x)
	switch {
	case a.Both && (v.Second || !v.Blind):
		return "name one card: both cards are named at once only at the start of a turn under blind flips"
	case !v.OnTable(x):
		return c + " has been taken: flip a card on the table"
	case v.Second && x == v.First.Pos && v.Blind:
		return c + " is your first card: name another card"
	case v.Second && x == v.First.Pos:
		return c + " is your first card, face up already: flip another card"
	case passRule:
		return ""
	}
	face, known := v.Remembers(x)
	if !known {
		return ""
	}
	if v.Second {
		if p.firstKnown && face != v.First.Face {
			return fmt.Sprintf("%s and %s were both seen before and are not a pair: that would be a pass, which pass rule %s does not allow now; flip a card not seen before, or the first card's partner",
				t.Layout.Coord(v.First.Pos), c, v.PassRule)
		}
		return ""
	}
	// A seen first card needs a second card that does not make a pass: one not seen before, or
	// its partner.
	for y := range t.Layout.Cards {
		if y == x || !v.OnTable(y) {
			continue
		}
		if f, ok := v.Remembers(y); !ok || f == face {
			return ""
		}
	}
	return fmt.Sprintf("every other card on the table was seen before and none is %s's partner: any second card would make a pass, which pass rule %s does not allow now", c, v.PassRule)
}
