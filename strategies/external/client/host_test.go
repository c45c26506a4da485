package client_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"memsim/strategies/external/protocol"
)

// hostGame is a game the fake host deals and referees. The player plays every seat, each under a
// game id of its own: id0 + seat.
type hostGame struct {
	id0    int64
	rules  protocol.Rules
	deal   []int  // face at each position
	on     []bool // on the table
	known  []bool // seen and on the table: the public record, a perfect memory
	mover  int
	first  int // -1, or the turn's first card
	firstK bool
	taken  []int
	passes int    // passes in a row
	asked  bool   // a request is in flight
	kof    []int8 // legal's count of known cards by face
	buf    []int  // legal's list, valid until its next call
	ended  bool
}

// decision is one checked move of a seat, for a test to judge the player's policy.
type decision struct {
	g    *hostGame
	card int
	pos  int
}

// host is a fake memsim: it plays whole games with the player over a pipe, sending events and
// move requests as docs/protocol.md says and checking every reply against the rules.
type host struct {
	w       *protocol.Writer
	replies chan any // protocol.Message or error, from the reader
	rng     *rand.Rand
	rules   protocol.Rules
	judge   func(d decision) error // judges a legal move, or nil
	nextID  int64
	games   map[int64]*hostGame
	scores  [][]float64 // of the ended games, in the order they ended
	moves   int         // decisions made
	started int         // games started
}

// newHost starts a host writing to w and reading the player's lines from r.
func newHost(r io.Reader, w io.Writer, rules protocol.Rules, seed uint64) *host {
	h := &host{
		w: protocol.NewWriter(w), replies: make(chan any, 1024), rng: rand.New(rand.NewPCG(seed, 1)),
		rules: rules, games: map[int64]*hostGame{},
	}
	go func() {
		pr := protocol.NewReader(r, protocol.FromPlayer)
		for {
			m, err := pr.Read()
			if err != nil {
				h.replies <- err
				close(h.replies)
				return
			}
			h.replies <- m
		}
	}()
	return h
}

// read returns the player's next line.
func (h *host) read() (protocol.Message, error) {
	switch v := (<-h.replies).(type) {
	case nil:
		return nil, io.EOF
	case error:
		return nil, v
	default:
		return v.(protocol.Message), nil
	}
}

// handshake says hello, reads the player's declaration and sends values.
func (h *host) handshake(values map[string]any) (*protocol.Player, error) {
	if err := h.send(&protocol.Hello{Protocol: protocol.Version}); err != nil {
		return nil, err
	}
	if err := h.w.Flush(); err != nil {
		return nil, err
	}
	m, err := h.read()
	if err != nil {
		return nil, err
	}
	p, ok := m.(*protocol.Player)
	if !ok {
		return nil, fmt.Errorf("the player answers hello with %s", m.Type())
	}
	if values == nil {
		values = map[string]any{}
	}
	return p, h.send(&protocol.Options{Values: values})
}

func (h *host) send(m protocol.Message) error { return h.w.Write(m) }

// start deals a game and tells every seat.
func (h *host) start() error {
	r := h.rules
	g := &hostGame{id0: h.nextID, rules: r, first: -1, taken: make([]int, r.Seats)}
	h.nextID += int64(r.Seats)
	h.started++
	for face := range r.Pairs + r.Singletons {
		g.deal = append(g.deal, face)
		if face < r.Pairs {
			g.deal = append(g.deal, face)
		}
	}
	h.rng.Shuffle(len(g.deal), func(i, j int) { g.deal[i], g.deal[j] = g.deal[j], g.deal[i] })
	g.kof = make([]int8, r.Pairs+r.Singletons)
	g.buf = make([]int, 0, len(g.deal))
	g.on = make([]bool, len(g.deal))
	g.known = make([]bool, len(g.deal))
	for i := range g.on {
		g.on[i] = true
	}
	for seat := range r.Seats {
		id := g.id0 + int64(seat)
		h.games[id] = g
		if err := h.send(&protocol.NewGame{Game: id, Seat: seat, Seed: int64(h.rng.Uint64N(protocol.MaxID)), Rules: r}); err != nil {
			return err
		}
	}
	return nil
}

// legal returns the positions the mover may flip now, by the pass rule, with the public record
// as the mover's (perfect) memory. The list is valid until the next call.
func (g *hostGame) legal() []int {
	unknown := false
	knownOfFace := g.kof
	clear(knownOfFace)
	for p, on := range g.on {
		switch {
		case !on:
		case g.known[p]:
			knownOfFace[g.deal[p]]++
		case p != g.first:
			unknown = true
		}
	}
	legal := g.buf[:0]
	for p, on := range g.on {
		if !on || p == g.first {
			continue
		}
		if g.rules.Pass == "never" && g.known[p] {
			partnerKnown := g.deal[p] < g.rules.Pairs && knownOfFace[g.deal[p]] == 2
			if g.first < 0 && !unknown && !partnerKnown {
				continue // a remembered first card no second card could follow without a pass
			}
			if g.first >= 0 && g.firstK && !(partnerKnown && g.deal[p] == g.deal[g.first]) {
				continue // a remembered second card after a remembered first card: a pass
			}
		}
		legal = append(legal, p)
	}
	return legal
}

// partner returns the position of the known partner of the card at p, or -1.
func (g *hostGame) partner(p int) int {
	for q, on := range g.on {
		if on && q != p && g.known[q] && g.deal[q] == g.deal[p] && g.deal[p] < g.rules.Pairs {
			return q
		}
	}
	return -1
}

// request sends the mover's move request.
func (h *host) request(g *hostGame) error {
	card := 1
	if g.first >= 0 {
		card = 2
	}
	g.asked = true
	return h.send(&protocol.Move{Game: g.id0 + int64(g.mover), Card: card, Legal: g.legal(),
		Pass: card == 1 && g.rules.Pass == "always", DeadlineMS: 1000})
}

// tell sends an event to every seat of g.
func (h *host) tell(g *hostGame, ev func(id int64) protocol.Message) error {
	for seat := range g.rules.Seats {
		if err := h.send(ev(g.id0 + int64(seat))); err != nil {
			return err
		}
	}
	return nil
}

// play checks a reply to g's request and plays it out.
func (h *host) play(g *hostGame, m protocol.Message) error {
	f, ok := m.(*protocol.Flip)
	if !ok {
		return fmt.Errorf("game %d: the player replies %s, not a flip", g.id0+int64(g.mover), m.Type())
	}
	g.asked = false
	card := 1
	if g.first >= 0 {
		card = 2
	}
	if legal := g.legal(); !slices.Contains(legal, f.Pos) {
		return fmt.Errorf("game %d card %d: position %d is not legal (%v)", f.Game, card, f.Pos, legal)
	}
	if h.judge != nil {
		if err := h.judge(decision{g, card, f.Pos}); err != nil {
			return fmt.Errorf("game %d card %d: flip %d: %w", f.Game, card, f.Pos, err)
		}
	}
	h.moves++
	face := g.deal[f.Pos]
	if err := h.tell(g, func(id int64) protocol.Message {
		return &protocol.FlipEvent{Game: id, Seat: g.mover, Pos: f.Pos, Face: face}
	}); err != nil {
		return err
	}
	if card == 1 {
		g.first, g.firstK = f.Pos, g.known[f.Pos]
		g.known[f.Pos] = true
		return nil
	}
	a, b := g.first, f.Pos
	wasKnown := g.known[b]
	g.known[b] = true
	g.first = -1
	switch {
	case g.deal[a] == g.deal[b]:
		g.on[a], g.on[b], g.known[a], g.known[b] = false, false, false, false
		g.taken[g.mover]++
		g.passes = 0
		err := h.tell(g, func(id int64) protocol.Message {
			return &protocol.PairEvent{Game: id, Seat: g.mover, Face: face, Positions: [2]int{a, b}}
		})
		if err != nil || g.left() > 0 {
			return err
		}
		return h.end(g, 0)
	case g.firstK && wasKnown:
		g.passes++
		if err := h.tell(g, func(id int64) protocol.Message { return &protocol.PassEvent{Game: id, Seat: g.mover} }); err != nil {
			return err
		}
		if g.passes == g.rules.Seats {
			return h.end(g, float64(g.left())/float64(g.rules.Seats))
		}
	default:
		g.passes = 0
	}
	g.mover = (g.mover + 1) % g.rules.Seats
	return h.tell(g, func(id int64) protocol.Message { return &protocol.Handover{Game: id, Seat: g.mover} })
}

// left returns the number of pairs on the table.
func (g *hostGame) left() int {
	n := 0
	for p, on := range g.on {
		if on && g.deal[p] < g.rules.Pairs {
			n++
		}
	}
	return n / 2
}

// end ends g, crediting each seat share pairs on top of its own.
func (h *host) end(g *hostGame, share float64) error {
	scores := make([]float64, g.rules.Seats)
	for i, t := range g.taken {
		scores[i] = float64(t) + share
	}
	g.ended = true
	h.scores = append(h.scores, scores)
	for seat := range g.rules.Seats {
		delete(h.games, g.id0+int64(seat))
	}
	return h.tell(g, func(id int64) protocol.Message { return &protocol.End{Game: id, Scores: scores} })
}

// run plays games, inFlight at a time, until total games have started and all have ended, or,
// with total 0, until the player has made at least moves decisions (leaving the games in flight
// unfinished). Each round sends one request per game in flight in one write and waits for all
// the replies.
func (h *host) run(inFlight, total, moves int) error {
	var active []*hostGame
	more := func() bool {
		if total > 0 {
			return h.started < total
		}
		return h.moves < moves
	}
	for {
		for len(active) < inFlight && more() {
			if err := h.start(); err != nil {
				return err
			}
			active = append(active, h.games[h.nextID-int64(h.rules.Seats)])
		}
		if len(active) == 0 || total == 0 && h.moves >= moves {
			return h.w.Flush()
		}
		for _, g := range active {
			if err := h.request(g); err != nil {
				return err
			}
		}
		if err := h.w.Flush(); err != nil {
			return err
		}
		for range active {
			m, err := h.read()
			if err != nil {
				return err
			}
			var id int64
			switch m := m.(type) {
			case *protocol.Flip:
				id = m.Game
			case *protocol.Pass:
				id = m.Game
			case *protocol.Choice:
				id = m.Game
			}
			g := h.games[id]
			if g == nil || g.id0+int64(g.mover) != id || !g.asked {
				return fmt.Errorf("a reply for game %d, which has no request in flight", id)
			}
			if err := h.play(g, m); err != nil {
				return err
			}
		}
		active = slices.DeleteFunc(active, func(g *hostGame) bool { return g.ended })
	}
}
