package sim

import (
	"errors"
	"io"

	"memsim/sim/rules"
)

// ErrStopped marks the failure of a game that another game's failure stopped: a player process
// that several games share, failing in one of them, fails them all. A match reports a game's own
// failure before such an error.
var ErrStopped = errors.New("stopped by the failure of another game")

// Observer is implemented by a Strategy that follows its games event by event, as a player process
// does (package strategies/external). The engine calls BeginGame before a game's first turn,
// Observe for every event of the game in the order they happen (every seat's flips, pairs, passes
// and hand-overs, its own included), and EndGame after the last. An error from BeginGame or
// EndGame stops the game as an illegal move does, naming the player, the game and the seed.
type Observer interface {
	BeginGame(info GameInfo) error
	Observe(e Event)
	EndGame(o *Outcome) error
}

// GameInfo is what an Observer is told of a game as it begins: the game, its seat, and the rules;
// Forfeit says that its player forfeits a game at a fault (Player.Forfeit) rather than stop the
// match, so that a player process that failed before should play on another process.
type GameInfo struct {
	ID                               GameID
	Seat, Players, Pairs, Singletons int
	Pass                             rules.PassRule
	Forfeit                          bool
}

// EventKind is the kind of an Event.
type EventKind uint8

const (
	// EventFlip: Seat turned the card at Pos face up; its face is Face.
	EventFlip EventKind = iota
	// EventPair: Seat took the pair of face Face at Pos and Pos2 and moves again.
	EventPair
	// EventPass: Seat's turn was a pass (no flip, or two remembered cards that are not a pair).
	EventPass
	// EventHandover: the face-up cards are turned face down and Seat moves next.
	EventHandover
)

// Event is one thing that happened in a game, as every seat sees it.
type Event struct {
	Kind            EventKind
	Seat            int
	Pos, Pos2, Face int
}

// observer is a seat whose strategy observes its games.
type observer struct {
	seat int
	o    Observer
}

// emit tells every observing seat of e.
func (g *Game) emit(e Event) {
	for _, ob := range g.observers {
		ob.o.Observe(e)
	}
}

// beginObservers tells every observing seat that a game begins.
func (g *Game) beginObservers() error {
	g.begun = 0
	for _, ob := range g.observers {
		info := GameInfo{ID: g.id, Seat: ob.seat, Players: g.players, Pairs: g.setup.Pairs,
			Singletons: g.setup.Singletons, Pass: g.setup.Pass, Forfeit: g.setup.Players[ob.seat].Forfeit}
		g.begun++ // an observer whose BeginGame fails is told that the game ended too
		if err := ob.o.BeginGame(info); err != nil {
			return g.playerError(ob.seat, err)
		}
	}
	return nil
}

// endObservers tells every observing seat that the game ended, with its outcome.
func (g *Game) endObservers() error {
	for _, ob := range g.observers {
		if err := ob.o.EndGame(&g.outcome); err != nil {
			return g.playerError(ob.seat, err)
		}
	}
	return nil
}

// Close releases what the engine's strategies hold (a player process, say): it calls Close on
// every strategy that implements io.Closer and returns their errors joined. The engine must not
// be used after.
func (g *Game) Close() error {
	var errs []error
	for i, s := range g.strat {
		if c, ok := s.(io.Closer); ok {
			if err := c.Close(); err != nil {
				errs = append(errs, err)
			}
			g.strat[i] = nil
		}
	}
	return errors.Join(errs...)
}
