// Package client is what a player written in Go imports to play at memsim's table over the
// player protocol memsim-player/1 (docs/protocol.md), as an engine uses a UCI library: Run speaks
// the protocol on stdin and stdout, keeps the public record of every game in flight (Game), and
// asks the Player for a move whenever memsim asks for one. A player needs only its Move method:
//
//	package main
//
//	import (
//		"fmt"
//		"os"
//
//		"memsim/strategies/external/client"
//		"memsim/strategies/external/protocol"
//	)
//
//	// lowest flips the lowest position it may flip.
//	type lowest struct{}
//
//	func (lowest) Move(g *client.Game, req *protocol.Move) client.Reply {
//		return client.Flip(req.Legal[0])
//	}
//
//	func main() {
//		info := client.Info{Name: "lowest", Version: "1.0", View: protocol.ViewEvents}
//		err := client.Run(os.Stdin, os.Stdout, info, func(map[string]any) (client.Player, error) {
//			return lowest{}, nil
//		})
//		if err != nil {
//			fmt.Fprintln(os.Stderr, "lowest:", err)
//			os.Exit(1)
//		}
//	}
//
// A player that also implements BatchPlayer decides all the requests that arrived together in one
// call, as a vectorised agent does; one that implements Observer is told of each game's start
// and events. A player that plays the rule variants (k cards of a face, blind flips, a turn
// limit) declares them in Info.Variants and answers a blind request with FlipBoth. Random and
// Daring are two example players; Daring plays every variant.
package client

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"memsim/strategies/external/protocol"
)

// Info is what the player says of itself in its handshake.
type Info struct {
	// Name and Version identify the player; Name is not empty.
	Name, Version string
	// View is protocol.ViewEvents or protocol.ViewState.
	View string
	// Options are the settings the player accepts, each with its default.
	Options []protocol.Option
	// Positions, for a state-view player, declares that its first-card choice is a function of
	// the rules and the count state: protocol.PositionsCount (the lead aside) or
	// protocol.PositionsLead. Its player must be a PositionPlayer, which answers memsim's position
	// queries. Empty: no position queries.
	Positions string
	// Variants lists the rule variants the player plays (protocol.VariantCopies,
	// protocol.VariantFlips, protocol.VariantTurnLimit); memsim refuses to seat a player under a
	// variant it does not declare. A player that declares protocol.VariantFlips answers blind
	// requests (protocol.Move.Blind) with FlipBoth.
	Variants []string
}

// Player answers move requests.
type Player interface {
	// Move answers the request req of game g: a Flip of one of req.Legal (FlipBoth of two, for a
	// blind request), a Pass where req.Pass allows it, or (state view, first card) a Choose among
	// req.Choices. The record g is up to
	// date with every event before the request.
	Move(g *Game, req *protocol.Move) Reply
}

// BatchPlayer is a Player that decides together the requests that arrive together. When a player
// implements it, Run calls MoveBatch instead of Move.
type BatchPlayer interface {
	Player
	// MoveBatch returns one reply per request, in the order of reqs. reqs is valid only during
	// the call.
	MoveBatch(reqs []Request) []Reply
}

// Observer is a Player told of each game's start and events, in the order they come.
type Observer interface {
	// NewGame is called when game g starts.
	NewGame(g *Game)
	// Event is called with each event of game g (a *protocol.FlipEvent, *protocol.PairEvent,
	// *protocol.PassEvent, *protocol.Handover or *protocol.End) after g's record is updated.
	// After the End the game is forgotten.
	Event(g *Game, ev protocol.Message)
}

// PositionPlayer is a Player that answers position queries: its first-card choice in a count
// state, out of play. A player whose Info declares Positions implements it, and its Move answers
// the same choice in the same state.
type PositionPlayer interface {
	Player
	// ChooseAt returns the choice in state st under rules r, one of choices (the choices open
	// there, in the protocol's order).
	ChooseAt(r protocol.Rules, st protocol.State, choices []string) string
}

// Request is a move request with its game.
type Request struct {
	Game *Game
	Move *protocol.Move
}

// Reply is a player's answer to a move request: make one with Flip, FlipBoth, Pass or Choose.
type Reply struct {
	kind      replyKind
	pos, pos2 int
	choice    string
}

type replyKind uint8

const (
	noReply replyKind = iota
	flipReply
	passReply
	choiceReply
	flipsReply
)

// Flip returns the reply that flips the card at pos.
func Flip(pos int) Reply { return Reply{kind: flipReply, pos: pos} }

// FlipBoth returns the reply to a blind request (protocol.Move.Blind) that flips the cards at
// first and second, in that order.
func FlipBoth(first, second int) Reply { return Reply{kind: flipsReply, pos: first, pos2: second} }

// Pass returns the reply that passes.
func Pass() Reply { return Reply{kind: passReply} }

// Choose returns the reply that plays choice ("daring", "safe", "known-first" or "pass") and lets
// memsim pick the cards; for state-view players, on a first card.
func Choose(choice string) Reply { return Reply{kind: choiceReply, choice: choice} }

// String describes the reply.
func (r Reply) String() string {
	switch r.kind {
	case flipReply:
		return fmt.Sprintf("flip %d", r.pos)
	case flipsReply:
		return fmt.Sprintf("flip %d and %d", r.pos, r.pos2)
	case passReply:
		return "pass"
	case choiceReply:
		return "choice " + r.choice
	}
	return "no reply"
}

// message returns the reply as the protocol message for game, in one of the messages of buf,
// or nil for the zero Reply.
func (r Reply) message(game int64, buf *replyBuf) protocol.Message {
	switch r.kind {
	case flipReply:
		buf.flip = protocol.Flip{Game: game, Pos: r.pos}
		return &buf.flip
	case flipsReply:
		buf.flips = protocol.Flips{Game: game, Positions: [2]int{r.pos, r.pos2}}
		return &buf.flips
	case passReply:
		buf.pass = protocol.Pass{Game: game}
		return &buf.pass
	case choiceReply:
		buf.choice = protocol.Choice{Game: game, Choice: r.choice}
		return &buf.choice
	}
	return nil
}

// replyBuf holds a reply message while it is written.
type replyBuf struct {
	flip   protocol.Flip
	flips  protocol.Flips
	pass   protocol.Pass
	choice protocol.Choice
}

// bufferSize is the size of Run's input and output buffers: at least the protocol Reader's and
// Writer's, so that they use Run's buffers rather than their own (see bufio.NewReaderSize).
const bufferSize = 64 << 10

// Run plays the protocol with memsim on r (memsim's lines) and w (the player's) until r ends: it
// answers the hello with info, reads the option values, calls newPlayer with every declared
// option's value (memsim's or the default: a bool, an int, a float64 or a string by the option's
// type), then keeps the record of each game and answers each move request with the player's
// reply. The replies to the requests that arrive together (all the whole lines read from r without
// waiting) are written in one write. Run returns nil at the end of r, and otherwise the first
// error: a line of memsim's that breaks the protocol or the rules (naming the line), a reply of
// the player's that does not answer its request, an error of newPlayer or of w.
func Run(r io.Reader, w io.Writer, info Info, newPlayer func(options map[string]any) (Player, error)) error {
	in := bufio.NewReaderSize(r, bufferSize)
	out := bufio.NewWriterSize(w, bufferSize)
	s := &session{
		buf: in, in: protocol.NewReader(in, protocol.FromMemsim), out: protocol.NewWriter(out),
		info: protocol.Player{Name: info.Name, Version: info.Version, View: info.View, Options: info.Options,
			Positions: info.Positions, Variants: info.Variants},
		games: map[int64]*Game{},
	}
	if err := s.run(newPlayer); err != io.EOF {
		return err
	}
	return nil
}

// session is the state of one Run.
type session struct {
	buf      *bufio.Reader // the input under in, to see what is buffered
	in       *protocol.Reader
	out      *protocol.Writer
	info     protocol.Player
	player   Player
	observer Observer
	games    map[int64]*Game
	pending  []Request
	reply    replyBuf
	// positioned: replies to position queries are written and not yet flushed.
	positioned bool
}

// run plays the session; it returns io.EOF (unwrapped) at the end of the input.
func (s *session) run(newPlayer func(map[string]any) (Player, error)) error {
	values, err := s.handshake()
	if err != nil {
		return err
	}
	if s.player, err = newPlayer(values); err != nil {
		return fmt.Errorf("start the player: %w", err)
	}
	if s.player == nil {
		return errors.New("start the player: newPlayer returned no player")
	}
	s.observer, _ = s.player.(Observer)
	if _, ok := s.player.(PositionPlayer); s.info.Positions != "" && !ok {
		return errors.New("start the player: its Info declares positions, and it has no ChooseAt method (PositionPlayer)")
	}
	for {
		m, err := s.in.Read()
		if err != nil {
			return err
		}
		if err := s.handle(m); err != nil {
			return fmt.Errorf("line %d: %s: %w", s.in.Line(), m.Type(), err)
		}
		if (len(s.pending) > 0 || s.positioned) && !s.lineBuffered() {
			if err := s.answer(); err != nil {
				return err
			}
		}
	}
}

// handshake answers memsim's hello and returns the option values, defaults applied.
func (s *session) handshake() (map[string]any, error) {
	m, err := s.in.Read()
	if err != nil {
		return nil, err
	}
	if _, ok := m.(*protocol.Hello); !ok {
		return nil, fmt.Errorf("line %d: %s: memsim's first message is not hello", s.in.Line(), m.Type())
	}
	if err := s.out.Write(&s.info); err != nil {
		return nil, fmt.Errorf("handshake: %w", err)
	}
	if err := s.out.Flush(); err != nil {
		return nil, fmt.Errorf("handshake: %w", err)
	}
	if m, err = s.in.Read(); err != nil {
		return nil, err
	}
	opts, ok := m.(*protocol.Options)
	if !ok {
		return nil, fmt.Errorf("line %d: %s: memsim's message after the handshake is not options", s.in.Line(), m.Type())
	}
	if err := s.info.CheckValues(opts.Values); err != nil {
		return nil, fmt.Errorf("line %d: options: %w", s.in.Line(), err)
	}
	values := make(map[string]any, len(s.info.Options))
	for _, o := range s.info.Options {
		v, ok := opts.Values[o.Name]
		if !ok {
			v = o.Default
		}
		if f, isFloat := v.(float64); isFloat && o.Type == "int" {
			v = int(math.Round(f))
		}
		values[o.Name] = v
	}
	return values, nil
}

// handle takes one message of memsim's after the handshake.
func (s *session) handle(m protocol.Message) error {
	switch m := m.(type) {
	case *protocol.NewGame:
		if _, ok := s.games[m.Game]; ok {
			return fmt.Errorf("game %d is in flight already", m.Game)
		}
		for _, v := range m.Rules.VariantRules() {
			if !slices.Contains(s.info.Variants, v) {
				return fmt.Errorf("game %d is of the rule variant %q, which the player does not declare", m.Game, v)
			}
		}
		g := newGame(m)
		s.games[m.Game] = g
		if s.observer != nil {
			s.observer.NewGame(g)
		}
		return nil
	case *protocol.Move:
		g, err := s.game(m.Game)
		if err != nil {
			return err
		}
		if err := g.checkMove(m, s.info.View); err != nil {
			return err
		}
		g.waiting = true
		s.pending = append(s.pending, Request{Game: g, Move: m})
		return nil
	case *protocol.Position:
		return s.position(m)
	case *protocol.FlipEvent:
		return s.event(m.Game, m)
	case *protocol.PairEvent:
		return s.event(m.Game, m)
	case *protocol.PassEvent:
		return s.event(m.Game, m)
	case *protocol.Handover:
		return s.event(m.Game, m)
	case *protocol.End:
		return s.event(m.Game, m)
	}
	return errors.New("not a message memsim sends after the handshake")
}

// position answers a position query with the player's ChooseAt.
func (s *session) position(q *protocol.Position) error {
	pp, ok := s.player.(PositionPlayer)
	switch {
	case s.info.Positions == "" || !ok:
		return errors.New("the player declares no positions")
	case s.games[q.Game] != nil:
		return fmt.Errorf("id %d is a game in flight", q.Game)
	case s.info.Positions == protocol.PositionsCount && q.State.Lead != 0:
		return fmt.Errorf("lead %d: the player declares positions %s, which are asked at lead 0", q.State.Lead, protocol.PositionsCount)
	}
	c := pp.ChooseAt(q.Rules, q.State, q.Choices)
	s.reply.choice = protocol.Choice{Game: q.Game, Choice: c}
	if err := protocol.CheckPositionReply(q, &s.reply.choice); err != nil {
		return fmt.Errorf("the player's reply to position query %d: %w", q.Game, err)
	}
	if err := s.out.Write(&s.reply.choice); err != nil {
		return fmt.Errorf("write the reply to position query %d: %w", q.Game, err)
	}
	s.positioned = true
	return nil
}

// game returns the game in flight with the given id.
func (s *session) game(id int64) (*Game, error) {
	g, ok := s.games[id]
	if !ok {
		return nil, fmt.Errorf("game %d is not in flight", id)
	}
	return g, nil
}

// event applies an event to its game. An end drops the game, and its request if one is in
// flight (memsim ends a game whose reply is late).
func (s *session) event(id int64, m protocol.Message) error {
	g, err := s.game(id)
	if err != nil {
		return err
	}
	if err := g.apply(m); err != nil {
		return err
	}
	if s.observer != nil {
		s.observer.Event(g, m)
	}
	if g.Ended() {
		delete(s.games, id)
		if g.waiting {
			g.waiting = false
			s.pending = slices.DeleteFunc(s.pending, func(r Request) bool { return r.Game == g })
		}
	}
	return nil
}

// lineBuffered reports whether a whole line of input is buffered: reading it will not wait.
func (s *session) lineBuffered() bool {
	n := s.buf.Buffered()
	if n == 0 {
		return false
	}
	b, _ := s.buf.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// answer asks the player for the replies to the pending requests and writes them in one write.
func (s *session) answer() error {
	var replies []Reply
	if bp, ok := s.player.(BatchPlayer); ok {
		replies = bp.MoveBatch(s.pending)
		if len(replies) != len(s.pending) {
			return fmt.Errorf("the player's MoveBatch returned %d replies to %d requests", len(replies), len(s.pending))
		}
	}
	for i, req := range s.pending {
		var r Reply
		if replies != nil {
			r = replies[i]
		} else {
			r = s.player.Move(req.Game, req.Move)
		}
		msg := r.message(req.Game.ID, &s.reply)
		if msg == nil {
			return fmt.Errorf("the player's reply to game %d's card %d: no reply", req.Game.ID, req.Move.Card)
		}
		if err := protocol.CheckReply(req.Move, msg); err != nil {
			return fmt.Errorf("the player's reply to game %d's card %d (%v): %w", req.Game.ID, req.Move.Card, r, err)
		}
		if err := s.out.Write(msg); err != nil {
			return fmt.Errorf("write the reply to game %d: %w", req.Game.ID, err)
		}
		req.Game.waiting = false
	}
	clear(s.pending)
	s.pending = s.pending[:0]
	s.positioned = false
	if err := s.out.Flush(); err != nil {
		return fmt.Errorf("write replies: %w", err)
	}
	return nil
}
