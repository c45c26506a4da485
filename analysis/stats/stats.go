// Package stats provides streaming, mergeable accumulators of sample moments and the inference built
// on them, in float64: normal and Student-t confidence intervals and precision targets for means,
// Wilson intervals for proportions, a distribution-free interval for the median of a sample,
// Welch's two-sample t test, the variance reduction of a paired design, Wald's sequential
// probability ratio test, and Bradley–Terry ratings from win counts. It is self-contained: callers
// feed it plain numbers. Distributions come from gonum's stat/distuv and linear algebra from
// gonum's mat.
//
// A Moments value is safe to copy; the zero value is an empty accumulator. Accumulators built in
// parallel (one per worker, say) are combined with Merge, which gives the same result as adding every
// observation to one accumulator, up to floating-point rounding.
package stats

import (
	"fmt"
	"math"
	"math/big"

	"golang.org/x/exp/constraints"
	"gonum.org/v1/gonum/stat/distuv"
)

// Moments accumulates the count, the mean and the sum of squared deviations from the mean (the
// centred second moment, M2) of a stream of observations. Add uses Welford's update and Merge the
// pairwise formula of Chan, Golub and LeVeque, both numerically stable. The zero value is empty.
type Moments struct {
	// N is the number of observations.
	N int64
	// Mean is the sample mean, in the units of the observations; 0 when N is 0.
	Mean float64
	// M2 is the sum over observations of (x - Mean)², in squared units; 0 when N < 2.
	M2 float64
}

// Add adds the observation x.
func (m *Moments) Add(x float64) {
	m.N++
	d := x - m.Mean
	m.Mean += d / float64(m.N)
	m.M2 += d * (x - m.Mean)
}

// Merge adds every observation accumulated in o, as if each had been passed to Add.
func (m *Moments) Merge(o Moments) {
	switch {
	case o.N == 0:
		return
	case m.N == 0:
		*m = o
		return
	}
	na, nb := float64(m.N), float64(o.N)
	n := na + nb
	d := o.Mean - m.Mean
	m.Mean += d * nb / n
	m.M2 += o.M2 + d*d*na*nb/n
	m.N += o.N
}

// Variance returns the sample variance M2/(N-1), in squared units, or 0 when N < 2.
func (m Moments) Variance() float64 {
	if m.N < 2 {
		return 0
	}
	return m.M2 / float64(m.N-1)
}

// StdDev returns the sample standard deviation, the square root of Variance, or 0 when N < 2.
func (m Moments) StdDev() float64 {
	return math.Sqrt(m.Variance())
}

// StdErr returns the estimated standard error of the mean, sqrt(Variance/N), or 0 when N < 2.
func (m Moments) StdErr() float64 {
	if m.N < 2 {
		return 0
	}
	return math.Sqrt(m.Variance() / float64(m.N))
}

// MomentsFromHistogram returns the moments of integer-valued data given as a histogram of counts
// of any integer type: counts[i] is the number of observations with value (i+offset)*scale. It
// makes two passes, one for the mean and one for the squared deviations from it, which is more
// accurate than adding each bin's mass through Add. Negative counts are a programming error and
// panic, as are counts whose total exceeds an int64.
func MomentsFromHistogram[C constraints.Integer](counts []C, offset int, scale float64) Moments {
	var n int64
	var sum float64 // sum of count*(i+offset), exact while below 2^53
	for i, c := range counts {
		if c < 0 {
			panic(fmt.Sprintf("stats: MomentsFromHistogram: counts[%d] = %d is negative", i, c))
		}
		if uint64(c) > math.MaxInt64-uint64(n) {
			panic(fmt.Sprintf("stats: MomentsFromHistogram: the counts exceed %d", int64(math.MaxInt64)))
		}
		n += int64(c)
		sum += float64(c) * float64(i+offset)
	}
	if n == 0 {
		return Moments{}
	}
	mean := sum / float64(n) // mean of the unscaled values i+offset
	var m2 float64
	for i, c := range counts {
		if c == 0 {
			continue
		}
		d := float64(i+offset) - mean
		m2 += float64(c) * d * d
	}
	return Moments{N: n, Mean: mean * scale, M2: m2 * scale * scale}
}

// Z returns the two-sided standard normal critical value for the confidence level (a probability,
// e.g. 0.95 for 95%): the z with P(-z < Z < z) = level, from gonum's distuv.UnitNormal.Quantile.
// Z(0.95) is about 1.959964. It panics unless 0 < level < 1.
func Z(level float64) float64 {
	if !(level > 0 && level < 1) {
		panic(fmt.Sprintf("stats: confidence level %v is not in (0, 1)", level))
	}
	return distuv.UnitNormal.Quantile((1 + level) / 2)
}

// NormalCI returns the two-sided normal-approximation confidence interval of the mean,
// Mean ± Z(level)·StdErr, in the units of the observations. With fewer than two observations there
// is no estimate of the spread and it returns the degenerate interval [Mean, Mean] (so [0, 0] when
// N is 0); the result is never NaN for finite inputs. It panics unless 0 < level < 1.
func NormalCI(m Moments, level float64) (lo, hi float64) {
	z := Z(level)
	if m.N < 2 {
		return m.Mean, m.Mean
	}
	h := z * m.StdErr()
	return m.Mean - h, m.Mean + h
}

// MomentsFromSums returns the moments of n integer observations given their sum and the sum of
// their squares, as integer accumulators keep them. The centred second moment is computed exactly,
// as (n·Σx² − (Σx)²)/n in big integers, so it does not lose precision to cancellation.
func MomentsFromSums(n, sum, sumSq int64) Moments {
	if n <= 0 {
		return Moments{}
	}
	a := new(big.Int).Mul(big.NewInt(n), big.NewInt(sumSq))
	a.Sub(a, new(big.Int).Mul(big.NewInt(sum), big.NewInt(sum)))
	m2, _ := new(big.Rat).SetFrac(a, big.NewInt(n)).Float64()
	return Moments{N: n, Mean: float64(sum) / float64(n), M2: m2}
}
