package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestWelchPublished(t *testing.T) {
	seq := func(lo, hi int) []float64 {
		var xs []float64
		for i := lo; i <= hi; i++ {
			xs = append(xs, float64(i))
		}
		return xs
	}
	cases := []struct {
		name       string
		a, b       Moments
		t, df, p   float64
		tolT, tolP float64
	}{
		// R's datasets::sleep; R documents t.test(extra ~ group, data = sleep) (Welch) as
		// t = -1.8608, df = 17.776, p-value = 0.07939.
		{
			"sleep",
			momentsOf(0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0),
			momentsOf(1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4),
			-1.8608, 17.776, 0.07939, 5e-5, 5e-6,
		},
		// The example in R's ?t.test: t.test(1:10, y = c(7:20, 200)) gives
		// t = -1.6329, df = 14.165, p-value = 0.1245.
		{
			"R t.test example",
			momentsOf(seq(1, 10)...),
			momentsOf(append(seq(7, 20), 200)...),
			-1.6329, 14.165, 0.1245, 5e-5, 5e-5,
		},
	}
	for _, c := range cases {
		r := Welch(c.a, c.b)
		if !near(r.Diff, c.a.Mean-c.b.Mean, 1e-15) || math.Abs(r.T-c.t) > c.tolT ||
			math.Abs(r.DF-c.df) > 5e-4 || math.Abs(r.P-c.p) > c.tolP {
			t.Errorf("%s: Welch = %+v, want T %v, DF %v, P %v", c.name, r, c.t, c.df, c.p)
		}
	}
}

func TestWelchClosedForms(t *testing.T) {
	// With two observations each and equal variances, DF = 1/((1/2)²+(1/2)²) = 2, and Student's t
	// with 2 degrees of freedom has the two-sided tail P(|T| ≥ t) = 1 - t/sqrt(2+t²).
	// With one sample constant, DF = (N-1) of the other; for N = 2 that is 1, the Cauchy
	// distribution, with P(|T| ≥ t) = 1 - (2/π)·atan(t).
	cases := []struct {
		name string
		a, b Moments
		df   float64
		p    func(t float64) float64
	}{
		{"df 2", momentsOf(1, 3), momentsOf(5, 7), 2, func(t float64) float64 { return 1 - t/math.Sqrt(2+t*t) }},
		{"df 2 small t", momentsOf(0, 10), momentsOf(1, 11), 2, func(t float64) float64 { return 1 - t/math.Sqrt(2+t*t) }},
		{"df 1", momentsOf(4, 4, 4), momentsOf(0, 3), 1, func(t float64) float64 { return 1 - 2/math.Pi*math.Atan(t) }},
		{"df 1 reversed", momentsOf(0, 3), momentsOf(4, 4, 4, 4, 4), 1, func(t float64) float64 { return 1 - 2/math.Pi*math.Atan(t) }},
	}
	for _, c := range cases {
		r := Welch(c.a, c.b)
		se := math.Sqrt(c.a.Variance()/float64(c.a.N) + c.b.Variance()/float64(c.b.N))
		wantT := (c.a.Mean - c.b.Mean) / se
		if !near(r.T, wantT, 1e-14) || !near(r.DF, c.df, 1e-14) || math.Abs(r.P-c.p(math.Abs(wantT))) > 1e-12 {
			t.Errorf("%s: Welch = %+v, want T %v, DF %v, P %v", c.name, r, wantT, c.df, c.p(math.Abs(wantT)))
		}
	}
}

func TestWelchDegenerate(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name string
		a, b Moments
		want WelchResult
	}{
		{"both empty", Moments{}, Moments{}, WelchResult{P: 1}},
		{"one observation", momentsOf(3), momentsOf(1, 2), WelchResult{Diff: 1.5, P: 1}},
		{"constants, equal", momentsOf(2, 2), momentsOf(2, 2, 2), WelchResult{DF: 3, P: 1}},
		{"constants, a larger", momentsOf(3, 3, 3), momentsOf(2, 2), WelchResult{Diff: 1, T: inf, DF: 3, P: 0}},
		{"constants, a smaller", momentsOf(1, 1), momentsOf(2, 2), WelchResult{Diff: -1, T: -inf, DF: 2, P: 0}},
	}
	for _, c := range cases {
		if got := Welch(c.a, c.b); got != c.want {
			t.Errorf("%s: Welch = %+v, want %+v", c.name, got, c.want)
		}
	}
	// Tiny and huge variances, whose squares under- or overflow: DF is computed as a ratio.
	for _, s := range []float64{1e-150, 1e-100, 1, 1e100, 1e150} {
		a := Moments{N: 10, Mean: s, M2: 9 * s * s}
		b := Moments{N: 20, Mean: 0, M2: 19 * 4 * s * s}
		r := Welch(a, b)
		// va = s²/10, vb = 4s²/20 = s²/5: shares 1/3 and 2/3, DF = 1/((1/9)/9 + (4/9)/19).
		wantDF := 1 / (1.0/81 + 4.0/171)
		if !near(r.DF, wantDF, 1e-12) || math.IsNaN(r.P) || !near(r.T, 1/math.Sqrt(0.3), 1e-12) {
			t.Errorf("scale %v: Welch = %+v, want DF %v, T %v", s, r, wantDF, 1/math.Sqrt(0.3))
		}
	}
}

func TestWelchSymmetryAndSize(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	// Under H0 with unequal variances and sizes, P < 0.05 in about 5% of trials (Welch's test is
	// nearly exact for normal data); the band is ±4 binomial standard deviations.
	const trials = 4000
	var rejects int
	for trial := 0; trial < trials; trial++ {
		var a, b Moments
		for i := 0; i < 8; i++ {
			a.Add(10 + r.NormFloat64())
		}
		for i := 0; i < 25; i++ {
			b.Add(10 + 3*r.NormFloat64())
		}
		ab, ba := Welch(a, b), Welch(b, a)
		if ab.Diff != -ba.Diff || ab.T != -ba.T || ab.DF != ba.DF || ab.P != ba.P {
			t.Fatalf("Welch(a, b) = %+v but Welch(b, a) = %+v", ab, ba)
		}
		if ab.DF < 7 || ab.DF > 31 {
			t.Fatalf("DF = %v outside [min(N)-1, N(a)+N(b)-2] = [7, 31]", ab.DF)
		}
		if ab.P < 0.05 {
			rejects++
		}
	}
	rate := float64(rejects) / trials
	if band := 4 * math.Sqrt(0.05*0.95/trials); math.Abs(rate-0.05) > band {
		t.Errorf("rejection rate under H0 = %v, want 0.05 ± %.3f", rate, band)
	}
}

func TestVarianceReduction(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name       string
		x, y, diff Moments
		want       float64
	}{
		{"pairing removes all noise", momentsOf(1, 2, 3), momentsOf(0, 1, 2), momentsOf(1, 1, 1), inf},
		{"no variance at all", momentsOf(1, 1), momentsOf(0, 0), momentsOf(1, 1), 1},
		{"too few deals", momentsOf(1), momentsOf(2), momentsOf(-1), 1},
		{"empty", Moments{}, Moments{}, Moments{}, 1},
		// x = (1,2,3,4), y = (4,3,2,1): Var 5/3 each, x-y = (-3,-1,1,3), Var 20/3: ratio 1/2.
		{"anticorrelated", momentsOf(1, 2, 3, 4), momentsOf(4, 3, 2, 1), momentsOf(-3, -1, 1, 3), 0.5},
	}
	for _, c := range cases {
		if got := VarianceReduction(c.x, c.y, c.diff); !near(got, c.want, 1e-14) {
			t.Errorf("%s: VarianceReduction = %v, want %v", c.name, got, c.want)
		}
	}

	// Simulation: x = s + e1, y = s + e2 with Var(s) = 3 and Var(e) = 1, so
	// (Var x + Var y)/Var(x-y) = (4+4)/2 = 4 in expectation; the brute-force ratio of the sample
	// variances must match exactly, and the estimate 4 within sampling error.
	r := rand.New(rand.NewPCG(7, 8))
	const n = 20000
	xs, ys, ds := make([]float64, n), make([]float64, n), make([]float64, n)
	var x, y, d Moments
	for i := range n {
		s := math.Sqrt(3) * r.NormFloat64()
		xs[i], ys[i] = s+r.NormFloat64(), s+r.NormFloat64()
		ds[i] = xs[i] - ys[i]
		x.Add(xs[i])
		y.Add(ys[i])
		d.Add(ds[i])
	}
	got := VarianceReduction(x, y, d)
	dx, dy, dd := direct(xs), direct(ys), direct(ds)
	if brute := (dx.M2 + dy.M2) / dd.M2; !near(got, brute, 1e-10) {
		t.Errorf("VarianceReduction = %v, brute force %v", got, brute)
	}
	if math.Abs(got-4) > 0.15 {
		t.Errorf("VarianceReduction = %v, want ≈ 4", got)
	}
}
