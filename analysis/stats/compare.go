package stats

import "math"

// WelchResult is the outcome of Welch's two-sample t test; see Welch.
type WelchResult struct {
	// Diff is the estimated difference of means, mean(a) - mean(b), in the units of the observations.
	Diff float64
	// T is the t statistic, Diff divided by its estimated standard error
	// sqrt(Var(a)/N(a) + Var(b)/N(b)); ±Inf when that standard error is 0 and Diff is not.
	T float64
	// DF is the Welch–Satterthwaite approximation to the degrees of freedom of T; it lies between
	// min(N(a), N(b)) - 1 and N(a) + N(b) - 2, and is generally not an integer.
	DF float64
	// P is the two-sided p-value, P(|T'| ≥ |T|) for T' Student-t distributed with DF degrees of
	// freedom, in [0, 1].
	P float64
}

// Welch performs Welch's unequal-variance t test of the null hypothesis that the means of the
// populations sampled by a and b are equal, against the two-sided alternative. It assumes
// independent samples that are normal, or large enough for the central limit theorem, but not equal
// variances; it is the default two-sample test of R's t.test. The degrees of freedom are
//
//	DF = (va + vb)² / (va²/(N(a)-1) + vb²/(N(b)-1)),  va = Var(a)/N(a), vb = Var(b)/N(b),
//
// computed as a ratio so that it neither overflows nor underflows.
//
// Degenerate inputs never produce NaN:
//   - if either sample has fewer than two observations there is no estimate of its spread and the
//     test cannot be made; Welch returns the no-evidence result {Diff, T: 0, DF: 0, P: 1}, Diff
//     still being mean(a) - mean(b) (an empty sample's Mean is 0);
//   - if both samples have zero variance (every observation equal within each sample), the
//     standard error is 0: equal means give T = 0, P = 1, and different means T = ±Inf, P = 0,
//     with DF = N(a) + N(b) - 2;
//   - if only one sample has zero variance, the formulas apply unchanged (DF is then the other
//     sample's N - 1).
func Welch(a, b Moments) WelchResult {
	r := WelchResult{Diff: a.Mean - b.Mean}
	if a.N < 2 || b.N < 2 {
		r.P = 1
		return r
	}
	na, nb := float64(a.N), float64(b.N)
	va, vb := a.Variance()/na, b.Variance()/nb
	se2 := va + vb
	if se2 == 0 {
		r.DF = na + nb - 2
		if r.Diff == 0 {
			r.P = 1
		} else {
			r.T = math.Copysign(math.Inf(1), r.Diff)
		}
		return r
	}
	ra, rb := va/se2, vb/se2 // shares of the squared standard error, summing to 1
	r.DF = 1 / (ra*ra/(na-1) + rb*rb/(nb-1))
	r.T = r.Diff / math.Sqrt(se2)
	r.P = math.Min(1, 2*tSurvival(r.DF, math.Abs(r.T)))
	return r
}

// VarianceReduction measures how much a paired (duplicate) design reduces the variance of an
// estimated mean difference. Each deal is played twice, once in each seat order; x accumulates the
// per-game score of the first order, y that of the second, and diff the per-deal difference x - y
// (all three over the same deals). It returns
//
//	(Var(x) + Var(y)) / Var(diff),
//
// the ratio of the variances of the two estimators of the mean score difference between the seat
// orders that use the same number of games, 2n: the unpaired one, mean(x) - mean(y) with each order
// played on its own n deals (variance (Var(x) + Var(y))/n), and the paired one, the mean per-deal
// difference over n deals each played twice (variance Var(diff)/n). Since
// Var(x-y) = Var(x) + Var(y) - 2·Cov(x, y), a value above 1 means the two games of a deal are
// positively correlated and pairing helps: the unpaired design needs that many times as many games
// for the same precision. A value below 1 means pairing hurts. With equal variances it is 1/(1-ρ),
// ρ the correlation of x and y.
//
// It returns +Inf when Var(diff) is 0 and the numerator is positive (pairing removes all noise), and
// 1 when both are 0 or when any accumulator has fewer than two observations (no evidence either
// way). Sample variances (Moments.Variance) are used throughout, so the result is an estimate.
func VarianceReduction(x, y, diff Moments) float64 {
	if x.N < 2 || y.N < 2 || diff.N < 2 {
		return 1
	}
	num, den := x.Variance()+y.Variance(), diff.Variance()
	switch {
	case den > 0:
		return num / den
	case num > 0:
		return math.Inf(1)
	default:
		return 1
	}
}
