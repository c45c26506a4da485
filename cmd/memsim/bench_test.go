package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// --count K plays K runs and reports their median with its interval, in text and JSON.
func TestBenchCount(t *testing.T) {
	t.Parallel()
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
