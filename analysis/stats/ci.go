package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// largeDF is the number of degrees of freedom above which Student's t is replaced by its
// large-ν expansion around the normal (see tQuantile and tSurvival). gonum's incomplete-beta
// routines lose accuracy for ν of order 1e9 and beyond, whereas the expansion's error is
// O(1/ν²) there.
const largeDF = 1e7

// checkLevel panics unless 0 < level < 1, with the same message as Z.
func checkLevel(level float64) {
	if !(level > 0 && level < 1) {
		panic(fmt.Sprintf("stats: confidence level %v is not in (0, 1)", level))
	}
}

// tQuantile returns the two-sided critical value of Student's t with nu degrees of freedom for the
// confidence level: the t with P(-t < T < t) = level. For nu > largeDF it uses the first term of
// the Cornish–Fisher expansion, z + (z³+z)/(4ν) (Abramowitz & Stegun 26.7.5).
func tQuantile(nu, level float64) float64 {
	if nu > largeDF {
		z := Z(level)
		return z + (z*z*z+z)/(4*nu)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile((1 + level) / 2)
}

// tSurvival returns P(T > x) for Student's t with nu degrees of freedom; for nu > largeDF the
// standard normal's survival function, whose relative error there is below about 1e-6.
func tSurvival(nu, x float64) float64 {
	if nu > largeDF {
		return distuv.UnitNormal.Survival(x)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Survival(x)
}

// HalfWidth returns the half-width of the two-sided Student-t confidence interval of the mean,
// t_{level, N-1}·StdErr, in the units of the observations; see StudentCI. With fewer than two
// observations the spread is unknown and it returns +Inf (so a precision target is never met),
// unlike StudentCI, which returns the degenerate interval there. It panics unless 0 < level < 1.
func HalfWidth(m Moments, level float64) float64 {
	checkLevel(level)
	if m.N < 2 {
		return math.Inf(1)
	}
	return tQuantile(float64(m.N-1), level) * m.StdErr()
}

// StudentCI returns the two-sided confidence interval of the mean for normally distributed
// observations, Mean ± t·StdErr, where t is the (1+level)/2 quantile of Student's t with N-1
// degrees of freedom (gonum's distuv.StudentsT). It is wider than NormalCI, noticeably so below a
// few dozen observations, and tends to it as N grows. With fewer than two observations it returns
// the degenerate interval [Mean, Mean], like NormalCI. It panics unless 0 < level < 1.
func StudentCI(m Moments, level float64) (lo, hi float64) {
	checkLevel(level)
	if m.N < 2 {
		return m.Mean, m.Mean
	}
	h := HalfWidth(m, level)
	return m.Mean - h, m.Mean + h
}

// PrecisionReached reports whether every accumulator in ms has at least two observations and a
// Student-t half-width (HalfWidth) at the confidence level of at most target, in the units of the
// observations. It is meant as the stopping rule of a fixed-precision experiment: run batches until
// every quantity of interest is known to ±target. An empty ms reports false (nothing has been
// measured). It panics unless 0 < level < 1.
func PrecisionReached(ms []Moments, level, target float64) bool {
	checkLevel(level)
	if len(ms) == 0 {
		return false
	}
	for _, m := range ms {
		if m.N < 2 || !(HalfWidth(m, level) <= target) {
			return false
		}
	}
	return true
}

// Wilson returns the Wilson score confidence interval, at the confidence level, for a binomial
// proportion observed as k successes in n trials: the set of p for which the two-sided score test
// |k/n - p| ≤ z·sqrt(p(1-p)/n) does not reject, z = Z(level). Explicitly, with p̂ = k/n,
//
//	(p̂ + z²/(2n) ± z·sqrt(p̂(1-p̂)/n + z²/(4n²))) / (1 + z²/n).
//
// Unlike the Wald interval it stays within [0, 1] and is not degenerate at k = 0 or k = n; the
// lower bound is exactly 0 when k = 0 and the upper exactly 1 when k = n. With n == 0 it returns
// the uninformative [0, 1]. It panics unless 0 ≤ k ≤ n and 0 < level < 1. Brown, Cai and DasGupta
// (Statistical Science 16(2), 2001) recommend it over the Wald interval for all n.
func Wilson(k, n int64, level float64) (lo, hi float64) {
	z := Z(level)
	if n < 0 || k < 0 || k > n {
		panic(fmt.Sprintf("stats: Wilson: need 0 <= k <= n, got k=%d, n=%d", k, n))
	}
	if n == 0 {
		return 0, 1
	}
	fn := float64(n)
	p := float64(k) / fn
	z2n := z * z / fn
	den := 1 + z2n
	centre := (p + z2n/2) / den
	half := z / den * math.Sqrt(p*(1-p)/fn+z2n/(4*fn))
	lo, hi = centre-half, centre+half
	if k == 0 || lo < 0 {
		lo = 0
	}
	if k == n || hi > 1 {
		hi = 1
	}
	return lo, hi
}
