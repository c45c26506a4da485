package strategies_test

import (
	"context"
	"testing"

	"memsim/sim/rules"
)

// TestEnginePlaysCopiesWinTable builds win-optimal (against itself) and win-best-response to safe
// under copies, under sequential and blind flips, without and under a turn limit, plays every
// deal of small decks with the engine, and compares every seat's pairs, wins and draws over the
// deals with a card-by-card reference that reads the copies model's table to win at the mover's
// lead (and the turns left), exactly, and seat 0's wins, draws and expected pairs with the
// model's values (playCopiesWinGame).
func TestEnginePlaysCopiesWinTable(t *testing.T) {
	ctx := context.Background()
	games := []copiesWinGame{
		{faces: 2, copies: 4}, {faces: 3, copies: 4}, {faces: 2, copies: 6}, {faces: 3, copies: 4, opponent: "safe"},
		{faces: 2, copies: 4, limit: 3}, {faces: 3, copies: 4, limit: 4}, {faces: 3, copies: 4, limit: 5, opponent: "safe"},
	}
	if testing.Short() {
		// The short form: decks of 2 faces (3 in the full form).
		games = []copiesWinGame{{faces: 2, copies: 4}, {faces: 2, copies: 6, opponent: "safe"},
			{faces: 2, copies: 4, limit: 3}, {faces: 2, copies: 6, limit: 5, opponent: "safe"}}
	}
	for _, flips := range []rules.Flips{rules.FlipsSequential, rules.FlipsBlind} {
		for _, g := range games {
			g.flips = flips
			playCopiesWinGame(ctx, t, g)
		}
	}
}
