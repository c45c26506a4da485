package stats

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// ZTest is the two-sided z test of a sample mean against a value want, given the mean's
// standard error: z = (mean - want)/stdErr and p = P(|Z| >= |z|) for a standard normal Z. A
// sample without spread (stdErr 0) passes (z 0, p 1) only if its mean is want within a relative
// 1e-9; otherwise z is ±Inf and p is 0.
func ZTest(mean, stdErr, want float64) (z, p float64) {
	diff := mean - want
	switch {
	case stdErr > 0:
		z = diff / stdErr
		return z, 2 * distuv.UnitNormal.Survival(math.Abs(z))
	case math.Abs(diff) <= 1e-9*math.Max(1, math.Abs(want)):
		return 0, 1
	}
	return math.Copysign(math.Inf(1), diff), 0
}

// GResult is the outcome of a G test: the statistic (with Williams' correction), its degrees of
// freedom after pooling, and the p-value from the chi-squared distribution with DF degrees of
// freedom.
type GResult struct {
	G  float64
	DF int
	P  float64
}

// GTest is the likelihood-ratio (G) test of observed counts against the probabilities prob of the
// same outcomes. Adjacent outcomes are pooled, in order, until each pooled bin expects at least
// minExpected observations (the last bin takes what is left). With N observations, observed
// frequencies o and expected frequencies e of the pooled bins, G = 2·N·KL(o ‖ e), the
// Kullback-Leibler divergence of gonum's stat.KullbackLeibler, with bins - 1 degrees of freedom,
// divided by Williams' (1976) correction q = 1 + (bins + 1)/(6·N), which brings the mean of G
// to that of the chi-squared distribution to order 1/N: without it, G's tail is heavier than the
// distribution's with a hundred or so observations.
// An observation of an outcome whose probability is at most 1e-15 rejects at once (G = +Inf,
// P = 0). It returns false when fewer than two pooled bins remain: a distribution with a single
// outcome, which a test of the mean covers. observed and prob must have the same length.
func GTest(observed, prob []float64, minExpected float64) (GResult, bool) {
	var total float64
	for _, o := range observed {
		total += o
	}
	var obs, exp []float64
	var o, e float64
	for i, p := range prob {
		if p <= 1e-15 && observed[i] > 0 {
			return GResult{G: math.Inf(1), P: 0}, true
		}
		o += observed[i]
		e += p * total
		if e >= minExpected {
			obs, exp = append(obs, o), append(exp, e)
			o, e = 0, 0
		}
	}
	if len(obs) > 0 {
		obs[len(obs)-1] += o
		exp[len(exp)-1] += e
	}
	if len(obs) < 2 {
		return GResult{}, false
	}
	var expTotal float64
	for i := range obs {
		expTotal += exp[i]
		obs[i] /= total
	}
	for i := range exp {
		exp[i] /= expTotal
	}
	williams := 1 + float64(len(obs)+1)/(6*total)
	r := GResult{G: 2 * total * stat.KullbackLeibler(obs, exp) / williams, DF: len(obs) - 1}
	r.P = distuv.ChiSquared{K: float64(r.DF)}.Survival(r.G)
	return r, true
}

// Holm returns the Holm-adjusted p-values of a family of tests (Holm's step-down correction of
// the family-wise error rate): with the p-values sorted ascending, the k-th (from 0) is adjusted
// to max over i <= k of min(1, (m - i)·p_(i)). Rejecting the tests whose adjusted p-value is
// below a level keeps the chance of any false rejection below that level.
func Holm(p []float64) []float64 {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	adj := make([]float64, len(p))
	running := 0.0
	for rank, i := range idx {
		running = math.Max(running, math.Min(1, float64(len(p)-rank)*p[i]))
		adj[i] = running
	}
	return adj
}
