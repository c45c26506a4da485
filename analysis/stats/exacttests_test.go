package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMeanLRTest(t *testing.T) {
	// Two values: the ratio is the binomial likelihood ratio, G = 2·Σ O·ln(p̂/p) over both values.
	binomialG := func(k, n, p float64) float64 {
		q := k / n
		return 2 * (k*math.Log(q/p) + (n-k)*math.Log((1-q)/(1-p)))
	}
	// A sample of zeros only: the null puts mass want/hi at hi, G = -2·N·ln(1 - want/hi).
	zerosG := func(n, want, hi float64) float64 { return -2 * n * math.Log(1-want/hi) }
	tests := []struct {
		name           string
		values, counts []float64
		lo, hi, want   float64
		g              float64 // the likelihood-ratio statistic R²
		sign           float64 // R's sign
	}{
		{"binomial above", []float64{0, 1}, []float64{70, 30}, 0, 1, 0.2, binomialG(30, 100, 0.2), 1},
		{"binomial below", []float64{0, 1}, []float64{95, 5}, 0, 1, 0.2, binomialG(5, 100, 0.2), -1},
		{"scaled binomial", []float64{2, 6}, []float64{95, 5}, 2, 6, 2.8, binomialG(5, 100, 0.2), -1},
		{"no spread, interval wide", []float64{0, 1, 2, 3, 4}, []float64{100, 0, 0, 0, 0}, 0, 4, 0.02, zerosG(100, 0.02, 4), -1},
		{"no spread, interval wider", []float64{0}, []float64{100}, 0, 20, 0.02, zerosG(100, 0.02, 20), -1},
		{"mean on the value", []float64{0, 1, 2}, []float64{25, 50, 25}, 0, 2, 1, 0, 0},
	}
	for _, tc := range tests {
		r := MeanLRTest(tc.values, tc.counts, tc.lo, tc.hi, tc.want)
		if g := r.R * r.R; math.Abs(g-tc.g) > 1e-9*math.Max(1, tc.g) || (tc.g > 0 && math.Signbit(r.R) != math.Signbit(tc.sign)) {
			t.Errorf("%s: R %g (R² %g), want R² %g of sign %g", tc.name, r.R, g, tc.g, tc.sign)
		}
		// P(χ²₁ ≥ G) = erfc(√(G/2)).
		if p := math.Erfc(math.Sqrt(tc.g / 2)); math.Abs(r.P-p) > 1e-9*math.Max(p, 1e-300) {
			t.Errorf("%s: p %g, want %g", tc.name, r.P, p)
		}
	}
}

func TestMeanLRTestRejectsTheImpossible(t *testing.T) {
	tests := []struct {
		name           string
		values, counts []float64
		lo, hi, want   float64
		p              float64
	}{
		{"mean outside the interval", []float64{0, 1}, []float64{5, 5}, 0, 1, 1.5, 0},
		{"mean at the end, sample elsewhere", []float64{0, 1}, []float64{99, 1}, 0, 1, 0, 0},
		{"mean at the end, sample there", []float64{0, 1}, []float64{100, 0}, 0, 1, 0, 1},
		{"empty sample", []float64{0, 1}, []float64{0, 0}, 0, 1, 0.5, 1},
	}
	for _, tc := range tests {
		if r := MeanLRTest(tc.values, tc.counts, tc.lo, tc.hi, tc.want); r.P != tc.p {
			t.Errorf("%s: %+v, want p %g", tc.name, r, tc.p)
		}
	}
}

// A skewed score (mostly 0 or 1 pair of 4, now and then 3 or 4), 100 games a sample: under the
// null the likelihood-ratio test rejects at its level, within the binomial spread of the count of
// rejections over the replicates, at 1% and at 0.1% and in each tail; the z test with the
// sample's standard deviation, the test it replaces, rejects more than twice as often in the
// lower tail at 0.1%.
func TestMeanLRTestCalibration(t *testing.T) {
	values := []float64{0, 1, 2, 3, 4}
	prob := []float64{0.55, 0.3, 0.06, 0.05, 0.04}
	var want float64
	for k, p := range prob {
		want += p * values[k]
	}
	const replicates, games = 40000, 100
	rng := rand.New(rand.NewPCG(1, 2))
	var lr, lrLow, z [2]int // rejections at 1e-2 and 1e-3; lrLow and z in the lower tail
	counts := make([]float64, len(values))
	for range replicates {
		clear(counts)
		var mo Moments
		for range games {
			u, k := rng.Float64(), 0
			for k < len(prob)-1 && u >= prob[k] {
				u -= prob[k]
				k++
			}
			counts[k]++
			mo.Add(values[k])
		}
		r := MeanLRTest(values, counts, 0, 4, want)
		zs, zp := ZTest(mo.Mean, mo.StdErr(), want)
		for i, level := range []float64{1e-2, 1e-3} {
			if r.P < level {
				lr[i]++
				if r.R < 0 {
					lrLow[i]++
				}
			}
			if zp < level && zs < 0 {
				z[i]++
			}
		}
	}
	for i, level := range []float64{1e-2, 1e-3} {
		expect := level * replicates
		bound := 4 * math.Sqrt(expect) // four binomial standard deviations
		if math.Abs(float64(lr[i])-expect) > bound {
			t.Errorf("level %g: %d of %d samples rejected, want %g ± %.0f", level, lr[i], replicates, expect, bound)
		}
		if math.Abs(float64(lrLow[i])-expect/2) > 4*math.Sqrt(expect/2) {
			t.Errorf("level %g: %d of %d samples rejected low, want %g ± %.0f", level, lrLow[i], replicates, expect/2, 4*math.Sqrt(expect/2))
		}
		t.Logf("level %g: likelihood ratio %d (%d low), z low %d, of %d; %g expected (%g low)", level, lr[i], lrLow[i], z[i], replicates, expect, expect/2)
	}
	if z[1] < int(1e-3*replicates) {
		t.Errorf("the z test rejected %d samples low at 0.1%%, want more than twice %g: the sample is not skewed enough to test", z[1], 1e-3*replicates/2)
	}
}

func TestBinomialTest(t *testing.T) {
	// The tails summed term by term: P(X = i) = C(n, i)·p^i·(1-p)^(n-i), in logarithms.
	tail := func(k, n int64, p float64, upper bool) float64 {
		var s float64
		for i := int64(0); i <= n; i++ {
			if (upper && i < k) || (!upper && i > k) {
				continue
			}
			lg := func(x int64) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
			s += math.Exp(lg(n) - lg(i) - lg(n-i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
		}
		return s
	}
	tests := []struct {
		k, n int64
		p    float64
	}{{5, 100, 0.01}, {0, 100, 0.05}, {100, 100, 0.97}, {48, 100, 0.5}, {30, 100, 0.45}, {2, 4000, 0.003}}
	for _, tc := range tests {
		want := math.Min(1, 2*math.Min(tail(tc.k, tc.n, tc.p, false), tail(tc.k, tc.n, tc.p, true)))
		z, p := BinomialTest(tc.k, tc.n, tc.p)
		if math.Abs(p-want) > 1e-9*want {
			t.Errorf("%d of %d at %g: p %g, want %g", tc.k, tc.n, tc.p, p, want)
		}
		if wz := (float64(tc.k)/float64(tc.n) - tc.p) / math.Sqrt(tc.p*(1-tc.p)/float64(tc.n)); math.Abs(z-wz) > 1e-12 {
			t.Errorf("%d of %d at %g: z %g, want %g", tc.k, tc.n, tc.p, z, wz)
		}
	}
	// A probability of 0 or 1 allows one count only.
	for _, tc := range []struct {
		k, n int64
		p    float64
		pv   float64
	}{{0, 10, 0, 1}, {1, 10, 0, 0}, {10, 10, 1, 1}, {9, 10, 1, 0}} {
		if _, p := BinomialTest(tc.k, tc.n, tc.p); p != tc.pv {
			t.Errorf("%d of %d at %g: p %g, want %g", tc.k, tc.n, tc.p, p, tc.pv)
		}
	}
}
