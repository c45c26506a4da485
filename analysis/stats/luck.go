package stats

import (
	"math"
	"math/big"
)

// LuckSums are the sums, over N games, of a score x and of its luck l (docs/models.md §5.6), as
// exact integers in units XUnit and LUnit: X = Σx, XX = Σx², L = Σl, LL = Σl², XL = Σxl.
type LuckSums struct {
	N                int64
	X, XX, L, LL, XL *big.Int
	XUnit, LUnit     float64
	// Swing, when not zero, is the most that one choice the players make can move one game's
	// adjusted score (the largest magnitude of its advantage, docs/models.md §5.6), in the units of
	// x times XUnit: it raises the floor of the variance FitLuck describes.
	Swing float64
}

// LuckFit is a luck-adjusted estimate: the mean of x - Coefficient·l, with the coefficient that
// minimises its variance (the least-squares regression of x on l, a control variate). The luck
// has mean zero, so the estimate has the mean of x; its variance is x's times 1 - ρ², ρ being the
// correlation of x and l, never more than x's.
type LuckFit struct {
	// Raw is the moments of x alone. Adjusted is the adjusted estimate as moments: its Mean the
	// adjusted mean and its StdErr the standard error of that mean, which counts the error of
	// the fitted coefficient (the intercept's of the regression, σ²·(1/N + l̄²/Sll)), with σ² at
	// least the floor FitLuck describes, so that StudentCI, HalfWidth and the sequential tests
	// apply to it as to a plain mean.
	Raw, Adjusted Moments
	// Residual is the variance of one game's adjusted score: the residual variance of the
	// regression, RSS/(N-2), in the units of x squared.
	Residual float64
	// Coefficient is the multiple of the luck subtracted (0 when the luck never varied).
	Coefficient float64
}

// UnseenRate is the rate, times the number of games N, up to which an event that none of N games
// showed may still occur: 3/N, the "rule of three" (the one-sided 95% upper bound of a rate never
// observed in N trials, 1 - 0.05^(1/N), is about 3/N).
const UnseenRate = 3

// FitLuck fits the luck adjustment to the sums s. With fewer than two games it returns the raw
// mean for both.
//
// The variance that Adjusted's standard error rests on is never taken below min(1, UnseenRate/N)
// times the larger of the raw variance and Swing²: the variance reduction an interval relies on is
// at most N/3 (33 at 100 games, 333 at 1,000), however much the sample shows. Few games can miss
// every rare event that the luck does not explain (a player's rare departures from the reference
// play, say, or a rare choice whose advantage carries the whole difference between the mean and
// the reference value), and their adjusted scores then vary little or not at all although their
// mean still differs from the reference's; an event seen in none of N games may still have a rate
// of about 3/N, and one that moves an adjusted score by as much as a raw score's standard
// deviation, or by a choice's advantage, adds up to that much variance. Residual and
// VarianceRatio report the fit as observed.
func FitLuck(s LuckSums) LuckFit {
	n := s.N
	var fit LuckFit
	if n < 1 {
		return fit
	}
	nb := big.NewInt(n)
	meanX := ratio(s.X, nb) * s.XUnit
	meanL := ratio(s.L, nb) * s.LUnit
	fit.Raw = Moments{N: n, Mean: meanX}
	if n < 2 {
		fit.Adjusted = fit.Raw
		return fit
	}
	// Centred sums times N, exactly: Sxx = N·XX - X², Sll = N·LL - L², Sxl = N·XL - X·L.
	centred := func(aa, a, b *big.Int) *big.Int {
		c := new(big.Int).Mul(nb, aa)
		return c.Sub(c, new(big.Int).Mul(a, b))
	}
	sxx := centred(s.XX, s.X, s.X)
	sll := centred(s.LL, s.L, s.L)
	sxl := centred(s.XL, s.X, s.L)
	// M2 = S/N in the units of x.
	fit.Raw.M2 = ratio(sxx, nb) * s.XUnit * s.XUnit
	floor := max(fit.Raw.Variance(), s.Swing*s.Swing) * min(1, UnseenRate/float64(n))
	if sll.Sign() <= 0 {
		fit.Adjusted, fit.Residual = fit.Raw, fit.Raw.Variance()
		if floor > fit.Residual {
			fit.Adjusted.M2 = float64(n-1) * floor
		}
		return fit
	}
	// Coefficient = Sxl/Sll (units of x per unit of l); residual M2 = (Sxx·Sll - Sxl²)/(Sll·N).
	fit.Coefficient = ratio(sxl, sll) * s.XUnit / s.LUnit
	res := new(big.Int).Mul(sxx, sll)
	res.Sub(res, new(big.Int).Mul(sxl, sxl))
	if res.Sign() < 0 {
		res.SetInt64(0) // not reached: Cauchy-Schwarz
	}
	rss := ratio(res, new(big.Int).Mul(sll, nb)) * s.XUnit * s.XUnit
	if n > 2 {
		fit.Residual = rss / float64(n-2)
	}
	// The intercept's variance, σ²·(1/N + l̄²/Sll) with Sll = Σ(l - l̄)² = sll/N, as the M2 of
	// moments whose StdErr gives it: M2 = (N-1)·σ²·(1 + N·l̄²/Sll) = (N-1)·σ²·(1 + L²/sll).
	inflate := 1 + ratio(new(big.Int).Mul(s.L, s.L), sll)
	sigma2 := max(fit.Residual, floor)
	fit.Adjusted = Moments{N: n, Mean: meanX - fit.Coefficient*meanL, M2: float64(n-1) * sigma2 * inflate}
	return fit
}

// VarianceRatio returns the raw variance of one game's score over the adjusted one's (the
// residual variance), or +Inf when the adjusted scores have no variance (and the raw ones have).
func (f LuckFit) VarianceRatio() float64 {
	if f.Residual == 0 {
		if f.Raw.M2 == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return f.Raw.Variance() / f.Residual
}

// ratio returns a/b as a float64, correctly rounded.
func ratio(a, b *big.Int) float64 {
	f, _ := new(big.Rat).SetFrac(a, b).Float64()
	return f
}
