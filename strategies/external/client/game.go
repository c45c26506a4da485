package client

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"memsim/sim/rules"
	"memsim/strategies/external/protocol"
)

// Game is one game in flight, with the public record of its events as every seat sees them. Run
// keeps the record up to date before it calls the player; the player reads it and must not change
// it (Rand excepted).
type Game struct {
	// ID is the game's id; Seat is the player's seat in it, 0 .. Rules.Seats-1.
	ID   int64
	Seat int
	// Seed is the seed memsim gave for the player's randomness in this game.
	Seed int64
	// Rules are the game's rules.
	Rules protocol.Rules
	// Rand is the player's source of randomness in this game: PCG seeded with (Seed, 0), so that
	// the same seed gives the same play.
	Rand *rand.Rand
	// Seen[pos] is the face of the card at pos if it has been turned face up and is still on the
	// table, otherwise -1.
	Seen []int
	// OnTable[pos] reports whether the card at pos is still on the table.
	OnTable []bool
	// PairsLeft is the number of pairs on the table.
	PairsLeft int
	// Mover is the seat to move.
	Mover int
	// Taken[seat] is the number of pairs seat has taken.
	Taken []int
	// First is the position of the face-up first card of the turn in progress, or -1 when no card
	// is face up. Its face is Seen[First].
	First int
	// Turns is the number of turns over: under a turn limit (Rules.TurnLimit) the turn in
	// progress is turn Turns+1, the number a move request gives.
	Turns int
	// Scores are the final scores, one per seat, set by the game's end event.
	Scores []float64

	where   [][]int // where[face]: the positions on the table where face was seen, in order
	shown   [][]int // shown[face]: the positions ever seen with face
	second  int     // the position of the turn's second card while it is face up, or -1
	passed  bool    // the mover's turn was a pass
	waiting bool    // a move request awaits the player's reply
}

// newGame returns the record of a game as it starts.
func newGame(m *protocol.NewGame) *Game {
	cards := m.Rules.Cards()
	g := &Game{
		ID: m.Game, Seat: m.Seat, Seed: m.Seed, Rules: m.Rules,
		Rand:      rand.New(rand.NewPCG(uint64(m.Seed), 0)),
		Seen:      make([]int, cards),
		OnTable:   make([]bool, cards),
		PairsLeft: m.Rules.Pairs,
		Taken:     make([]int, m.Rules.Seats),
		First:     -1,
		where:     make([][]int, m.Rules.PairFaces()+m.Rules.Singletons),
		shown:     make([][]int, m.Rules.PairFaces()+m.Rules.Singletons),
		second:    -1,
	}
	for pos := range cards {
		g.Seen[pos] = -1
		g.OnTable[pos] = true
	}
	return g
}

// Partner returns the position of another card of the face of the card at pos (its pair's other
// card; with copies of a face, the first seen of the others), if one has been seen and is on the
// table. The card at pos must have been seen.
func (g *Game) Partner(pos int) (int, bool) {
	if pos < 0 || pos >= len(g.Seen) || g.Seen[pos] < 0 || g.Seen[pos] >= g.Rules.PairFaces() {
		return 0, false
	}
	for _, p := range g.where[g.Seen[pos]] {
		if p != pos {
			return p, true
		}
	}
	return 0, false
}

// KnownPair returns the positions of a pair whose two cards have been seen and are on the table:
// the first two seen cards of the lowest face with two.
func (g *Game) KnownPair() (a, b int, ok bool) {
	for face := range g.Rules.PairFaces() {
		if w := g.where[face]; len(w) >= 2 {
			return w[0], w[1], true
		}
	}
	return 0, 0, false
}

// TurnsLeft returns the turns left under the turn limit, the turn in progress included, or -1
// when the game has no limit.
func (g *Game) TurnsLeft() int {
	if g.Rules.TurnLimit == 0 {
		return -1
	}
	return g.Rules.TurnLimit - g.Turns
}

// Ended reports whether the game's end event has come.
func (g *Game) Ended() bool { return g.Scores != nil }

// flips returns the number of cards face up in the turn in progress.
func (g *Game) flips() int {
	switch {
	case g.second >= 0:
		return 2
	case g.First >= 0:
		return 1
	}
	return 0
}

// apply updates the record with an event. It refuses an event that does not follow the rules
// from the record so far.
func (g *Game) apply(m protocol.Message) error {
	if g.waiting {
		if _, ok := m.(*protocol.End); !ok {
			return fmt.Errorf("game %d has a move request awaiting the player's reply", g.ID)
		}
	}
	switch m := m.(type) {
	case *protocol.FlipEvent:
		return g.flip(m)
	case *protocol.PairEvent:
		return g.pair(m)
	case *protocol.PassEvent:
		return g.pass(m)
	case *protocol.Handover:
		return g.handover(m)
	case *protocol.End:
		return g.end(m)
	}
	return fmt.Errorf("a %s message is not an event", m.Type())
}

// checkMover refuses an event by a seat other than the mover's.
func (g *Game) checkMover(seat int) error {
	if seat != g.Mover {
		return fmt.Errorf("game %d: seat %d plays, but seat %d is to move", g.ID, seat, g.Mover)
	}
	return nil
}

func (g *Game) flip(m *protocol.FlipEvent) error {
	if err := g.checkMover(m.Seat); err != nil {
		return err
	}
	switch {
	case g.passed:
		return fmt.Errorf("game %d: a flip after seat %d's pass", g.ID, m.Seat)
	case g.flips() == 2:
		return fmt.Errorf("game %d: a third card in seat %d's turn", g.ID, m.Seat)
	case m.Pos >= len(g.Seen):
		return fmt.Errorf("game %d: position %d is beyond the deal's %d cards", g.ID, m.Pos, len(g.Seen))
	case !g.OnTable[m.Pos]:
		return fmt.Errorf("game %d: position %d has left the table", g.ID, m.Pos)
	case m.Pos == g.First:
		return fmt.Errorf("game %d: position %d is already face up", g.ID, m.Pos)
	case m.Face >= len(g.where):
		return fmt.Errorf("game %d: face %d is beyond the deal's %d faces", g.ID, m.Face, len(g.where))
	}
	if seen := g.Seen[m.Pos]; seen >= 0 && seen != m.Face {
		return fmt.Errorf("game %d: position %d showed face %d before, now %d", g.ID, m.Pos, seen, m.Face)
	}
	if g.Seen[m.Pos] < 0 {
		cards := 1
		if m.Face < g.Rules.PairFaces() {
			cards = g.Rules.CopiesOf()
		}
		if len(g.shown[m.Face]) == cards {
			return fmt.Errorf("game %d: face %d at position %d, but it was seen at %v", g.ID, m.Face, m.Pos, g.shown[m.Face])
		}
		g.shown[m.Face] = append(g.shown[m.Face], m.Pos)
		g.where[m.Face] = append(g.where[m.Face], m.Pos)
		g.Seen[m.Pos] = m.Face
	}
	if g.First < 0 {
		g.First = m.Pos
	} else {
		g.second = m.Pos
	}
	return nil
}

func (g *Game) pair(m *protocol.PairEvent) error {
	if err := g.checkMover(m.Seat); err != nil {
		return err
	}
	a, b := m.Positions[0], m.Positions[1]
	switch {
	case g.flips() != 2:
		return fmt.Errorf("game %d: a pair after %d cards turned in the turn (want 2)", g.ID, g.flips())
	case !(a == g.First && b == g.second || a == g.second && b == g.First):
		return fmt.Errorf("game %d: pair at %d and %d, but the cards face up are at %d and %d", g.ID, a, b, g.First, g.second)
	case g.Seen[a] != m.Face || g.Seen[b] != m.Face:
		return fmt.Errorf("game %d: pair of face %d, but the cards face up show %d and %d", g.ID, m.Face, g.Seen[a], g.Seen[b])
	}
	for _, p := range m.Positions {
		g.Seen[p], g.OnTable[p] = -1, false
	}
	g.where[m.Face] = slices.DeleteFunc(g.where[m.Face], func(p int) bool { return p == a || p == b })
	g.Taken[m.Seat]++
	g.PairsLeft--
	g.Turns++
	g.First, g.second = -1, -1
	return nil
}

func (g *Game) pass(m *protocol.PassEvent) error {
	if err := g.checkMover(m.Seat); err != nil {
		return err
	}
	switch {
	case g.passed:
		return fmt.Errorf("game %d: seat %d passes twice in a turn", g.ID, m.Seat)
	case g.flips() == 1:
		return fmt.Errorf("game %d: a pass after one card", g.ID)
	}
	g.passed = true
	return nil
}

func (g *Game) handover(m *protocol.Handover) error {
	if !g.passed && g.flips() != 2 {
		return fmt.Errorf("game %d: a handover before seat %d's turn is over", g.ID, g.Mover)
	}
	if next := (g.Mover + 1) % g.Rules.Seats; m.Seat != next {
		return fmt.Errorf("game %d: handover to seat %d, but seat %d follows seat %d", g.ID, m.Seat, next, g.Mover)
	}
	g.Mover, g.First, g.second, g.passed = m.Seat, -1, -1, false
	g.Turns++
	return nil
}

func (g *Game) end(m *protocol.End) error {
	if len(m.Scores) != g.Rules.Seats {
		return fmt.Errorf("game %d: %d scores for %d seats", g.ID, len(m.Scores), g.Rules.Seats)
	}
	g.Scores = m.Scores
	return nil
}

// checkMove refuses a move request that does not fit the record.
func (g *Game) checkMove(m *protocol.Move, view string) error {
	switch {
	case g.waiting:
		return fmt.Errorf("game %d has a move request in flight already", g.ID)
	case g.Mover != g.Seat:
		return fmt.Errorf("game %d: seat %d is to move, not the player's seat %d", g.ID, g.Mover, g.Seat)
	case g.passed:
		return fmt.Errorf("game %d: a request after the player's pass", g.ID)
	case m.Card != g.flips()+1:
		return fmt.Errorf("game %d: a request for card %d after %d cards turned in the turn", g.ID, m.Card, g.flips())
	case m.Pass && g.Rules.Pass == "never":
		return fmt.Errorf("game %d: a pass offered under pass rule never", g.ID)
	case view == protocol.ViewEvents && m.State != nil:
		return fmt.Errorf("game %d: a state sent to an events-view player", g.ID)
	case view == protocol.ViewState && m.State == nil:
		return fmt.Errorf("game %d: a request to a state-view player without the state", g.ID)
	case m.Blind != (m.Card == 1 && g.Rules.Flips == rules.FlipsBlind.String()):
		return fmt.Errorf("game %d: a request for card %d with blind %v under flip rule %q", g.ID, m.Card, m.Blind, g.Rules.Flips)
	case g.Rules.TurnLimit > 0 && m.Turn != g.Turns+1:
		return fmt.Errorf("game %d: a request in turn %d, but %d turns are over", g.ID, m.Turn, g.Turns)
	case g.Rules.TurnLimit == 0 && m.Turn != 0:
		return fmt.Errorf("game %d: a request gives turn %d in a game with no turn limit", g.ID, m.Turn)
	case g.Rules.TurnLimit > 0 && g.Turns >= g.Rules.TurnLimit:
		return fmt.Errorf("game %d: a request after the turn limit of %d turns", g.ID, g.Rules.TurnLimit)
	}
	for _, p := range m.Legal {
		switch {
		case p >= len(g.OnTable):
			return fmt.Errorf("game %d: legal position %d is beyond the deal's %d cards", g.ID, p, len(g.OnTable))
		case !g.OnTable[p]:
			return fmt.Errorf("game %d: legal position %d has left the table", g.ID, p)
		case p == g.First:
			return fmt.Errorf("game %d: legal position %d is face up", g.ID, p)
		}
	}
	return nil
}
