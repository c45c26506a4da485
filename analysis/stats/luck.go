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
}

// LuckFit is a luck-adjusted estimate: the mean of x - Coefficient·l, with the coefficient that
// minimises its variance (the least-squares regression of x on l, a control variate). The luck
// has mean zero, so the estimate has the mean of x; its variance is x's times 1 - ρ², ρ being the
// correlation of x and l, never more than x's.
type LuckFit struct {
	// Raw is the moments of x alone; Adjusted those of the adjusted score, whose Variance is the
	// residual variance of the regression (in the units of x, pairs).
	Raw, Adjusted Moments
	// Coefficient is the multiple of the luck subtracted (0 when the luck never varied).
	Coefficient float64
}

// FitLuck fits the luck adjustment to the sums s. With fewer than two games it returns the raw
// mean for both.
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
	if sll.Sign() <= 0 {
		fit.Adjusted = fit.Raw
		return fit
	}
	// Coefficient = Sxl/Sll (units of x per unit of l); residual M2 = (Sxx·Sll - Sxl²)/(Sll·N).
	fit.Coefficient = ratio(sxl, sll) * s.XUnit / s.LUnit
	res := new(big.Int).Mul(sxx, sll)
	res.Sub(res, new(big.Int).Mul(sxl, sxl))
	if res.Sign() < 0 {
		res.SetInt64(0) // not reached: Cauchy-Schwarz
	}
	m2 := ratio(res, new(big.Int).Mul(sll, nb)) * s.XUnit * s.XUnit
	fit.Adjusted = Moments{N: n, Mean: meanX - fit.Coefficient*meanL, M2: m2}
	return fit
}

// VarianceRatio returns the raw variance over the adjusted one, or +Inf when the adjusted
// estimate has no variance (and the raw one has).
func (f LuckFit) VarianceRatio() float64 {
	if f.Adjusted.M2 == 0 {
		if f.Raw.M2 == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return f.Raw.M2 / f.Adjusted.M2
}

// ratio returns a/b as a float64, correctly rounded.
func ratio(a, b *big.Int) float64 {
	f, _ := new(big.Rat).SetFrac(a, b).Float64()
	return f
}
