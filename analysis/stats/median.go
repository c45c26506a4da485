package stats

import (
	"math"
	"slices"
)

// MedianInterval is the median of a sample with a distribution-free confidence interval of the
// population median (see MedianCI).
type MedianInterval struct {
	// Median is the sample median: the middle value, or the mean of the two middle values of an
	// even number of values; NaN for an empty sample.
	Median float64
	// OK reports whether there is an interval: false when the interval would reach past the
	// smallest or the largest value, as it does for fewer than 6 values at level 0.95.
	OK bool
	// Lo and Hi bound the interval when OK: two order statistics of the sample.
	Lo, Hi float64
	// Coverage is the probability with which the interval covers the population median of a
	// continuous distribution, at least the level asked for when OK. Without an interval it is
	// the probability the search reached before it ran past the sample (0 for an empty sample).
	Coverage float64
}

// MedianCI returns the median of xs and the confidence interval of the population median that
// benchstat gives (golang.org/x/perf/benchmath, which uses go-moremath's stats.QuantileCI). The
// interval lies between two order statistics x(l) and x(r) of the n values, 1-based: with B, the
// number of values below the population median, binomial(n, 1/2), it covers the median with
// probability P(l <= B < r). The counts [l, r) are chosen by starting from the mode of B
// (ceil((n+1)/2) - 1, the lower one of two) and taking in the likelier neighbouring count, the
// lower one on a tie, until that probability reaches level. benchstat switches to a normal
// approximation above 30 values; MedianCI stays exact.
//
// The order of xs does not matter, and xs is not modified. It panics unless 0 < level < 1.
func MedianCI(xs []float64, level float64) MedianInterval {
	checkLevel(level)
	n := len(xs)
	if n == 0 {
		return MedianInterval{Median: math.NaN()}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	res := MedianInterval{Median: s[n/2]}
	if n%2 == 0 {
		res.Median = (s[n/2-1] + s[n/2]) / 2
	}
	x := (n+1+1)/2 - 1 // the mode, ceil((n+1)/2) - 1: the lower one of two
	accum := binomialHalfPMF(n, x)
	l, r := x, x+1 // the counts [l, r) taken in
	lp, rp := binomialHalfPMF(n, l-1), binomialHalfPMF(n, r)
	for accum < level && (lp > 0 || rp > 0) {
		if lp >= rp {
			accum += lp
			l--
			lp = binomialHalfPMF(n, l-1)
		} else {
			accum += rp
			r++
			rp = binomialHalfPMF(n, r)
		}
	}
	res.Coverage = accum
	if l < 1 || r > n {
		return res
	}
	res.OK, res.Lo, res.Hi = true, s[l-1], s[r-1]
	return res
}

// binomialHalfPMF returns P(B = k) for B binomial(n, 1/2), 0 outside 0 .. n. It computes
// P(B = k) and P(B = n-k) alike, so that the two compare equal, as they are.
func binomialHalfPMF(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	lgN, _ := math.Lgamma(float64(n + 1))
	lgK, _ := math.Lgamma(float64(k + 1))
	lgNK, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(lgN - lgK - lgNK - float64(n)*math.Ln2)
}
