package external

import (
	"fmt"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies/external/protocol"
)

// seat is one engine's seat of a player: the sim.Strategy that speaks to a process. It follows
// every event of its games (sim.Observer) to pass them on, and keeps the scores for the lead.
type seat struct {
	p *Player
	s *session // the process, held from the first game until Close

	game   int64 // the game in play, in the process's numbering
	info   sim.GameInfo
	scores [rules.MaxPlayers]int
	err    error // the first failure in this game
	// taking: a state-view seat is taking a pair it remembers whole (its second card is the
	// first's partner); firstKnown: the turn's first card was remembered before it was flipped.
	taking, firstKnown bool
	// blindSecond is the second card a blind request's flips reply named, for the engine's
	// second call, or -1.
	blindSecond int

	replies  chan delivery // the replies to this seat's requests, from a shared session's reader
	req      protocol.Move
	scoreBuf []float64
	state    protocol.State
	legal    []int
	known    []protocol.Card
	choices  []string
}

// BeginGame takes a process if the seat has none, and tells it that a game begins.
func (t *seat) BeginGame(info sim.GameInfo) error {
	t.info, t.err = info, nil
	t.scores = [rules.MaxPlayers]int{}
	if t.s != nil && info.Forfeit && t.s.broken() != nil {
		// A failure stopped the process (in an earlier game, or in another game sharing it), and
		// the player forfeits rather than stop the run: the game begins on another process. A
		// reply the old one's reader handed on as the failure stopped the seat is dropped with
		// its channel.
		t.p.release(t.s)
		t.s, t.replies = nil, nil
	}
	if t.s == nil {
		s, err := t.p.acquire()
		if err != nil {
			t.err = err
			return err
		}
		t.s = s
	}
	t.game = t.s.newGame()
	t.blindSecond = -1
	c := &t.p.cmd
	r := variantRules(c.Variant)
	r.Pairs, r.Singletons, r.Seats, r.Pass, r.Choices = info.Pairs, info.Singletons, info.Players, info.Pass.String(), choiceNames(c.Choices, nil)
	return t.wrap(t.s.send(t.game, &protocol.NewGame{Game: t.game, Seat: info.Seat, Seed: gameSeed(info), Rules: r}))
}

// gameSeed derives the seed a player gets for its own randomness in a game from the game's
// random streams and the seat: the same game gives the same seed, whatever the worker.
func gameSeed(info sim.GameInfo) int64 {
	x := info.ID.Seed
	for _, v := range [...]uint64{info.ID.DealStream, info.ID.PlayStream, info.ID.Index, uint64(info.Seat)} {
		x = mix(x ^ v)
	}
	return int64(x & protocol.MaxID)
}

// mix is SplitMix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// choiceNames lists the choices of set, in the protocol's order (daring, safe, known-first,
// pass), that open(c) allows (all when open is nil).
func choiceNames(set rules.ChoiceSet, open func(rules.Choice) bool) []string {
	return appendChoices(nil, set, open)
}

// appendChoices appends choiceNames(set, open) to dst.
func appendChoices(dst []string, set rules.ChoiceSet, open func(rules.Choice) bool) []string {
	for c := rules.Choice(0); c < rules.NumChoices; c++ {
		if set.Has(c) && (open == nil || open(c)) {
			dst = append(dst, c.String())
		}
	}
	return dst
}

// Observe passes an event on to the process.
func (t *seat) Observe(e sim.Event) {
	if t.err != nil {
		return
	}
	var m protocol.Message
	switch e.Kind {
	case sim.EventFlip:
		m = &protocol.FlipEvent{Game: t.game, Seat: e.Seat, Pos: e.Pos, Face: e.Face}
	case sim.EventPair:
		t.scores[e.Seat]++
		m = &protocol.PairEvent{Game: t.game, Seat: e.Seat, Face: e.Face, Positions: [2]int{e.Pos, e.Pos2}}
	case sim.EventPass:
		m = &protocol.PassEvent{Game: t.game, Seat: e.Seat}
	case sim.EventHandover:
		m = &protocol.Handover{Game: t.game, Seat: e.Seat}
	default:
		return
	}
	t.err = t.wrap(t.s.send(t.game, m))
}

// EndGame tells the process the scores.
func (t *seat) EndGame(o *sim.Outcome) error {
	if t.err != nil {
		return t.err
	}
	t.scoreBuf = t.scoreBuf[:0] // the writer encodes the message at once: the buffer is reused
	for _, s := range o.Share {
		t.scoreBuf = append(t.scoreBuf, float64(s)/float64(len(o.Share)))
	}
	return t.wrap(t.s.send(t.game, &protocol.End{Game: t.game, Scores: t.scoreBuf}))
}

// Close gives the process back to the player.
func (t *seat) Close() error {
	if t.s != nil {
		t.p.release(t.s)
		t.s = nil
	}
	return nil
}

// wrap names the process in an error.
func (t *seat) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s, process %d, its game %d: %w", t.p.describe(), t.s.cmd.Process.Pid, t.game, err)
}

// Flip asks the process for a card, or plays a pair a state-view seat remembers whole.
func (t *seat) Flip(v *sim.View) sim.Move {
	if t.err != nil {
		return sim.Fail(t.err)
	}
	if v.Second && t.blindSecond >= 0 {
		// The second card of a blind turn, named with the first.
		pos := t.blindSecond
		t.blindSecond = -1
		return sim.FlipAt(pos)
	}
	stateView := t.s.info.View == protocol.ViewState
	if stateView {
		if !v.Second {
			if a, _, ok := v.KnownPair(); ok {
				t.taking = true
				return sim.FlipAt(a)
			}
			t.taking = false
		} else if t.taking {
			p, _ := v.PartnerOf(v.First.Pos)
			return sim.FlipAt(p)
		}
	}
	req := t.request(v, stateView)
	if t.replies == nil {
		t.replies = make(chan delivery, 1)
	}
	reply, err := t.s.ask(req, t.replies)
	if err != nil {
		t.err = t.wrap(err)
		return sim.Fail(t.err)
	}
	switch r := reply.(type) {
	case *protocol.Flip:
		if !v.Second {
			_, t.firstKnown = v.Remembers(r.Pos)
		}
		return sim.FlipAt(r.Pos)
	case *protocol.Flips:
		_, t.firstKnown = v.Remembers(r.Positions[0])
		t.blindSecond = r.Positions[1]
		return sim.FlipAt(r.Positions[0])
	case *protocol.Pass:
		return sim.Pass()
	case *protocol.Choice:
		c, err := rules.ParseChoice(r.Choice)
		if err != nil {
			t.err = t.wrap(t.s.failIn(t.game, illegal(err)))
			return sim.Fail(t.err)
		}
		return sim.Choose(c)
	}
	t.err = t.wrap(t.s.failIn(t.game, illegal(fmt.Errorf("unexpected reply %s", reply.Type()))))
	return sim.Fail(t.err)
}

// request builds the move request of the view: the legal positions, whether a pass is allowed
// and, for a state-view seat, the count state, the remembered cards and the open choices.
func (t *seat) request(v *sim.View, stateView bool) *protocol.Move {
	canPass := v.PassRule.Allows(v.State)
	t.legal = t.legal[:0]
	t.known = t.known[:0]
	// The cards on the table that the seat does not remember (for the first card: none is face
	// up yet); singletons never leave the table.
	unknown := 2*v.State.N + v.State.S - v.Remembered()
	for pos := range v.Cards() {
		if !v.OnTable(pos) || (v.Second && pos == v.First.Pos) {
			continue
		}
		face, known := v.Remembers(pos)
		if known {
			t.known = append(t.known, protocol.Card{Pos: pos, Face: face})
		}
		switch {
		case canPass || !known:
		case v.Second:
			// After a remembered first card, a remembered second card must be its partner.
			if t.firstKnown && face != v.First.Face {
				continue
			}
		default:
			// A remembered first card needs a legal second card: an unknown one or its partner.
			if _, partner := v.PartnerOf(pos); unknown == 0 && !partner {
				continue
			}
		}
		t.legal = append(t.legal, pos)
	}
	card := 1
	if v.Second {
		card = 2
	}
	c := &t.p.cmd
	t.req = protocol.Move{Game: t.game, Card: card, Legal: t.legal,
		Pass:       !v.Second && canPass && c.Choices.Has(rules.Pass),
		Blind:      v.Blind && !v.Second,
		DeadlineMS: int(max(c.timePerMove().Milliseconds(), 1))}
	if v.TurnLimit > 0 {
		t.req.Turn = v.Turn
	}
	if stateView {
		t.state = protocol.State{N: v.State.N, J: v.State.J, S: v.State.S, F: v.State.F, AfterPass: v.AfterPass}
		if v.Players == 2 {
			t.state.Lead = t.scores[v.Seat] - t.scores[1-v.Seat]
		}
		t.req.State = &t.state
		if len(t.known) > 0 {
			t.req.Known = t.known
		}
		if !v.Second {
			t.choices = appendChoices(t.choices[:0], c.Choices, func(ch rules.Choice) bool { return rules.Legal(v.State, ch, v.PassRule) })
			t.req.Choices = t.choices
		}
	}
	return &t.req
}
