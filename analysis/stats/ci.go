package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// cornishFisherDF is the number of degrees of freedom above which tQuantile uses the large-ν
// expansion instead of gonum's incomplete-beta inversion, which loses accuracy as ν grows (about
// 1e-10 at ν = 1e6 and 1e-9 at 1e7); the two agree to about 1e-13 at ν = 1e4, and the expansion's
// error there is below 1e-15.
const cornishFisherDF = 1e4

// normalDF is the number of degrees of freedom above which tSurvival uses the standard normal; its
// relative error there is about (x³+x)/(4ν)·… < 1e-5 for |x| < 10.
const normalDF = 1e7

// checkLevel panics unless 0 < level < 1, with the same message as Z.
func checkLevel(level float64) {
	if !(level > 0 && level < 1) {
		panic(fmt.Sprintf("stats: confidence level %v is not in (0, 1)", level))
	}
}

// tQuantile returns the two-sided critical value of Student's t with nu degrees of freedom for the
// confidence level: the t with P(-t < T < t) = level, from gonum's distuv.StudentsT. For
// nu > cornishFisherDF it uses the Cornish–Fisher expansion of the t quantile in powers of 1/ν
// about the normal quantile z, to third order (Abramowitz & Stegun 26.7.5).
func tQuantile(nu, level float64) float64 {
	if nu > cornishFisherDF {
		x := Z(level)
		x2 := x * x
		g1 := (x2 + 1) * x / 4
		g2 := ((5*x2+16)*x2 + 3) * x / 96
		g3 := (((3*x2+19)*x2+17)*x2 - 15) * x / 384
		return x + (g1+(g2+g3/nu)/nu)/nu
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile((1 + level) / 2)
}

// tSurvival returns P(T > x) for Student's t with nu degrees of freedom, from gonum's
// distuv.StudentsT, or for nu > normalDF from the standard normal.
func tSurvival(nu, x float64) float64 {
	if nu > normalDF {
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
