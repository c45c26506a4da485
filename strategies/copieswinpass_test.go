package strategies_test

import (
	"context"
	"testing"

	"memsim/sim/rules"
)

// TestEnginePlaysCopiesWinPassTable builds win-optimal (against itself) and win-best-response to
// safe and to daring under copies of a face with pass rules two-known and always at two seats,
// plays every deal of two and three faces of four cards and two of six with the engine, and
// compares every seat's score, wins and draws over the deals with a card-by-card reference that
// reads the copies model's table to win at the mover's lead, just after a pass or not, exactly,
// and seat 0's wins, draws and expected pairs with the model's values (playCopiesWinGame).
func TestEnginePlaysCopiesWinPassTable(t *testing.T) {
	ctx := context.Background()
	games := []copiesWinGame{
		{faces: 2, copies: 4, pass: rules.PassAlways}, {faces: 3, copies: 4, pass: rules.PassAlways},
		{faces: 3, copies: 4, pass: rules.PassTwoKnown}, {faces: 2, copies: 6, pass: rules.PassTwoKnown},
		{faces: 3, copies: 4, pass: rules.PassAlways, opponent: "safe"}, {faces: 3, copies: 4, pass: rules.PassTwoKnown, opponent: "daring"},
	}
	if testing.Short() {
		games = []copiesWinGame{
			{faces: 2, copies: 4, pass: rules.PassAlways}, {faces: 3, copies: 4, pass: rules.PassTwoKnown},
			{faces: 2, copies: 4, pass: rules.PassAlways, opponent: "safe"},
		}
	}
	passes := 0
	for _, g := range games {
		passes += playCopiesWinGame(ctx, t, g).passes
	}
	if passes == 0 {
		t.Error("no table passed in any game")
	}
}
