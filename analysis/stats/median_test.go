package stats

import (
	"math"
	"math/bits"
	"testing"
)

// descending returns n, n-1, ..., 1: the order statistic x(i) of the sample is i.
func descending(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(n - i)
	}
	return xs
}

// MedianCI against intervals worked out by hand from binomial(n, 1/2), in the way benchstat
// chooses them: from the mode outwards, the likelier side first, the lower one on a tie.
func TestMedianCIHandWorked(t *testing.T) {
	for _, c := range []struct {
		n        int
		median   float64
		lo, hi   float64 // 0: no interval
		coverage float64
	}{
		{1, 1, 0, 0, 1},
		{2, 1.5, 0, 0, 1},              // 2 of 4, +1 left, +1 right: past both ends
		{5, 3, 0, 0, 31.0 / 32},        // 10, +10 right, +5 left, +5 right (0.9375), +1 left: past the end
		{6, 3.5, 1, 6, 62.0 / 64},      // 20, +15 left, +15 right, +6 left, +6 right
		{7, 4, 1, 7, 126.0 / 128},      // 35, +35 right, 21, 21, 7 (0.9297), +7 right
		{10, 5.5, 2, 9, 1002.0 / 1024}, // 252, 210, 210, 120, 120, 45, 45 (0.9346), +10 right
		{11, 6, 2, 9, 1969.0 / 2048},   // 462, +462 right, 330, 330, 165, 165 (0.9346), +55 left
	} {
		got := MedianCI(descending(c.n), 0.95)
		if got.Median != c.median || math.Abs(got.Coverage-c.coverage) > 1e-12 {
			t.Errorf("n=%d: median %v coverage %v, want %v and %v", c.n, got.Median, got.Coverage, c.median, c.coverage)
		}
		switch {
		case c.lo == 0 && got.OK:
			t.Errorf("n=%d: interval [%v, %v], want none", c.n, got.Lo, got.Hi)
		case c.lo != 0 && (!got.OK || got.Lo != c.lo || got.Hi != c.hi):
			t.Errorf("n=%d: interval %+v, want [%v, %v]", c.n, got, c.lo, c.hi)
		}
	}
}

// MedianCI against the interval chosen from the distribution of B, the number of values below
// the population median, found by enumerating all 2^n ways the n values can fall below or above
// it: the counts [l, r) grow from the mode, taking in the likelier neighbour (compared as exact
// counts, the lower one on a tie) until they cover level; the coverage is the share of the 2^n
// outcomes with l <= B < r.
func TestMedianCIEnumerated(t *testing.T) {
	for _, level := range []float64{0.5, 0.9, 0.95, 0.99} {
		for n := 1; n <= 18; n++ {
			ways := make([]int64, n+1) // ways[k]: outcomes with B = k
			for mask := uint32(0); mask < 1<<n; mask++ {
				ways[bits.OnesCount32(mask)]++
			}
			waysAt := func(k int) int64 {
				if k < 0 || k > n {
					return 0
				}
				return ways[k]
			}
			total := float64(int64(1) << n)
			l := (n+1+1)/2 - 1
			r := l + 1
			covered := waysAt(l)
			for float64(covered)/total < level && (waysAt(l-1) > 0 || waysAt(r) > 0) {
				if waysAt(l-1) >= waysAt(r) {
					l--
					covered += waysAt(l)
				} else {
					covered += waysAt(r)
					r++
				}
			}
			got := MedianCI(descending(n), level)
			if want := float64(covered) / total; math.Abs(got.Coverage-want) > 1e-12 {
				t.Errorf("level %v, n=%d: coverage %v, want %v", level, n, got.Coverage, want)
			}
			wantOK := l >= 1 && r <= n
			if got.OK != wantOK || (wantOK && (got.Lo != float64(l) || got.Hi != float64(r))) {
				t.Errorf("level %v, n=%d: interval %+v, want x(%d), x(%d) (interval: %v)", level, n, got, l, r, wantOK)
			}
			if got.OK && got.Coverage < level {
				t.Errorf("level %v, n=%d: coverage %v below the level", level, n, got.Coverage)
			}
		}
	}
}

// The median does not depend on the order of the values, and MedianCI leaves them as they are.
func TestMedianCIOrderAndInput(t *testing.T) {
	xs := []float64{3, 9, 1, 7, 5, 2, 8}
	orig := append([]float64(nil), xs...)
	got := MedianCI(xs, 0.95)
	if got.Median != 5 || !got.OK || got.Lo != 1 || got.Hi != 9 {
		t.Errorf("%+v, want median 5 in [1, 9]", got)
	}
	for i := range xs {
		if xs[i] != orig[i] {
			t.Fatalf("MedianCI reordered its input: %v", xs)
		}
	}
}

// An empty sample has no median and no interval; a level outside (0, 1) panics, as for the other
// intervals of the package.
func TestMedianCIEdges(t *testing.T) {
	if got := MedianCI(nil, 0.95); !math.IsNaN(got.Median) || got.OK || got.Coverage != 0 {
		t.Errorf("empty sample: %+v", got)
	}
	mustPanic(t, "MedianCI level 1", func() { MedianCI([]float64{1}, 1) })
	mustPanic(t, "MedianCI level 0", func() { MedianCI([]float64{1}, 0) })
}
