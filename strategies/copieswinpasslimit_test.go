package strategies_test

import (
	"context"
	"testing"

	"memsim/sim/rules"
)

// TestEnginePlaysCopiesWinPassLimitTable builds win-optimal (against itself) and
// win-best-response to safe under four copies of a face with pass rules two-known and always and
// a turn limit at two seats, plays every deal of two faces (and three without -short) with the
// engine, and compares every seat's score, wins and draws over the deals with a card-by-card
// reference that reads the copies model's table to win at the mover's lead, in the layer of the
// turns left, just after a pass or not, exactly, and seat 0's wins, draws and expected pairs with
// the model's values (playCopiesWinGame).
func TestEnginePlaysCopiesWinPassLimitTable(t *testing.T) {
	ctx := context.Background()
	games := []copiesWinGame{
		{faces: 2, copies: 4, limit: 3, pass: rules.PassAlways}, {faces: 2, copies: 4, limit: 5, pass: rules.PassTwoKnown, opponent: "safe"},
	}
	if !testing.Short() {
		games = append(games, copiesWinGame{faces: 2, copies: 4, limit: 4, pass: rules.PassAlways, opponent: "safe"},
			copiesWinGame{faces: 3, copies: 4, limit: 5, pass: rules.PassAlways}, copiesWinGame{faces: 3, copies: 4, limit: 6, pass: rules.PassTwoKnown},
			copiesWinGame{faces: 3, copies: 4, limit: 4, pass: rules.PassTwoKnown, opponent: "daring"})
	}
	passes, afterPass := 0, 0
	for _, g := range games {
		p := playCopiesWinGame(ctx, t, g)
		passes, afterPass = passes+p.passes, afterPass+p.afterPass
	}
	if passes == 0 {
		t.Error("no table passed in any game")
	}
	if afterPass == 0 {
		t.Error("no table chose otherwise just after a pass than it would have without one")
	}
}
