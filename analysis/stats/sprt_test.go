package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestNewSPRT(t *testing.T) {
	cases := []struct {
		d, alpha, beta float64
		ok             bool
	}{
		{0.1, 0.05, 0.05, true},
		{2, 0.01, 0.2, true},
		{0, 0.05, 0.05, false},
		{-1, 0.05, 0.05, false},
		{math.Inf(1), 0.05, 0.05, false},
		{math.NaN(), 0.05, 0.05, false},
		{1, 0, 0.05, false},
		{1, 0.05, 1, false},
		{1, math.NaN(), 0.05, false},
		{1, 0.5, 0.5, false},
		{1, 0.7, 0.4, false},
	}
	for _, c := range cases {
		s, err := NewSPRT(c.d, c.alpha, c.beta)
		if (err == nil) != c.ok || (s != nil) != c.ok {
			t.Errorf("NewSPRT(%v, %v, %v) = %v, %v; want ok=%v", c.d, c.alpha, c.beta, s, err, c.ok)
		}
	}
	// Wald's thresholds: for alpha = beta = 0.05, A = log(0.95/0.05) = log 19 and B = -log 19.
	s, _ := NewSPRT(1, 0.05, 0.05)
	if lo, hi := s.Thresholds(); !near(hi, math.Log(19), 1e-15) || !near(lo, -math.Log(19), 1e-15) {
		t.Errorf("thresholds = %v, %v; want ∓%v", lo, hi, math.Log(19))
	}
	// alpha = 0.01, beta = 0.2: A = log(0.8/0.01) = log 80, B = log(0.2/0.99).
	s, _ = NewSPRT(1, 0.01, 0.2)
	if lo, hi := s.Thresholds(); !near(hi, math.Log(80), 1e-15) || !near(lo, math.Log(0.2/0.99), 1e-15) {
		t.Errorf("thresholds = %v, %v", lo, hi)
	}
}

func TestSPRTLogLikelihoodRatio(t *testing.T) {
	// The closed form must equal the brute-force sum of log density ratios of N(d, σ²) and
	// N(0, σ²), σ the sample standard deviation of all the data, however the data are batched.
	r := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 20; trial++ {
		d := 0.05 + r.Float64()
		mu := d * (r.Float64()*2 - 0.5)
		sd := 0.5 + 2*r.Float64()
		n := 2 + r.IntN(500)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = mu + sd*r.NormFloat64()
		}
		sigma := math.Sqrt(direct(xs).M2 / float64(n-1))
		var brute float64
		h0, h1 := distuv.Normal{Mu: 0, Sigma: sigma}, distuv.Normal{Mu: d, Sigma: sigma}
		for _, x := range xs {
			brute += h1.LogProb(x) - h0.LogProb(x)
		}

		s, err := NewSPRT(d, 0.05, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; {
			j := min(n, i+1+r.IntN(50))
			s.Add(momentsOf(xs[i:j]...))
			i = j
		}
		_, llr := s.Decision()
		if math.Abs(llr-brute) > 1e-9*math.Max(1, math.Abs(brute)) {
			t.Errorf("trial %d: llr = %v, brute force %v", trial, llr, brute)
		}

		// With a known variance the same formula uses it instead.
		s.Sigma2 = 2.5
		_, llr = s.Decision()
		brute = 0
		h0, h1 = distuv.Normal{Mu: 0, Sigma: math.Sqrt(2.5)}, distuv.Normal{Mu: d, Sigma: math.Sqrt(2.5)}
		for _, x := range xs {
			brute += h1.LogProb(x) - h0.LogProb(x)
		}
		if math.Abs(llr-brute) > 1e-9*math.Max(1, math.Abs(brute)) {
			t.Errorf("trial %d, known variance: llr = %v, brute force %v", trial, llr, brute)
		}
	}
}

func TestSPRTDegenerate(t *testing.T) {
	s, _ := NewSPRT(0.5, 0.05, 0.05)
	if dec, llr := s.Decision(); dec != 0 || llr != 0 {
		t.Errorf("no data: Decision = %v, %v; want 0, 0", dec, llr)
	}
	s.Add(Moments{})
	if dec, llr := s.Decision(); dec != 0 || llr != 0 {
		t.Errorf("empty batch: Decision = %v, %v; want 0, 0", dec, llr)
	}
	// One observation: no variance estimate, so no decision however extreme the llr.
	s.Add(momentsOf(100))
	if dec, llr := s.Decision(); dec != 0 || math.IsNaN(llr) {
		t.Errorf("one observation: Decision = %v, %v; want 0", dec, llr)
	}
	// ... unless the variance is known.
	s.Sigma2 = 1
	if dec, llr := s.Decision(); dec != 1 || !near(llr, 0.5*(100-0.25), 1e-15) {
		t.Errorf("one observation, known variance: Decision = %v, %v; want 1, %v", dec, llr, 0.5*(100-0.25))
	}

	// Noise-free data: the variance floor σ = d/1000 gives a finite, decisive llr,
	// (d/σ)·n·(mean - d/2)/σ = 1000·2·(±d/2)·1000/d = ±10⁶.
	for _, c := range []struct {
		x    float64
		want int
	}{{0.5, 1}, {0, -1}, {0.25, 0}} {
		s, _ := NewSPRT(0.5, 0.05, 0.05)
		s.Add(momentsOf(c.x, c.x))
		dec, llr := s.Decision()
		wantLLR := 2 * (c.x - 0.25) / 0.5 * 1e6
		if dec != c.want || !near(llr, wantLLR, 1e-9) {
			t.Errorf("constant %v: Decision = %v, %v; want %v, %v", c.x, dec, llr, c.want, wantLLR)
		}
	}
	// MinN raised: no decision before it is reached.
	s, _ = NewSPRT(0.5, 0.05, 0.05)
	s.MinN = 100
	s.Add(momentsOf(1, 1.1, 0.9, 1.05))
	if dec, _ := s.Decision(); dec != 0 {
		t.Errorf("below MinN: decision %v, want 0", dec)
	}
	if got := s.Observations(); got.N != 4 || !near(got.Mean, 1.0125, 1e-15) {
		t.Errorf("Observations = %+v", got)
	}
}

// runSPRT simulates one sequential experiment on N(mu, 1) observations, in batches of batch, and
// returns the decision and the number of observations used.
func runSPRT(t *testing.T, r *rand.Rand, d, alpha, beta, mu float64, batch int, knownVar bool) (int, int64) {
	s, err := NewSPRT(d, alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	if knownVar {
		s.Sigma2 = 1
	}
	for s.Observations().N < 1_000_000 {
		var m Moments
		for i := 0; i < batch; i++ {
			m.Add(mu + r.NormFloat64())
		}
		s.Add(m)
		if dec, _ := s.Decision(); dec != 0 {
			return dec, s.Observations().N
		}
	}
	t.Fatalf("no decision after %d observations", s.Observations().N)
	return 0, 0
}

func TestSPRTOperatingCharacteristics(t *testing.T) {
	const (
		d           = 0.25
		alpha       = 0.05
		beta        = 0.1
		batch       = 10
		experiments = 2000
	)
	// The fixed-sample one-sided z test with the same error rates needs
	// n = ((z_{1-alpha} + z_{1-beta})·σ/d)² observations (σ = 1).
	zsum := distuv.UnitNormal.Quantile(1-alpha) + distuv.UnitNormal.Quantile(1-beta)
	fixedN := math.Pow(zsum/d, 2) // ≈ 137
	for _, known := range []bool{false, true} {
		r := rand.New(rand.NewPCG(11, 12))
		for _, c := range []struct {
			name     string
			mu       float64
			wrong    int     // the erroneous decision under this hypothesis
			maxError float64 // nominal error rate
		}{
			{"H0", 0, 1, alpha},
			{"H1", d, -1, beta},
		} {
			var errors int
			var total int64
			for e := 0; e < experiments; e++ {
				dec, n := runSPRT(t, r, d, alpha, beta, c.mu, batch, known)
				if dec == c.wrong {
					errors++
				}
				total += n
			}
			rate := float64(errors) / experiments
			asn := float64(total) / experiments
			// Wald's bounds: the realised rates are at most about alpha/(1-beta) and
			// beta/(1-alpha); allow 3 binomial standard deviations for the simulation.
			bound := c.maxError/(1-math.Min(alpha, beta)) + 3*math.Sqrt(c.maxError*(1-c.maxError)/experiments)
			t.Logf("known variance %v, %s: error rate %.4f (nominal %v), mean sample size %.1f (fixed-n test %.1f)",
				known, c.name, rate, c.maxError, asn, fixedN)
			if rate > bound {
				t.Errorf("known variance %v, %s: error rate %v exceeds %v", known, c.name, rate, bound)
			}
			if asn >= fixedN {
				t.Errorf("known variance %v, %s: mean sample size %v not below the fixed-n %v", known, c.name, asn, fixedN)
			}
		}
	}
}
