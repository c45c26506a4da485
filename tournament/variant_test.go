package tournament_test

import (
	"bytes"
	"context"
	"testing"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
)

// A two-player run under a turn limit most games reach reports games won with half of the pairs
// or fewer (the pairs left count for nobody), and its results validate and are written.
func TestTurnLimitedRunReports(t *testing.T) {
	src := `name: limited
rules: {pairs: 6, turn_limit: 4}
games: 200
seed: 3
luck_adjusted: false
players:
  - {name: safe, policy: safe}
  - {name: greedy, policy: greedy-random}
`
	cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr, err := tournament.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Play(ctx, tournament.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	run, err := tr.Report(ctx, res)
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	for _, m := range run.Matchups {
		if m.TurnLimited == 0 {
			t.Errorf("%v: no game ended at a limit of 4 turns with 6 pairs", m.Players)
		}
		// Seat 0 wins a game in which it took more than half of the pairs, and also some in
		// which it took fewer and the other seat fewer still.
		var more int64
		for k, n := range m.ShareCounts[0] {
			if k > m.Pairs {
				more += n
			}
		}
		if m.Wins[0] <= more {
			t.Errorf("%v: %d wins, no more than the %d games with more than half of the pairs", m.Players, m.Wins[0], more)
		}
	}
	if err := run.Validate(); err != nil {
		t.Errorf("validate: %v", err)
	}
	var b bytes.Buffer
	if err := report.WriteJSON(&b, run); err != nil {
		t.Errorf("write: %v", err)
	}
}
