package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// LRResult is the outcome of MeanLRTest: the signed root R of the likelihood-ratio statistic
// (sign(mean - want)·√(−2 log Λ), standard normal under the null for large samples) and the
// two-sided p-value P(χ²₁ ≥ R²).
type LRResult struct {
	R, P float64
}

// MeanLRTest is the nonparametric likelihood-ratio test that a distribution on the interval
// [lo, hi] has the mean want, given the counts of the sample's values (counts[k] observations of
// values[k]): the empirical likelihood ratio of Owen (1988; Empirical Likelihood, 2001, §2.3),
// maximised over every distribution on [lo, hi], not only over the values observed.
//
// With d = value - want, the profile log-likelihood ratio is −log Λ = max over λ of
// Σ counts·log(1 + λ·d), λ ranging over [−1/(hi − want), 1/(want − lo)], where every 1 + λ·(x −
// want) with x in [lo, hi] stays non-negative (a concave function of λ, maximised by bisection of
// its derivative). Where the maximum is at an end of that range, the distribution of the null
// puts the mass the sample lacks at lo or hi: a sample without spread then rejects only as far
// as the interval allows, where a t statistic, whose variance comes from the sample alone, would
// be infinite. Unlike a t or z statistic, whose variance is estimated from the same sample as the
// mean (and correlated with it in a skewed sample), the ratio's tails follow the sample's
// likelihood, as a binomial or G test's do.
//
// A want outside [lo, hi], or at one end with an observation elsewhere, rejects at once
// (R = ±Inf, P = 0). An empty sample passes (R 0, P 1). values and counts have the same length;
// values lie in [lo, hi].
func MeanLRTest(values, counts []float64, lo, hi, want float64) LRResult {
	tol := 1e-9 * math.Max(1, math.Max(math.Abs(lo), math.Abs(hi)))
	var n, sum float64
	for k, c := range counts {
		n += c
		sum += c * values[k]
	}
	if n == 0 {
		return LRResult{P: 1}
	}
	mean := sum / n
	reject := LRResult{R: math.Copysign(math.Inf(1), mean-want)}
	switch {
	case want < lo-tol || want > hi+tol:
		return reject
	case want <= lo+tol || want >= hi-tol:
		// Under the null every observation is want.
		for k, c := range counts {
			if c > 0 && math.Abs(values[k]-want) > tol {
				return reject
			}
		}
		return LRResult{P: 1}
	}
	// logLik is Σ counts·log(1 + λ·d) and slope its derivative in λ (decreasing).
	logLik := func(l float64) float64 {
		var s float64
		for k, c := range counts {
			if c > 0 {
				s += c * math.Log1p(l*(values[k]-want))
			}
		}
		return s
	}
	slope := func(l float64) float64 {
		var s float64
		for k, c := range counts {
			if c > 0 {
				d := values[k] - want
				s += c * d / (1 + l*d)
			}
		}
		return s
	}
	// The maximum lies on the side of 0 that the sample mean points to.
	var a, b float64 // a: where the slope is of the mean's sign; b: the end of the range
	switch {
	case mean > want:
		b = 1 / (want - lo)
	case mean < want:
		b = -1 / (hi - want)
	default:
		return LRResult{P: 1}
	}
	var l float64
	if end := logLik(b); !math.IsInf(end, -1) && !math.IsNaN(end) && slope(b)*b >= 0 {
		l = b // the slope keeps the mean's sign up to the end of the range
	} else {
		for range 200 {
			m := a + (b-a)/2
			if m == a || m == b {
				break
			}
			if s := slope(m); s*b > 0 {
				a = m
			} else {
				b = m
			}
		}
		l = a
	}
	g := 2 * math.Max(0, logLik(l))
	r := math.Copysign(math.Sqrt(g), mean-want)
	return LRResult{R: r, P: 2 * distuv.UnitNormal.Survival(math.Abs(r))}
}

// BinomialTest is the exact two-sided test that k successes in n trials come from a binomial
// distribution with success probability prob: p = min(1, 2·min(P(X ≤ k), P(X ≥ k))), the tails
// from the regularised incomplete beta function (gonum's mathext.RegIncBeta), exact where a z
// test's normal approximation is not (a rate of a few per cent over a hundred trials). z is the
// standardised difference (k/n − prob)/√(prob·(1 − prob)/n), reported as the statistic (±Inf
// when prob is 0 or 1 and k is not what it forces, 0 when it is). It needs n > 0, 0 ≤ k ≤ n and
// 0 ≤ prob ≤ 1.
func BinomialTest(k, n int64, prob float64) (z, p float64) {
	rate := float64(k) / float64(n)
	if prob <= 0 || prob >= 1 {
		if (prob <= 0 && k == 0) || (prob >= 1 && k == n) {
			return 0, 1
		}
		return math.Copysign(math.Inf(1), rate-prob), 0
	}
	z = (rate - prob) / math.Sqrt(prob*(1-prob)/float64(n))
	// P(X ≤ k) = I_{1-prob}(n - k, k + 1) and P(X ≥ k) = I_prob(k, n - k + 1), each 1 at the end.
	lower, upper := 1.0, 1.0
	if k < n {
		lower = mathext.RegIncBeta(float64(n-k), float64(k+1), 1-prob)
	}
	if k > 0 {
		upper = mathext.RegIncBeta(float64(k), float64(n-k+1), prob)
	}
	return z, math.Min(1, 2*math.Min(lower, upper))
}
