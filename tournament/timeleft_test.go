package tournament_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"memsim/sim"
	"memsim/tournament"
)

// seconds is a duration of s seconds.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// near reports whether d is within a millisecond of want.
func near(d, want time.Duration) bool { return (d - want).Abs() <= time.Millisecond }

// The match under way goes at its own pace, games a resumed checkpoint holds not counted as
// played now; there is no estimate before a match starts or before anything is measured.
func TestTimeLeftOfTheMatchUnderWay(t *testing.T) {
	e := tournament.NewTimeLeft([]tournament.MatchPlan{{Games: 1000, Pairs: 10, Players: []string{"a", "b"}}})
	start := time.Now()
	if _, ok := e.Estimate(0, start); ok {
		t.Error("an estimate before any match has started")
	}
	e.StartMatch(0, 400, 400, start) // 400 games resumed from a checkpoint
	if _, ok := e.Estimate(400, start.Add(100*time.Millisecond)); ok {
		t.Error("an estimate before anything was measured")
	}
	// 300 games played in one second: 300 games left at 1/300 s, up to 10% either way.
	est, ok := e.Estimate(700, start.Add(time.Second))
	if !ok || !near(est.Mid, time.Second) || !near(est.Low, seconds(math.Exp(-0.1))) || !near(est.High, seconds(math.Exp(0.1))) {
		t.Errorf("in match 0: %+v, want 1s from e^-0.1 s to e^0.1 s", est)
	}
	if left, _ := e.Left(700, start.Add(time.Second)); left != est.Mid {
		t.Errorf("Left %v, Estimate %+v", left, est)
	}
	if got := e.Rate(700, start.Add(time.Second)); got != 300 {
		t.Errorf("rate %v games/s, want 300", got)
	}
}

// A match to come is estimated from the paces measured: the same players at the same deal size
// at their pace; a deal size nothing is measured at yet, so much slower that the run's overall
// pace says a tenth of the time left, within the range stated; matches a checkpoint held whole
// not at the pace of nothing.
func TestTimeLeftOfTheMatchesToCome(t *testing.T) {
	ab, ba := []string{"a", "b"}, []string{"b", "a"}
	for _, tt := range []struct {
		name  string
		plans []tournament.MatchPlan
		// The matches played: each one's resumed games and the seconds it took; the estimate is
		// made at the start of the next, before it has a pace.
		resumed []int64
		took    []float64
		truth   float64 // the seconds truly left, then
		mid     float64 // the most likely, or 0 for any
		least   float64 // the least the most likely may be (overall pace × least)
	}{
		{
			name:  "the same players",
			plans: []tournament.MatchPlan{{Games: 1000, Pairs: 10, Players: ab}, {Games: 2000, Pairs: 10, Players: ba}},
			took:  []float64{1}, truth: 2, mid: 2,
		},
		{
			// 10% of the games at 8 pairs, a millisecond each; the other 90% at 26 pairs take
			// ten times as long: at the overall pace the time left would be 9 s, not 90 s.
			name: "ten times slower to come",
			plans: append([]tournament.MatchPlan{{Games: 1000, Pairs: 8, Players: ab}},
				slices.Repeat([]tournament.MatchPlan{{Games: 1000, Pairs: 26, Players: ab}, {Games: 1000, Pairs: 26, Players: ba}}, 5)[1:]...),
			took: []float64{1}, truth: 90, least: 3 * 9,
		},
		{
			name: "matches resumed whole",
			plans: []tournament.MatchPlan{{Games: 1000, Pairs: 10, Players: ab}, {Games: 1000, Pairs: 10, Players: ab},
				{Games: 1000, Pairs: 10, Players: ba}, {Games: 1000, Pairs: 10, Players: ab}},
			resumed: []int64{1000, 1000, 0}, took: []float64{0.001, 0.001, 2}, truth: 2, mid: 2,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := tournament.NewTimeLeft(tt.plans)
			now := time.Now()
			var done int64
			for i, secs := range tt.took {
				var r int64
				if tt.resumed != nil {
					r = tt.resumed[i]
				}
				done += r // as Play counts a resumed match's games before it starts it
				e.StartMatch(i, done, r, now)
				done += tt.plans[i].Games - r
				now = now.Add(seconds(secs))
			}
			e.StartMatch(len(tt.took), done, 0, now)
			est, ok := e.Estimate(done, now)
			truth := seconds(tt.truth)
			switch {
			case !ok:
				t.Fatal("no estimate")
			case est.Low > truth || est.High < truth:
				t.Errorf("%+v does not hold the %v left", est, truth)
			case tt.mid != 0 && !near(est.Mid, seconds(tt.mid)):
				t.Errorf("most likely %v, want %v", est.Mid, seconds(tt.mid))
			case est.Mid < seconds(tt.least):
				t.Errorf("most likely %v, want %v at least", est.Mid, seconds(tt.least))
			case !(est.Low <= est.Mid && est.Mid <= est.High):
				t.Errorf("%+v", est)
			}
		})
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
