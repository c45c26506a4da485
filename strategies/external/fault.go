package external

import (
	"errors"

	"memsim/sim"
)

// A failure of a player process in a game is classified by what the process did, as a
// *sim.Fault, so that a tournament whose player forfeits (on_error: forfeit) can count it and
// forfeit the game: crashed for a process that exited or closed its output, timedOut for a reply
// not given in time or input not read, illegal for a reply that does not fit the game or breaks
// the protocol. A failure already classified keeps its kind.

// crashed classifies err as a crash.
func crashed(err error) error { return classify(sim.FaultCrash, err) }

// timedOut classifies err as a timeout.
func timedOut(err error) error { return classify(sim.FaultTimeout, err) }

// illegal classifies err as an illegal reply.
func illegal(err error) error { return classify(sim.FaultIllegal, err) }

// classify returns err as a fault of kind k, unless it is one already.
func classify(k sim.FaultKind, err error) error {
	if f := (*sim.Fault)(nil); errors.As(err, &f) {
		return err
	}
	return &sim.Fault{Kind: k, Err: err}
}

// unclassified returns err with the kind of any fault in it hidden: a process that cannot start
// or make its handshake is no game's fault, and stops a run whatever on_error says.
func unclassified(err error) error {
	if f := (*sim.Fault)(nil); errors.As(err, &f) {
		return errors.New(err.Error())
	}
	return err
}
