package tournament_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"memsim/sim"
	"memsim/sim/rules"
	"memsim/strategies"
	"memsim/tournament"
)

// The parity bench plays the games of the engine's own benchmarks: parity against parity from the
// fixed policy's table with the memory asked for, seed 1, deal stream 1, play stream 2 (sim's
// benchSetup and benchPool). A forgetting memory draws from the play stream.
func TestBenchIsTheEngineWorkload(t *testing.T) {
	ctx := context.Background()
	seven, handover := 7, rules.ForgetHandoverUniform
	tests := []struct {
		n   int
		ov  strategies.MemoryOverride
		mem rules.Memory
	}{
		{1, strategies.MemoryOverride{}, rules.Memory{}},
		{6, strategies.MemoryOverride{}, rules.Memory{}},
		{26, strategies.MemoryOverride{}, rules.Memory{}},
		{26, strategies.MemoryOverride{Capacity: &seven, Forget: &handover}, rules.Memory{Capacity: 7, Forget: rules.ForgetHandoverUniform}},
	}
	for _, tt := range tests {
		m, err := tournament.Bench{Pairs: tt.n, Policy: "parity", Memory: tt.ov, Games: 3000}.Match(ctx)
		if err != nil {
			t.Fatal(err)
		}
		table, err := rules.FixedChoiceTable(rules.PolicyParity, tt.n, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := sim.Player{Name: "parity", Memory: tt.mem, Table: table}
		want := sim.Match{Setup: sim.Setup{Pairs: tt.n, Players: []sim.Player{p, p}}, Orders: [][]int{{0, 1}},
			Deals: 3000, Seed: 1, DealStream: 1, PlayStream: 2}
		got, err := m.Play(ctx, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := want.Play(ctx, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, e := got.Orders[0], exp.Orders[0]
		if g.Games != 3000 || !reflect.DeepEqual(g.Share, e.Share) || g.TurnSum != e.TurnSum || g.TurnSumSq != e.TurnSumSq {
			t.Errorf("%d pairs, %v memory: the bench's games differ from the engine benchmarks' (%d games, %d turns; want %d, %d)",
				tt.n, tt.mem, g.Games, g.TurnSum, e.Games, e.TurnSum)
		}
	}
}

// The memory settings override the policy's own memory field by field; both seats play the same
// player.
func TestBenchMemory(t *testing.T) {
	seven, lru, private, q := 7, rules.ForgetLRU, rules.ScopePrivate, 0.25
	decay := rules.ForgetDecay
	tests := []struct {
		policy string
		mem    strategies.MemoryOverride
		want   rules.Memory
	}{
		{"parity", strategies.MemoryOverride{}, rules.Memory{}},
		{"forgetful", strategies.MemoryOverride{}, strategies.ForgetfulMemory()},
		{"optimal", strategies.MemoryOverride{Capacity: &seven, Forget: &lru, Scope: &private}, rules.Memory{Capacity: 7, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}},
		{"random", strategies.MemoryOverride{Forget: &decay, Decay: &q}, rules.Memory{Forget: rules.ForgetDecay, Decay: 0.25}},
	}
	for _, tt := range tests {
		m, err := tournament.Bench{Pairs: 8, Policy: tt.policy, Memory: tt.mem, Games: 10}.Match(context.Background())
		if err != nil {
			t.Errorf("%s: %v", tt.policy, err)
			continue
		}
		s := m.Setup
		if len(s.Players) != 2 || s.Players[0].Memory != tt.want || s.Players[1].Memory != tt.want || s.Pairs != 8 || s.Singletons != 0 || s.Pass != rules.PassNever {
			t.Errorf("%s: setup %+v, want two players of memory %v on 8 pairs", tt.policy, s, tt.want)
		}
	}
}

// A bench beyond the bounds, or of a player that cannot be built, is refused with a one-line error.
func TestBenchRefusesBadInput(t *testing.T) {
	one := 1
	tests := []struct {
		b    tournament.Bench
		want string
	}{
		{tournament.Bench{Pairs: 0, Policy: "parity", Games: 1}, "0 pairs: must be between 1 and 1000"},
		{tournament.Bench{Pairs: tournament.MaxPairs + 1, Policy: "parity", Games: 1}, "1001 pairs"},
		{tournament.Bench{Pairs: 4, Policy: "parity", Games: 0}, "0 games: must be between 1 and 100000000000"},
		{tournament.Bench{Pairs: 4, Policy: "parity", Games: tournament.MaxGames + 1}, "100000000001 games"},
		{tournament.Bench{Pairs: 4, Policy: "smart", Games: 1}, `player "smart": unknown policy "smart"`},
		{tournament.Bench{Pairs: 4, Policy: "parity", Games: 1, Memory: strategies.MemoryOverride{Capacity: &one}}, "memory capacity 1"},
	}
	for _, tt := range tests {
		m, err := tt.b.Match(context.Background())
		if m != nil || err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v; want one line with %q", tt.b, err, tt.want)
		}
	}
	m, err := tournament.Bench{Pairs: 4, Policy: "parity", Games: 1}.Match(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tournament.Measure(context.Background(), m, 1, 0); err == nil {
		t.Error("Measure of 0 runs: no error")
	}
}

// Measure's figures follow from its runs: the median (the middle run, or the mean of the middle
// two), the time of all runs (each run's games over its games per second), the median per
// worker, and an interval around the median from 6 runs on.
func TestMeasureFigures(t *testing.T) {
	ctx := context.Background()
	m, err := tournament.Bench{Pairs: 4, Policy: "parity", Games: 500}.Match(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, count := range []int{1, 2, 5, 6, 7} {
		res, err := tournament.Measure(ctx, m, 2, count)
		if err != nil {
			t.Fatal(err)
		}
		if res.Count != count || len(res.Runs) != count || res.Workers != 2 || res.Games != 500 {
			t.Fatalf("%d runs: %+v", count, res)
		}
		sorted := slices.Sorted(slices.Values(res.Runs))
		median := (sorted[(count-1)/2] + sorted[count/2]) / 2
		seconds := 0.0
		for _, r := range res.Runs {
			seconds += 500 / r
		}
		if !approxEq(res.GamesPerSec, median) || !approxEq(res.GamesPerSecPerWorker, median/2) || !approxEq(res.Seconds, seconds) {
			t.Errorf("%d runs %v: median %g per worker %g in %g s; want %g, %g, %g",
				count, res.Runs, res.GamesPerSec, res.GamesPerSecPerWorker, res.Seconds, median, median/2, seconds)
		}
		switch ci := res.CI95; {
		case count < 6 && ci != nil:
			t.Errorf("%d runs: an interval %v", count, *ci)
		case count >= 6 && (ci == nil || !(ci[0] <= res.GamesPerSec && res.GamesPerSec <= ci[1]) || res.CICoverage < 0.95):
			t.Errorf("%d runs: interval %v of coverage %g around the median %g", count, ci, res.CICoverage, res.GamesPerSec)
		}
	}
}

// approxEq reports whether a and b agree to 1e-12 relative.
func approxEq(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b)) }

// A cancelled measurement says so.
func TestMeasureCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	m, err := tournament.Bench{Pairs: 26, Policy: "parity", Games: 1 << 20}.Match(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := tournament.Measure(ctx, m, 1, 3); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// benchWorkload plays b.N games of the bench's workload on workers goroutines, as memsim bench
// does, and reports the games per second.
func benchWorkload(b *testing.B, w tournament.Bench, workers int) {
	w.Games = int64(b.N)
	m, err := w.Match(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if _, err := m.Play(context.Background(), workers, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkBenchParity26 is memsim bench's default workload, parity against itself on 26 pairs
// with perfect memory, on one worker (sim's BenchmarkPool1); BenchmarkBenchParity26Workers2 on two.
func BenchmarkBenchParity26(b *testing.B) {
	benchWorkload(b, tournament.Bench{Pairs: 26, Policy: "parity"}, 1)
}
func BenchmarkBenchParity26Workers2(b *testing.B) {
	benchWorkload(b, tournament.Bench{Pairs: 26, Policy: "parity"}, 2)
}

// BenchmarkBenchPrivateLRU7 is parity against itself with private lru memories of capacity 7
// (memsim bench --memory 7 --forget lru --scope private), on one worker.
func BenchmarkBenchPrivateLRU7(b *testing.B) {
	seven, lru, private := 7, rules.ForgetLRU, rules.ScopePrivate
	benchWorkload(b, tournament.Bench{Pairs: 26, Policy: "parity",
		Memory: strategies.MemoryOverride{Capacity: &seven, Forget: &lru, Scope: &private}}, 1)
}

// BenchmarkBenchSharedHandover7 is the same with one shared handover-uniform memory of capacity 7
// (memsim bench --memory 7 --forget handover-uniform).
func BenchmarkBenchSharedHandover7(b *testing.B) {
	seven, handover := 7, rules.ForgetHandoverUniform
	benchWorkload(b, tournament.Bench{Pairs: 26, Policy: "parity",
		Memory: strategies.MemoryOverride{Capacity: &seven, Forget: &handover}}, 1)
}

// BenchmarkBenchDecay is the same with one shared decay memory, q = 0.1, without a capacity
// (memsim bench --forget decay --q 0.1).
func BenchmarkBenchDecay(b *testing.B) {
	decay, q := rules.ForgetDecay, 0.1
	benchWorkload(b, tournament.Bench{Pairs: 26, Policy: "parity",
		Memory: strategies.MemoryOverride{Forget: &decay, Decay: &q}}, 1)
}

// A program measures how fast the engine plays a policy against itself: the median games per
// second of seven runs, with its 95% interval.
func ExampleMeasure() {
	ctx := context.Background()
	m, err := tournament.Bench{Pairs: 12, Policy: "optimal", Games: 20000}.Match(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := tournament.Measure(ctx, m, 1, 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d runs of %d games on %d worker; an interval: %v\n", len(res.Runs), res.Games, res.Workers, res.CI95 != nil)
	// Output:
	// 7 runs of 20000 games on 1 worker; an interval: true
}
