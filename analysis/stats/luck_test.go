package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// sumsOf returns the exact sums of integer scores xs and lucks ls.
func sumsOf(xs, ls []int64, xUnit, lUnit float64) LuckSums {
	s := LuckSums{N: int64(len(xs)), X: new(big.Int), XX: new(big.Int), L: new(big.Int), LL: new(big.Int), XL: new(big.Int),
		XUnit: xUnit, LUnit: lUnit}
	for i := range xs {
		x, l := big.NewInt(xs[i]), big.NewInt(ls[i])
		s.X.Add(s.X, x)
		s.XX.Add(s.XX, new(big.Int).Mul(x, x))
		s.L.Add(s.L, l)
		s.LL.Add(s.LL, new(big.Int).Mul(l, l))
		s.XL.Add(s.XL, new(big.Int).Mul(x, l))
	}
	return s
}

// TestFitLuckAgainstRegression compares FitLuck with gonum's least-squares regression of the
// scores on the luck, on random data: the coefficient is the slope, the adjusted mean the mean
// score minus the slope times the mean luck, and the adjusted variance the residual variance
// (residual sum of squares over N-1).
func TestFitLuckAgainstRegression(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial, beta := range []float64{0, 0.3, 1, -2} {
		n := 500 + 100*trial
		xs, ls := make([]int64, n), make([]int64, n)
		xf, lf := make([]float64, n), make([]float64, n)
		const xUnit, lUnit = 0.5, 1.0 / 1024
		for i := range n {
			l := r.NormFloat64() * 3
			ls[i] = int64(math.Round(l / lUnit))
			xs[i] = int64(math.Round((10 + beta*float64(ls[i])*lUnit + r.NormFloat64()) / xUnit))
			xf[i], lf[i] = float64(xs[i])*xUnit, float64(ls[i])*lUnit
		}
		fit := FitLuck(sumsOf(xs, ls, xUnit, lUnit))
		alpha, slope := stat.LinearRegression(lf, xf, nil, false)
		var rss, sll float64
		meanX, meanL := stat.Mean(xf, nil), stat.Mean(lf, nil)
		for i := range n {
			e := xf[i] - alpha - slope*lf[i]
			rss += e * e
			sll += (lf[i] - meanL) * (lf[i] - meanL)
		}
		sigma2 := rss / float64(n-2)
		// The standard error of the intercept of the regression, the estimate at zero luck.
		seAlpha := math.Sqrt(sigma2 * (1/float64(n) + meanL*meanL/sll))
		checks := []struct {
			what      string
			got, want float64
		}{
			{"coefficient", fit.Coefficient, slope},
			{"adjusted mean", fit.Adjusted.Mean, alpha},
			{"residual variance", fit.Residual, sigma2},
			{"standard error", fit.Adjusted.StdErr(), seAlpha},
			{"raw mean", fit.Raw.Mean, meanX},
			{"raw variance", fit.Raw.Variance(), stat.Variance(xf, nil)},
		}
		for _, c := range checks {
			if math.Abs(c.got-c.want) > 1e-9*(1+math.Abs(c.want)) {
				t.Errorf("trial %d: %s %.12g, regression %.12g", trial, c.what, c.got, c.want)
			}
		}
		if vr := fit.VarianceRatio(); vr < 1-2/float64(n) { // the residual counts one parameter more
			t.Errorf("trial %d: variance ratio %g below 1", trial, vr)
		}
	}
}

// TestFitLuckEdges: constant luck leaves the raw estimate; a score that is the luck plus a
// constant has no variance left (an infinite ratio), but its interval rests on the floor,
// UnseenRate/N of the raw variance; one game gives its score.
func TestFitLuckEdges(t *testing.T) {
	raw := FitLuck(sumsOf([]int64{1, 2, 3, 6}, []int64{5, 5, 5, 5}, 1, 1))
	if raw.Coefficient != 0 || raw.Adjusted != raw.Raw || raw.VarianceRatio() != 1 {
		t.Errorf("constant luck: %+v", raw)
	}
	exact := FitLuck(sumsOf([]int64{7, 9, 4, 12}, []int64{3, 5, 0, 8}, 1, 1))
	if exact.Coefficient != 1 || exact.Adjusted.Mean != 4 || exact.Residual != 0 || !math.IsInf(exact.VarianceRatio(), 1) {
		t.Errorf("score = luck + 4: %+v, ratio %g", exact, exact.VarianceRatio())
	}
	// The floor: 3/4 of the raw variance 34/3, as the M2 of the intercept's moments, (N-1)·σ²
	// times 1 + L²/Sll = 1 + 16²/(4·98 - 16²).
	if want := 3 * (34.0 / 3 * 3 / 4) * (1 + 256.0/136); math.Abs(exact.Adjusted.M2-want) > 1e-12*want {
		t.Errorf("score = luck + 4: adjusted M2 %g, want the floor's %g", exact.Adjusted.M2, want)
	}
	one := FitLuck(sumsOf([]int64{3}, []int64{2}, 0.5, 1))
	if one.Adjusted.Mean != 1.5 || one.Adjusted.N != 1 {
		t.Errorf("one game: %+v", one)
	}
}

// TestFitLuckSwingFloor: adjusted scores that never vary (no luck, or a score that is the luck
// plus a constant) rest on UnseenRate/N of the squared swing when it exceeds the raw variance: a
// choice that moves a game's adjusted score by the swing may have a rate of 3/N unseen.
func TestFitLuckSwingFloor(t *testing.T) {
	const n, swing = 100, 0.5
	xs, ls := make([]int64, n), make([]int64, n)
	for i := range n {
		xs[i], ls[i] = 2, 7
	}
	s := sumsOf(xs, ls, 1, 1)
	if fit := FitLuck(s); fit.Adjusted.StdErr() != 0 {
		t.Errorf("constant scores without a swing: standard error %g, want 0", fit.Adjusted.StdErr())
	}
	s.Swing = swing
	fit := FitLuck(s)
	// The mean of N scores of variance 3/N·swing² has the standard error swing·√3/N.
	if want := swing * math.Sqrt(3) / n; math.Abs(fit.Adjusted.StdErr()-want) > 1e-12 {
		t.Errorf("constant scores, swing %g: standard error %g, want %g", swing, fit.Adjusted.StdErr(), want)
	}
	if fit.Adjusted.Mean != 2 || fit.Residual != 0 {
		t.Errorf("constant scores, swing %g: %+v", swing, fit)
	}
	// A score that is the luck plus 4 has no residual; its floor is 3/N of the larger of the raw
	// variance (34/3) and the squared swing (36), times the intercept's 1 + L²/Sll = 1 + 256/136.
	e := sumsOf([]int64{7, 9, 4, 12}, []int64{3, 5, 0, 8}, 1, 1)
	e.Swing = 6
	got := FitLuck(e)
	if want := 3 * (36 * 3.0 / 4) * (1 + 256.0/136); math.Abs(got.Adjusted.M2-want) > 1e-12*want {
		t.Errorf("score = luck + 4, swing 6: adjusted M2 %g, want %g", got.Adjusted.M2, want)
	}
}

// TestFitLuckFloor: many games whose adjusted scores vary far less than UnseenRate/N of the raw
// ones get the floor's standard error; with the reduction well within N/3 the fit's own.
func TestFitLuckFloor(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tt := range []struct {
		noise float64 // the adjusted score's standard deviation, against the luck's 3
		floor bool
	}{{0.001, true}, {1, false}} {
		n := 1000
		xs, ls := make([]int64, n), make([]int64, n)
		for i := range n {
			ls[i] = int64(math.Round(r.NormFloat64() * 3 * 1024))
			xs[i] = int64(math.Round((10 + float64(ls[i])/1024 + tt.noise*r.NormFloat64()) * 1024))
		}
		fit := FitLuck(sumsOf(xs, ls, 1.0/1024, 1.0/1024))
		floorVar := fit.Raw.Variance() * UnseenRate / float64(n)
		if got := fit.Residual < floorVar; got != tt.floor {
			t.Fatalf("noise %g: residual %g, floor %g", tt.noise, fit.Residual, floorVar)
		}
		inflate := fit.Adjusted.M2 / (float64(n-1) * max(fit.Residual, floorVar))
		if inflate < 1 || inflate > 1.1 {
			t.Errorf("noise %g: adjusted M2 %g is not (N-1)·max(residual %g, floor %g) times the intercept's inflation (%g)", tt.noise, fit.Adjusted.M2, fit.Residual, floorVar, inflate)
		}
	}
}
