package tournament

import (
	"context"
	"fmt"
	"time"

	"memsim/analysis/stats"
	"memsim/sim"
	"memsim/strategies"
)

// Bench is a benchmark workload of the engine: Games games of one player against itself, two
// seats in one seat order, no singletons, pass rule never, on Pairs pairs, from seed 1 with deal
// stream 1 and play stream 2. The parity policy with its perfect memory is the workload of the
// Benchmark functions of package sim (on one worker, BenchmarkPool1 at 26 pairs plays the very
// games of Bench{Pairs: 26, Policy: "parity"}); memsim bench measures it for any policy and memory.
type Bench struct {
	// Pairs is the deal size, 1 to MaxPairs.
	Pairs int
	// Policy is the registered policy of both seats (strategies.Names), and Memory overrides the
	// fields of its default memory that are set.
	Policy string
	Memory strategies.MemoryOverride
	// Games is the number of games, 1 to MaxGames.
	Games int64
}

// Match builds the bench's player and lays out its match. An error says what is wrong with the
// deal size or the games; one of the player (its policy or memory) is strategies.Build's, which
// names the player.
func (b Bench) Match(ctx context.Context) (*sim.Match, error) {
	switch {
	case b.Pairs < 1 || b.Pairs > MaxPairs:
		return nil, fmt.Errorf("bench: %d pairs: must be between 1 and %d", b.Pairs, MaxPairs)
	case b.Games < 1 || b.Games > MaxGames:
		return nil, fmt.Errorf("bench: %d games: must be between 1 and %d", b.Games, int64(MaxGames))
	}
	env := strategies.Env{MaxPairs: b.Pairs, Players: 2, Tables: strategies.NewTables()}
	p, err := strategies.Build(ctx, strategies.Spec{Name: b.Policy, Policy: b.Policy, Memory: b.Memory}, env)
	if err != nil {
		return nil, err
	}
	return &sim.Match{
		Setup:  sim.Setup{Pairs: b.Pairs, Players: []sim.Player{p.Player, p.Player}},
		Orders: [][]int{{0, 1}},
		Deals:  b.Games,
		Seed:   1, DealStream: 1, PlayStream: 2,
	}, nil
}

// Throughput is how fast a match plays (see Measure), as memsim bench --json prints it. With
// Count runs, GamesPerSec is the median of the runs' games per second, CI95 its 95% interval
// (nil when fewer than 6 runs give none) and CICoverage the probability with which that interval
// covers the median (at least 0.95; see stats.MedianCI); Runs lists every run's games per second
// in order, and Seconds is the time of all the runs.
type Throughput struct {
	GamesPerSec          float64     `json:"games_per_sec"`
	GamesPerSecPerWorker float64     `json:"games_per_sec_per_worker"`
	CI95                 *[2]float64 `json:"games_per_sec_ci95"`
	CICoverage           float64     `json:"ci_coverage"`
	Count                int         `json:"count"`
	Runs                 []float64   `json:"runs"`
	// Workers is the number of worker goroutines; Games the games of one run.
	Workers int     `json:"workers"`
	Games   int64   `json:"games"`
	Seconds float64 `json:"seconds"`
}

// Measure plays every game of m count times (at least once) on workers goroutines (0: one per
// CPU) and returns the games per second of the runs. When ctx is cancelled it returns an error
// wrapping ctx's error.
func Measure(ctx context.Context, m *sim.Match, workers, count int) (*Throughput, error) {
	if count < 1 {
		return nil, fmt.Errorf("measure: %d runs: must be at least 1", count)
	}
	workers = sim.Workers(workers)
	games := m.Deals * int64(len(m.Orders))
	res := &Throughput{Count: count, Runs: make([]float64, count), Workers: workers, Games: games}
	for i := range res.Runs {
		start := time.Now()
		if _, err := m.Play(ctx, workers, nil); err != nil {
			return nil, fmt.Errorf("measure: run %d of %d: %w", i+1, count, err)
		}
		el := time.Since(start).Seconds()
		res.Runs[i] = float64(games) / el
		res.Seconds += el
	}
	mi := stats.MedianCI(res.Runs, 0.95)
	res.GamesPerSec, res.GamesPerSecPerWorker, res.CICoverage = mi.Median, mi.Median/float64(workers), mi.Coverage
	if mi.OK {
		res.CI95 = &[2]float64{mi.Lo, mi.Hi}
	}
	return res, nil
}
