package sim

import (
	"fmt"

	"memsim/sim/rules"
)

// Strategy chooses the flips of a player that does not follow a policy table. The engine calls
// Flip for the first card of each turn and again for the second; the View shows only what the
// player remembers. The engine refuses an illegal answer with an error naming the player, the
// game and the seed, and reports a panic in Flip the same way.
type Strategy interface {
	Flip(v *View) Move
}

type moveKind uint8

const (
	moveAt moveKind = iota
	moveUnknown
	moveRandom
	movePass
	moveChoice
	moveFail
)

// Move is a strategy's answer: which card to flip, a pass, a choice, or a failure.
type Move struct {
	kind moveKind
	pos  int32
	err  error
}

// FlipAt flips the card at position pos.
func FlipAt(pos int) Move { return Move{kind: moveAt, pos: int32(pos)} }

// FlipUnknown flips a face-down card the player does not remember, chosen uniformly at random by
// the engine.
func FlipUnknown() Move { return Move{kind: moveUnknown} }

// FlipRandom flips a face-down card chosen uniformly at random by the engine among those the
// player may legally flip now (every face-down card, except that under pass rule never a second
// card must not make the turn a pass).
func FlipRandom() Move { return Move{kind: moveRandom} }

// Pass gives up the turn without flipping (a 0-move). It is only a first move, and only where the
// pass rule allows it.
func Pass() Move { return Move{kind: movePass} }

// Choose plays the choice c for the whole turn, as a player that follows a policy table plays it
// (docs/models.md §5.2, from step 3 on): the engine picks both cards. It is a first move only, and
// c must be legal in the player's state (rules.Legal). A strategy over count states answers with
// it to play exactly as the table player of its choices would, random draws included.
func Choose(c rules.Choice) Move { return Move{kind: moveChoice, pos: int32(c)} }

// Fail says that the player cannot move: err (a player process that died, say) stops the game
// with an error naming the player, the game and the seed, which wraps err.
func Fail(err error) Move { return Move{kind: moveFail, err: err} }

// String describes the move.
func (m Move) String() string {
	switch m.kind {
	case moveChoice:
		return "choose " + rules.Choice(m.pos).String()
	case moveFail:
		return fmt.Sprintf("fail: %v", m.err)
	case moveAt:
		return fmt.Sprintf("flip %d", m.pos)
	case moveUnknown:
		return "flip an unknown card"
	case moveRandom:
		return "flip a random card"
	case movePass:
		return "pass"
	}
	return fmt.Sprintf("Move(%d)", m.kind)
}

// Card is a card as a player sees it: its position and its face. Faces 0 .. pairs-1 are pair
// faces (two cards each); higher faces are singletons.
type Card struct{ Pos, Face int }

// View is what a player knows when it chooses a flip: the public state of the table and its own
// memory. It is valid only during the call to Flip.
type View struct {
	g *Game
	m *memory

	// Seat is the player's seat; Players the number of seats.
	Seat, Players int
	// AfterPass reports whether the previous seat's turn was a pass; Passes is the number of seats
	// that passed in a row just before this turn (0 .. Players-1: when every seat has passed the
	// game ends in a stalemate).
	AfterPass bool
	Passes    int
	// State is the count state (n, j, s, f) the player's memory saw at the start of the turn.
	State rules.State
	// PassRule is the game's pass rule.
	PassRule rules.PassRule
	// Second reports whether this is the turn's second flip; First is then the first card. Under
	// blind flips (Blind) the first card is not yet turned up: First.Face is -1 unless the player
	// remembers that card.
	Second bool
	First  Card
	// Blind reports whether the game's flips are blind (rules.FlipsBlind): both cards of a turn
	// are named before either is turned up.
	Blind bool
	// Turn is the number of the turn, from 1; TurnLimit is the game's turn limit (0: none), so that
	// TurnLimit - Turn + 1 turns are left, this one included.
	Turn, TurnLimit int
}

// Cards returns the number of positions of the deal (2 × pairs + singletons); positions are
// 0 .. Cards()-1.
func (v *View) Cards() int { return v.g.cards }

// Pairs returns the number of pair faces of the deal (faces below it are pair faces).
func (v *View) Pairs() int { return v.g.setup.Pairs }

// OnTable reports whether the card at pos is still on the table.
func (v *View) OnTable(pos int) bool { return pos >= 0 && pos < v.g.cards && v.g.present[pos] }

// Remembers returns the face of the card at pos and true if the player remembers it.
func (v *View) Remembers(pos int) (face int, ok bool) {
	if pos < 0 || pos >= v.g.cards || !v.m.known(int32(pos)) {
		return 0, false
	}
	return int(v.g.deal.face[pos]), true
}

// Remembered returns the number of cards the player remembers on the table.
func (v *View) Remembered() int { return 2*v.m.full + v.m.half + v.m.singles }

// PartnerOf returns the position of a remembered card of the same face as the card at pos, which
// the player must remember or see face up.
func (v *View) PartnerOf(pos int) (int, bool) {
	if pos < 0 || pos >= v.g.cards {
		return 0, false
	}
	if !v.m.known(int32(pos)) && !(v.Second && v.First.Pos == pos && v.First.Face >= 0) {
		return 0, false
	}
	p, ok := v.m.partnerOf(&v.g.deal, int32(pos))
	return int(p), ok
}

// KnownPair returns the two positions of a pair the player remembers both cards of.
func (v *View) KnownPair() (a, b int, ok bool) {
	if v.m.full == 0 {
		return 0, 0, false
	}
	x, y, ok := v.m.knownPair(&v.g.deal)
	return int(x), int(y), ok
}

// strategyTurn plays one turn of a player with a Strategy.
func (g *Game) strategyTurn(seat int, passes int) (turnEnd, error) {
	m := &g.mems[g.seatMem[seat]]
	d := &g.deal
	v := &g.view
	afterPass := passes > 0
	*v = View{g: g, m: m, Seat: seat, Players: g.players, AfterPass: afterPass, Passes: passes,
		State: m.state(g.left, g.setup.Singletons), PassRule: g.setup.Pass, Blind: g.blind,
		Turn: int(g.turn), TurnLimit: int(g.limit)}
	s := g.strat[seat]
	mv := s.Flip(v)
	canPass := g.setup.Pass.Allows(v.State)
	switch mv.kind {
	case movePass:
		if !canPass {
			return 0, g.moveError(seat, "pass: not allowed by pass rule %s in %v", g.setup.Pass, v.State)
		}
		return turnPassed, nil
	case moveChoice:
		c := rules.Choice(mv.pos)
		if c >= rules.NumChoices || !rules.Legal(v.State, c, g.setup.Pass) {
			return 0, g.moveError(seat, "%v: not legal in %v under pass rule %s", mv, v.State, g.setup.Pass)
		}
		return g.playChoice(seat, m, v.State, afterPass, c)
	case moveFail:
		return 0, g.playerError(seat, mv.err)
	}
	x, err := g.resolve(seat, m, mv, -1, !canPass)
	if err != nil {
		return 0, err
	}
	xKnown := m.known(x)
	v.Second, v.First = true, Card{Pos: int(x), Face: int(d.face[x])}
	if g.blind {
		if !xKnown {
			v.First.Face = -1
		}
	} else {
		g.flip(x)
	}
	mv = s.Flip(v)
	switch mv.kind {
	case movePass:
		return 0, g.moveError(seat, "pass as the second flip: a pass is a first move")
	case moveChoice:
		return 0, g.moveError(seat, "%v as the second flip: a choice is a first move", mv)
	case moveFail:
		return 0, g.playerError(seat, mv.err)
	}
	// Where passing is not allowed, two remembered cards that are not a pair would make a pass.
	y, err := g.resolve(seat, m, mv, x, xKnown && !canPass)
	if err != nil {
		return 0, err
	}
	yKnown := m.known(y)
	isPass := xKnown && yKnown && d.face[x] != d.face[y]
	if isPass && !canPass {
		return 0, g.moveError(seat, "flip %d after remembered card %d: two remembered cards that are not a pair make a pass, which pass rule %s does not allow in %v",
			y, x, g.setup.Pass, v.State)
	}
	if g.blind {
		g.flip(x)
	}
	g.flip(y)
	if d.face[y] == d.face[x] {
		if !xKnown && !yKnown {
			g.lucky++
		}
		return g.take(seat, x, y), nil
	}
	if isPass {
		return turnPassed, nil
	}
	return turnMissed, nil
}

// resolve turns a move into a position, checking it; first is the face-up card (-1 for the first
// flip) and noPass says that the turn may not become a pass: a random second card that is
// remembered must be the first card's partner, and a random first card that is remembered must
// leave such a second card.
func (g *Game) resolve(seat int, m *memory, mv Move, first int32, noPass bool) (int32, error) {
	switch mv.kind {
	case moveAt:
		pos := mv.pos
		switch {
		case pos < 0 || int(pos) >= g.cards:
			return 0, g.moveError(seat, "flip %d: no such position (0 to %d)", pos, g.cards-1)
		case !g.present[pos]:
			return 0, g.moveError(seat, "flip %d: that card has been taken", pos)
		case pos == first:
			return 0, g.moveError(seat, "flip %d: that card is already face up", pos)
		}
		return pos, nil
	case moveUnknown:
		// Under blind flips the first card is still face down, and maybe among the unknown cards.
		pos := m.pickUnknownBut(first, &g.play)
		if pos < 0 {
			return 0, g.moveError(seat, "flip an unknown card: the player remembers every card on the table")
		}
		return pos, nil
	case moveRandom:
		ok := func(pos int32) bool {
			if pos == first || !noPass || !m.known(pos) {
				return pos != first
			}
			if first >= 0 {
				// The second card: a remembered card must be the first card's partner.
				return g.deal.face[pos] == g.deal.face[first]
			}
			// The first card: a remembered card needs a legal second card after it, an
			// unremembered card or its remembered partner.
			_, partner := m.partnerOf(&g.deal, pos)
			return len(m.unk) > 0 || partner
		}
		for range 64 {
			if pos := g.down[g.play.intn(len(g.down))]; ok(pos) {
				return pos, nil
			}
		}
		// Rejection keeps failing only when few cards qualify: draw among them directly.
		k := 0
		for _, pos := range g.down {
			if ok(pos) {
				k++
			}
		}
		if k > 0 {
			k = g.play.intn(k)
			for _, pos := range g.down {
				if ok(pos) {
					if k == 0 {
						return pos, nil
					}
					k--
				}
			}
		}
		return 0, g.moveError(seat, "flip a random card: no card may be flipped")
	}
	return 0, g.moveError(seat, "unknown move %v", mv)
}
