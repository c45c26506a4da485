package report

import "testing"

// A game that ends at a turn limit leaves pairs that count for nobody, so a seat's score counts
// do not give its wins, draws and losses: a run whose games ended at the limit is not held to them.
func TestTurnLimitedWinsNeedNotFollowTheScores(t *testing.T) {
	r := countedRun()
	m := &r.Matchups[0]
	// Seat 0's games of 1 pair each (2 half pairs) win when seat 1 took none, at the limit.
	m.Wins[0], m.Draws[0], m.Losses[0], m.WinCI95, m.DrawCI95, m.LossCI95 = 3, 0, 1, nil, nil, nil
	m.Wins[1], m.Draws[1], m.Losses[1] = 1, 0, 3
	m.TurnLimited = 2
	if err := r.Validate(); err != nil {
		t.Errorf("a run with games ended at the turn limit: %v", err)
	}
	m.TurnLimited = 0
	if err := r.Validate(); err == nil {
		t.Error("the same wins without a game ended at the limit: accepted")
	}
}
