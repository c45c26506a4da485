package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// With singletons a handover-uniform memory of capacity 2n + s never forgets: solve prints perfect
// memory's values and each choice's values, with the memory named in the first line.
func TestSolveHandoverSingletonsLargeCapacityIsPerfectMemory(t *testing.T) {
	t.Parallel()
	common := []string{"solve", "--pairs", "3", "--unknown", "2", "--singletons", "2", "--unseen-singletons", "1", "--opponent", "safe"}
	got, stderr, code := runArgs(t, append(common, "--memory", "8", "--forget", "handover-uniform")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want, stderr, code := runArgs(t, common...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	gl, wl := strings.SplitN(got, "\n", 2), strings.SplitN(want, "\n", 2)
	if !strings.Contains(gl[0], "handover-uniform(8)") {
		t.Errorf("first line %q does not name the memory", gl[0])
	}
	// The choices' scores to win are solved with perfect memory only.
	cut := func(s string) string { return s[:strings.Index(s, "to win")] }
	if !strings.Contains(gl[1], "to win") || !strings.Contains(wl[1], "to win") || cut(gl[1]) != cut(wl[1]) {
		t.Errorf("got\n%s\nperfect memory\n%s", got, want)
	}
}

// What the model does not solve is refused in one line naming the flags, with exit status 2.
func TestSolveHandoverSingletonsRefusals(t *testing.T) {
	t.Parallel()
	base := []string{"solve", "--pairs", "4", "--singletons", "1", "--memory", "3"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--forget", "lru"}, "--singletons 1 with --forget lru: no exact model"},
		{[]string{"--forget", "handover-uniform", "--players", "1", "--pass", "always"}, "solitaire has nobody to hand a pass to"},
	} {
		_, stderr, code := runArgs(t, append(base, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and one line with %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
}

// With singletons under a handover-uniform memory --distribution gives seat 0's shares: their
// probabilities add up to one, their mean is seat 0's expected pairs, and a capacity of 2n + s
// gives perfect memory's distribution.
func TestSolveHandoverSingletonsDistribution(t *testing.T) {
	t.Parallel()
	type result struct {
		ExpectedPairs     struct{ Float float64 } `json:"expected_pairs"`
		ScoreDistribution []struct {
			Share       float64
			Probability struct{ Float float64 }
		} `json:"score_distribution"`
	}
	common := []string{"solve", "--pairs", "4", "--singletons", "2", "--opponent", "safe", "--distribution", "--json", "--float"}
	solve := func(args ...string) result {
		out, stderr, code := runArgs(t, append(common, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %v: %s", args, err, out)
		}
		return r
	}
	got := solve("--memory", "3", "--forget", "handover-uniform")
	var sum, mean float64
	for _, s := range got.ScoreDistribution {
		sum += s.Probability.Float
		mean += s.Share * s.Probability.Float
	}
	if len(got.ScoreDistribution) != 9 || math.Abs(sum-1) > 1e-12 || math.Abs(mean-got.ExpectedPairs.Float) > 1e-12 {
		t.Errorf("shares %v add up to %v with mean %v, expected pairs %v", got.ScoreDistribution, sum, mean, got.ExpectedPairs.Float)
	}
	large, perfect := solve("--memory", "10", "--forget", "handover-uniform"), solve()
	if len(large.ScoreDistribution) != len(perfect.ScoreDistribution) {
		t.Fatalf("capacity 10: %d shares, perfect memory %d", len(large.ScoreDistribution), len(perfect.ScoreDistribution))
	}
	for i, s := range large.ScoreDistribution {
		if p := perfect.ScoreDistribution[i]; math.Abs(s.Probability.Float-p.Probability.Float) > 1e-12 {
			t.Errorf("share %v: capacity 10 %v, perfect memory %v", s.Share, s.Probability.Float, p.Probability.Float)
		}
	}
}
