package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// medianCI against intervals worked out by hand from binomial(n, 1/2), in the way benchstat
// chooses them: from the mode outwards, the likelier side first, the lower one on a tie.
func TestMedianCI(t *testing.T) {
	seq := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(n - i) // given in descending order: medianCI sorts
		}
		return xs
	}
	for _, c := range []struct {
		n        int
		median   float64
		lo, hi   float64 // 0: no interval
		coverage float64
	}{
		{1, 1, 0, 0, 1},
		{5, 3, 0, 0, 31.0 / 32},        // 10, +10 right, +5 left, +5 right (0.9375), +1 left: past the end
		{6, 3.5, 1, 6, 62.0 / 64},      // 20, +15 left, +15 right, +6 left, +6 right
		{7, 4, 1, 7, 126.0 / 128},      // 35, +35 right, 21, 21, 7 (0.9297), +7 right
		{10, 5.5, 2, 9, 1002.0 / 1024}, // 252, 210, 210, 120, 120, 45, 45 (0.9346), +10 right
		{11, 6, 2, 9, 1969.0 / 2048},   // 462, +462 right, 330, 330, 165, 165 (0.9346), +55 left
	} {
		med, ci, cov := medianCI(seq(c.n), 0.95)
		if med != c.median || math.Abs(cov-c.coverage) > 1e-12 {
			t.Errorf("n=%d: median %v coverage %v, want %v and %v", c.n, med, cov, c.median, c.coverage)
		}
		switch {
		case c.lo == 0 && ci != nil:
			t.Errorf("n=%d: interval %v, want none", c.n, *ci)
		case c.lo != 0 && (ci == nil || ci[0] != c.lo || ci[1] != c.hi):
			t.Errorf("n=%d: interval %v, want [%v, %v]", c.n, ci, c.lo, c.hi)
		}
	}
}

// --count K plays K runs and reports their median with its interval, in text and JSON.
func TestBenchCount(t *testing.T) {
	stdout, stderr, code := runArgs(t, "bench", "--pairs", "4", "--games", "2000", "--workers", "1", "--count", "7", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res benchResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v: %q", err, stdout)
	}
	if res.Count != 7 || len(res.Runs) != 7 || res.CI95 == nil || res.CICoverage < 0.95 ||
		!(res.CI95[0] <= res.GamesPerSec && res.GamesPerSec <= res.CI95[1]) {
		t.Errorf("%+v", res)
	}
	stdout, stderr, code = runArgs(t, "bench", "--pairs", "4", "--games", "2000", "--workers", "1", "--count", "3")
	if code != exitOK || !strings.Contains(stdout, "3 runs of 2000 games") || !strings.Contains(stdout, "median") ||
		!strings.Contains(stdout, "no 95% interval with fewer than 6 runs") {
		t.Errorf("exit %d: %s%s", code, stdout, stderr)
	}
	if _, stderr, code := runArgs(t, "bench", "--count", "0"); code != 2 || !strings.Contains(stderr, "--count 0") {
		t.Errorf("--count 0: exit %d: %s", code, stderr)
	}
}
