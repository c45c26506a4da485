package sim

import (
	"errors"
	"fmt"
)

// FaultKind is what a player did to lose a game by forfeit (Player.Forfeit).
type FaultKind uint8

const (
	// FaultCrash: the player's process exited or closed its output.
	FaultCrash FaultKind = iota + 1
	// FaultTimeout: no reply within the time per move, or the process did not read its input.
	FaultTimeout
	// FaultIllegal: a reply that does not fit the game or breaks the protocol, or an illegal move.
	FaultIllegal
)

// String names the kind: "crash", "timeout" or "illegal".
func (k FaultKind) String() string {
	switch k {
	case FaultCrash:
		return "crash"
	case FaultTimeout:
		return "timeout"
	case FaultIllegal:
		return "illegal"
	}
	return fmt.Sprintf("FaultKind(%d)", uint8(k))
}

// Fault is a player's misbehaviour of a known kind. A strategy reports one by wrapping it in the
// error of Fail, BeginGame or EndGame; for a player that forfeits (Player.Forfeit) the game is then
// lost rather than the match stopped. Package sim knows nothing of what a strategy is: a player
// process (package strategies/external) classifies its own failures.
type Fault struct {
	Kind FaultKind
	Err  error
}

// Error returns the error of the fault.
func (f *Fault) Error() string { return f.Err.Error() }

// Unwrap returns the error of the fault.
func (f *Fault) Unwrap() error { return f.Err }

// FaultCounts counts a seat's games lost by forfeit, by the kind of fault.
type FaultCounts struct {
	Crash, Timeout, Illegal int64
}

// Forfeits returns the games forfeited: every game counts one fault.
func (c FaultCounts) Forfeits() int64 { return c.Crash + c.Timeout + c.Illegal }

// add counts one fault of kind k.
func (c *FaultCounts) add(k FaultKind) {
	switch k {
	case FaultCrash:
		c.Crash++
	case FaultTimeout:
		c.Timeout++
	case FaultIllegal:
		c.Illegal++
	}
}

// merge adds u to c.
func (c *FaultCounts) merge(u FaultCounts) {
	c.Crash += u.Crash
	c.Timeout += u.Timeout
	c.Illegal += u.Illegal
}

// MaxForfeitsInARow bounds the games a player that forfeits may lose by forfeit one after the
// other on one engine (the games a worker plays in one seat order), and the times one game may be
// stopped by the failure of another and played again: past it the match stops with an error, so
// that a player that can no longer play a game does not make a run loop for ever.
const MaxForfeitsInARow = 10

// faultOf returns the kind of fault err reports for a seat whose player forfeits, or 0 when err is
// no fault of the seat's (a failure of another game, or an error that is not the player's doing).
// A player's illegal move (ErrIllegal) is an illegal fault.
func faultOf(err error) FaultKind {
	if errors.Is(err, ErrStopped) {
		return 0
	}
	if f := (*Fault)(nil); errors.As(err, &f) && f.Kind >= FaultCrash && f.Kind <= FaultIllegal {
		return f.Kind
	}
	if errors.Is(err, ErrIllegal) {
		return FaultIllegal
	}
	return 0
}

// forfeit ends the game the seat faulted in, with a fault of kind k: the seat keeps the pairs it
// took and the pairs still on the table are conceded to the other seats, shared equally, in
// Share's units of 1/players pairs (where they do not divide equally, the units left over go one
// each to the seats after the offender, in turn order; alone at the table, the seat just keeps
// its pairs). The luck terms stop at the fault: the
// adjusted scores are the scores less the luck so far. Every observing seat that began the game,
// the offender included, is told that it ended; an error in that matters only for a seat that
// does not forfeit.
func (g *Game) forfeit(seat int, k FaultKind, err error) error {
	o := &g.outcome
	o.Turns = int(g.turn)
	o.Stalemate, o.Left = false, g.left
	o.Fault, o.FaultSeat = k, seat
	g.fault = err
	p := g.players
	for i := range o.Share {
		o.Share[i] = o.Pairs[i] * p
	}
	if p > 1 {
		units := g.left * p
		each, rest := units/(p-1), units%(p-1)
		for r := 1; r < p; r++ {
			i := (seat + r) % p
			o.Share[i] += each
			if r <= rest {
				o.Share[i]++
			}
		}
	}
	g.modelTurn = false
	if g.luck == luckTurns {
		g.endCardLuck()
	}
	for _, ob := range g.observers[:g.begun] {
		if err := ob.o.EndGame(o); err != nil && !g.setup.Players[ob.seat].Forfeit {
			return g.playerError(ob.seat, err)
		}
	}
	return nil
}
