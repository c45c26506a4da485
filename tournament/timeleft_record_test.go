package tournament_test

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"memsim/configs"
	"memsim/tournament"
)

var record = flag.String("record", "", "play the run of testdata/timeleft/run.yaml and record its progress in testdata/timeleft/`NAME`.json")

// recordedRun is the progress of a run played on a real machine, as a progress report sees it:
// the plans of its matches, when each match started, and the count of games done every tenth of
// a second, times in seconds from the start of play.
type recordedRun struct {
	Config  string                 `json:"config"`
	Workers int                    `json:"workers"`
	Plans   []tournament.MatchPlan `json:"plans"`
	Starts  []recordedEvent        `json:"starts"` // one per match, in order
	Samples []recordedEvent        `json:"samples"`
	End     float64                `json:"end"` // when play ended
}

// recordedEvent is the count of games done at a time, in seconds from the start of play.
type recordedEvent struct {
	At   float64 `json:"at"`
	Done int64   `json:"done"`
}

// recordedConfig is the run recorded.
const recordedConfig = "testdata/timeleft/run.yaml"

// recordedFile is the file of the recording name.
func recordedFile(name string) string { return filepath.Join("testdata", "timeleft", name+".json") }

// TestRecordRun plays the run of testdata/timeleft/run.yaml (with -record NAME only: it takes
// up to a minute) and writes its progress to testdata/timeleft/NAME.json, for
// TestTimeLeftRecordedRuns to replay.
func TestRecordRun(t *testing.T) {
	if *record == "" {
		t.Skip("plays a run of up to a minute: with -record NAME only")
	}
	src, err := os.ReadFile(recordedConfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := configs.Parse(recordedConfig, src, tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr, err := tournament.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	run := recordedRun{Config: filepath.Base(recordedConfig), Workers: cfg.Workers, Plans: tr.Plans()}
	var done atomic.Int64
	var mu sync.Mutex
	start := time.Now()
	since := func() float64 { return time.Since(start).Seconds() }
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				mu.Lock()
				run.Samples = append(run.Samples, recordedEvent{At: since(), Done: done.Load()})
				mu.Unlock()
			}
		}
	})
	_, err = tr.Play(ctx, tournament.Options{Workers: cfg.Workers, Progress: &done, Match: func(int, int64) {
		mu.Lock()
		run.Starts = append(run.Starts, recordedEvent{At: since(), Done: done.Load()})
		mu.Unlock()
	}})
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	run.End = since()
	run.Samples = append(run.Samples, recordedEvent{At: run.End, Done: done.Load()})
	data, err := json.MarshalIndent(run, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(recordedFile(*record), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replay feeds the recorded run to a TimeLeft and calls check with the estimate at every sample
// (and whether there was one), the time then truly left, and the share of the games done.
func (r *recordedRun) replay(check func(est tournament.Estimate, ok bool, truth time.Duration, share float64)) {
	var total int64
	for _, p := range r.Plans {
		total += p.Games
	}
	e := tournament.NewTimeLeft(r.Plans)
	origin := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return origin.Add(seconds(s)) }
	next := 0
	for _, s := range r.Samples {
		for ; next < len(r.Starts) && r.Starts[next].At <= s.At; next++ {
			e.StartMatch(next, r.Starts[next].Done, 0, at(r.Starts[next].At))
		}
		est, ok := e.Estimate(s.Done, at(s.At))
		check(est, ok, seconds(r.End-s.At), float64(s.Done)/float64(total))
	}
}

// readRecordedRun reads testdata/timeleft/NAME.json.
func readRecordedRun(t *testing.T, name string) *recordedRun {
	t.Helper()
	file := recordedFile(name)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var r recordedRun
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(r.Starts) != len(r.Plans) || len(r.Samples) < 50 {
		t.Fatalf("%s: %d starts of %d matches, %d samples", file, len(r.Starts), len(r.Plans), len(r.Samples))
	}
	return &r
}

// Replayed through the estimate, the progress of real runs on a shared 2-core machine (of
// matches as different in pace as the default's: 12 and 26 pairs, a player with limited memory,
// one playing to win) has the time truly left within the range stated at most samples after the
// first 5% of the games, and the range is narrower in the last tenth of the games than at 10%.
// In load-falls, the machine's load fell two thirds of the way through and the paces to come
// tripled in speed, which no estimate foresees; in steady-load it stayed high.
func TestTimeLeftRecordedRuns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		within float64 // the least share of samples with the time left in the range
	}{
		{"steady-load", 0.9},
		{"load-falls", 0.65},
	} {
		r := readRecordedRun(t, tt.name)
		var in, out, none int
		var widths []float64 // of the ranges, relative to the time left, by tenths of the games
		r.replay(func(est tournament.Estimate, ok bool, truth time.Duration, share float64) {
			if share < 0.05 || share >= 1 {
				return
			}
			switch {
			case !ok:
				none++
				return
			case est.Low <= truth && truth <= est.High:
				in++
			default:
				out++
			}
			if tenth := int(10 * share); len(widths) <= tenth {
				widths = append(widths, make([]float64, tenth+1-len(widths))...)
				widths[tenth] = math.Log(est.High.Seconds() / est.Low.Seconds())
			}
		})
		if none > 0 {
			t.Errorf("%s: no estimate at %d samples past 5%% of the games", tt.name, none)
		}
		if n := in + out; float64(in) < tt.within*float64(n) {
			t.Errorf("%s: the time left within the range stated at %d of %d samples, want %.0f%% at least", tt.name, in, n, 100*tt.within)
		}
		if w := widths[len(widths)-1]; w >= widths[1] {
			t.Errorf("%s: the range spans a factor of %.2f in the last tenth of the games, %.2f at 10%%: it does not narrow", tt.name, math.Exp(w), math.Exp(widths[1]))
		}
	}
}

// The same measurements give the same estimates, to the nanosecond: replayed twice, a recorded
// run is estimated alike at every sample.
func TestTimeLeftIsDeterministic(t *testing.T) {
	t.Parallel()
	r := readRecordedRun(t, "steady-load")
	var first []tournament.Estimate
	r.replay(func(est tournament.Estimate, _ bool, _ time.Duration, _ float64) { first = append(first, est) })
	k := 0
	r.replay(func(est tournament.Estimate, _ bool, _ time.Duration, _ float64) {
		if est != first[k] {
			t.Errorf("sample %d: %+v, then %+v", k, first[k], est)
		}
		k++
	})
}
