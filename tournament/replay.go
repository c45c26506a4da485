package tournament

import (
	"fmt"
	"slices"
	"strings"

	"memsim/sim"
)

// Replayed is one game of a tournament played again, move by move (see Tournament.Replay).
type Replayed struct {
	// Pairs is the game's deal size and Game its index among the games of its seat order (with
	// paired deals, the deal both seat orders play).
	Pairs int
	Game  int64
	// Players names the players in seat order.
	Players []string
	// Log records every move; Outcome is the game's result, seat by seat.
	Log     sim.Log
	Outcome *sim.Outcome
}

// Replay plays game (0-based) of the seat order players (tournament player names, seat by seat)
// at the deal size pairs again, exactly as the tournament plays it, and returns its move log and
// outcome. A nil players means the first seat order the tournament plays at that deal size. A
// game, deal size or seat order the tournament does not play is refused with a *GameError, a
// *DealSizeError or a *SeatOrderError.
func (t *Tournament) Replay(game int64, pairs int, players []string) (*Replayed, error) {
	if games := int64(t.Config.Games); game < 0 || game >= games {
		return nil, &GameError{Game: game, Games: games}
	}
	var orders [][]string
	for i := range t.Matches {
		m := &t.Matches[i]
		if m.Setup.Pairs != pairs {
			continue
		}
		for k, order := range m.Orders {
			names := t.Names(m.Seats(order))
			orders = append(orders, names)
			if players != nil && !slices.Equal(players, names) {
				continue
			}
			r := &Replayed{Pairs: pairs, Game: game, Players: names}
			o, err := m.Replay(k, uint64(game), &r.Log)
			if err != nil {
				return nil, fmt.Errorf("replaying game %d of %s at %d pairs: %w", game, strings.Join(names, " vs "), pairs, err)
			}
			r.Outcome = o
			return r, nil
		}
	}
	if len(orders) == 0 {
		return nil, &DealSizeError{Pairs: pairs, Sizes: slices.Clone(t.Config.Rules.Pairs)}
	}
	return nil, &SeatOrderError{Pairs: pairs, Players: players, Orders: orders}
}

// GameError is the error of Tournament.Replay for a game outside the tournament's games.
type GameError struct {
	// Game is the game asked for; Games the number of games of each seat order.
	Game, Games int64
}

// Error says which games there are.
func (e *GameError) Error() string {
	return fmt.Sprintf("game %d: must be between 0 and %d (the tournament's games - 1)", e.Game, e.Games-1)
}

// DealSizeError is the error of Tournament.Replay for a deal size the tournament does not play.
type DealSizeError struct {
	// Pairs is the deal size asked for; Sizes the tournament's deal sizes.
	Pairs int
	Sizes []int
}

// Error names the tournament's deal sizes.
func (e *DealSizeError) Error() string {
	return fmt.Sprintf("%d pairs: the tournament's deal sizes are %v", e.Pairs, e.Sizes)
}

// SeatOrderError is the error of Tournament.Replay for a seat order the tournament does not play
// at a deal size.
type SeatOrderError struct {
	// Pairs is the deal size and Players the seat order asked for; Orders lists the seat orders
	// the tournament plays at that deal size, each as its players' names seat by seat.
	Pairs   int
	Players []string
	Orders  [][]string
}

// Error names the seat orders there are.
func (e *SeatOrderError) Error() string {
	allowed := make([]string, len(e.Orders))
	for i, o := range e.Orders {
		allowed[i] = strings.Join(o, ",")
	}
	return fmt.Sprintf("seat order %s: not one the tournament plays at %d pairs (allowed: %s)",
		strings.Join(e.Players, ","), e.Pairs, strings.Join(allowed, "; "))
}
