package tournament_test

import (
	"testing"
	"time"

	"memsim/sim"
	"memsim/tournament"
)

// seconds is a duration of s seconds.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// The time left comes from each match's own pace: games a resumed checkpoint holds do not count
// as played now, and a match to come takes the pace of a played match of its kind, or the pace
// per game and pair so far, or before that the pace of the match under way scaled by the pairs.
func TestTimeLeft(t *testing.T) {
	e := tournament.NewTimeLeft([]tournament.MatchPlan{
		{Games: 1000, Pairs: 10, Kind: "a"}, {Games: 2000, Pairs: 10, Kind: "a"}, {Games: 1000, Pairs: 20, Kind: "b"},
	})
	start := time.Now()
	if _, ok := e.Left(0, start); ok {
		t.Error("an estimate before any match has started")
	}
	e.StartMatch(0, 400, 400, start) // 400 games resumed from a checkpoint
	if _, ok := e.Left(400, start.Add(100*time.Millisecond)); ok {
		t.Error("an estimate before anything was measured")
	}
	// 300 games played in one second: 300 games/s. Match 0: 1000 - 400 - 300 games at 1/300 s;
	// match 1 at the same pace (no kind measured yet, the same pairs); match 2 at twice the time
	// per game, having twice the pairs.
	left, ok := e.Left(700, start.Add(time.Second))
	if want := seconds(300.0/300 + 2000.0/300 + 1000.0*2/300); !ok || (left-want).Abs() > time.Millisecond {
		t.Errorf("in match 0: left %v, want %v", left, want)
	}
	if got := e.Rate(700, start.Add(time.Second)); got != 300 {
		t.Errorf("rate %v games/s, want 300", got)
	}
	// Match 0 ends after 10 s, 600 of its games played now: kind "a" takes 10/600 s per game,
	// and a game of 10 pairs 10/600 s, so 10/6000 s per game and pair. Match 1, just started,
	// goes at kind a's pace, match 2 (kind b, unmeasured) at 20 pairs × 10/6000 s per game.
	at := start.Add(10 * time.Second)
	e.StartMatch(1, 1000, 0, at)
	left, ok = e.Left(1000, at)
	if want := seconds(2000*10.0/600 + 1000*20*10.0/6000); !ok || (left-want).Abs() > time.Millisecond {
		t.Errorf("at the start of match 1: left %v, want %v", left, want)
	}
}

// A checkpoint that holds whole matches adds their games at once, as each starts: their kind must
// not be given a pace of (almost) nothing, which would make every later match of that kind take
// no time in the estimate.
func TestTimeLeftAfterFinishedMatchesResumed(t *testing.T) {
	e := tournament.NewTimeLeft([]tournament.MatchPlan{
		{Games: 1000, Pairs: 10, Kind: "a"}, {Games: 1000, Pairs: 10, Kind: "a"},
		{Games: 1000, Pairs: 10, Kind: "b"}, {Games: 1000, Pairs: 10, Kind: "a"},
	})
	// What Play does on resuming a checkpoint that holds matches 0 and 1.
	now := time.Now()
	e.StartMatch(0, 1000, 1000, now)
	e.StartMatch(1, 2000, 1000, now.Add(time.Millisecond))
	start := now.Add(2 * time.Millisecond)
	e.StartMatch(2, 2000, 0, start)
	// Match 2 plays 300 games in a second: 700 games left of it at 1/300 s; match 3, of a kind
	// never played now, at the same pace per game and pair.
	left, ok := e.Left(2300, start.Add(time.Second))
	if want := seconds(700.0/300 + 1000.0/300); !ok || (left-want).Abs() > time.Millisecond {
		t.Errorf("time left %v, want %v", left, want)
	}
}

// A tournament's plans give each match's games (its deals in every seat order) and kind.
func TestPlans(t *testing.T) {
	tr, err := parse(t, `seed: 5
games: 2500
paired: true
rules: {pairs: [4, 6]}
players:
  - {name: a, policy: parity}
  - {name: b, policy: optimal, memory: {capacity: 3, forget: lru}}
`)
	if err != nil {
		t.Fatal(err)
	}
	plans := tr.Plans()
	if len(plans) != len(tr.Matches) {
		t.Fatalf("%d plans of %d matches", len(plans), len(tr.Matches))
	}
	for i, p := range plans {
		m := tr.Matches[i]
		// Paired: one match of two seat orders per deal size, 2,500 deals each.
		if p.Games != 5000 || p.Pairs != m.Setup.Pairs || len(m.Orders) != 2 {
			t.Errorf("match %d: %+v", i, p)
		}
	}
	if plans[0].Kind == plans[1].Kind {
		t.Errorf("two deal sizes of one kind: %q", plans[0].Kind)
	}
	if err := tr.SetShard(tournament.Shard{Index: 2, Count: 2}); err != nil {
		t.Fatal(err)
	}
	// Of the batches of sim.BatchSize deals 0, 1 and 2 (the last of 2500 - 2·BatchSize), shard
	// 2 of 2 plays batch 1, in two seat orders.
	if p, want := tr.Plans()[0], int64(2*sim.BatchSize); p.Games != want {
		t.Errorf("shard 2 of 2: %d games, want %d", p.Games, want)
	}
}
