package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// momentsOf returns the moments of xs, accumulated with Add.
func momentsOf(xs ...float64) Moments {
	var m Moments
	for _, x := range xs {
		m.Add(x)
	}
	return m
}

// unitSE returns moments with N observations whose standard error is exactly 1, so that
// HalfWidth returns the critical value t_{level, n-1} itself.
func unitSE(n int64) Moments {
	// Var = M2/(n-1) = n, so StdErr = sqrt(Var/n) = 1.
	return Moments{N: n, Mean: 0, M2: float64(n) * float64(n-1)}
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}

func TestHalfWidthCriticalValues(t *testing.T) {
	const z95 = 1.959963984540054 // Z(0.95), checked in TestZ
	cases := []struct {
		n     int64 // degrees of freedom + 1
		level float64
		want  float64
		tol   float64
	}{
		// Closed forms: for ν = 1 (Cauchy) the quantile at p is tan(π(p-1/2)), so the two-sided
		// value is tan(π·level/2); for ν = 2 it is (2p-1)/sqrt(2p(1-p)) with p = (1+level)/2.
		{2, 0.95, math.Tan(math.Pi * 0.95 / 2), 1e-9},
		{2, 0.5, 1, 1e-12},
		{2, 0.99, math.Tan(math.Pi * 0.99 / 2), 1e-9},
		{3, 0.95, 0.95 / math.Sqrt(2*0.975*0.025), 1e-10},
		{3, 0.8, 0.8 / math.Sqrt(2*0.9*0.1), 1e-10},
		// NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.2 (upper critical values
		// of Student's t), columns 0.025 and 0.005, given to 3 decimals.
		{10, 0.95, 2.262, 5e-4},
		{10, 0.99, 3.250, 5e-4},
		{31, 0.95, 2.042, 5e-4},
		{101, 0.95, 1.984, 5e-4},
		// Large ν: the first-order expansion t ≈ z + (z³+z)/(4ν) (Abramowitz & Stegun 26.7.5),
		// whose next term is below 3/ν², on both sides of the switch from gonum's inversion to the
		// expansion, and far beyond it.
		{1e3 + 1, 0.95, z95 + (z95*z95*z95+z95)/4e3, 3e-6},
		{1e4 + 1, 0.95, z95 + (z95*z95*z95+z95)/4e4, 3e-8},
		{1e4 + 2, 0.95, z95 + (z95*z95*z95+z95)/(4e4+4), 3e-8},
		{1e6 + 1, 0.95, z95 + (z95*z95*z95+z95)/4e6, 3e-12},
		{1e12, 0.95, z95 + (z95*z95*z95+z95)/(4*(1e12-1)), 1e-14},
	}
	for _, c := range cases {
		if got := HalfWidth(unitSE(c.n), c.level); math.Abs(got-c.want) > c.tol {
			t.Errorf("HalfWidth(N=%d, %v) = %.12g, want %.12g ± %g", c.n, c.level, got, c.want, c.tol)
		}
	}
}

func TestTQuantileSwitchIsSeamless(t *testing.T) {
	// At the switch the expansion and gonum's incomplete-beta inversion must agree.
	for _, level := range []float64{0.5, 0.9, 0.95, 0.99, 0.999} {
		exp := tQuantile(cornishFisherDF*(1+1e-12), level)
		inv := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: cornishFisherDF}.Quantile((1 + level) / 2)
		if math.Abs(exp-inv) > 1e-11 {
			t.Errorf("level %v: expansion %.15g, gonum %.15g", level, exp, inv)
		}
	}
}

func TestStudentCISleep(t *testing.T) {
	// R's datasets::sleep, paired differences extra[group 1] - extra[group 2]. R documents
	// t.test(extra ~ group, data = sleep, paired = TRUE) as: t = -4.0621, df = 9,
	// 95 percent confidence interval -2.4598858 -0.7001142, mean of the differences -1.58.
	d := momentsOf(-1.2, -2.4, -1.3, -1.3, 0, -1.0, -1.8, -0.8, -4.6, -1.4)
	lo, hi := StudentCI(d, 0.95)
	if math.Abs(lo+2.4598858) > 1e-7 || math.Abs(hi+0.7001142) > 1e-7 {
		t.Errorf("sleep CI = [%.8f, %.8f], want [-2.4598858, -0.7001142]", lo, hi)
	}
	if tt := d.Mean / d.StdErr(); math.Abs(tt+4.0621) > 5e-5 {
		t.Errorf("sleep t = %.6f, want -4.0621", tt)
	}
}

func TestStudentCIProperties(t *testing.T) {
	for _, c := range []struct {
		name string
		m    Moments
		lo   float64
		hi   float64
	}{
		{"empty", Moments{}, 0, 0},
		{"one", momentsOf(7), 7, 7},
		{"constant", momentsOf(3, 3, 3), 3, 3},
	} {
		if lo, hi := StudentCI(c.m, 0.95); lo != c.lo || hi != c.hi {
			t.Errorf("%s: StudentCI = [%v, %v], want [%v, %v]", c.name, lo, hi, c.lo, c.hi)
		}
	}
	// Wider than the normal interval, approaching it as N grows; symmetric about the mean.
	prev := math.Inf(1)
	for _, n := range []int64{2, 3, 5, 10, 30, 100, 1000, 100000} {
		m := Moments{N: n, Mean: 5, M2: 2 * float64(n-1)}
		lo, hi := StudentCI(m, 0.9)
		nlo, nhi := NormalCI(m, 0.9)
		if !(lo < nlo && hi > nhi) {
			t.Errorf("N=%d: Student [%v, %v] not wider than normal [%v, %v]", n, lo, hi, nlo, nhi)
		}
		if !near(5-lo, hi-5, 1e-12) {
			t.Errorf("N=%d: asymmetric interval [%v, %v]", n, lo, hi)
		}
		ratio := (hi - lo) / (nhi - nlo)
		if !(ratio < prev) {
			t.Errorf("N=%d: width ratio to normal %v did not decrease (previous %v)", n, ratio, prev)
		}
		prev = ratio
	}
	if prev > 1.0001 {
		t.Errorf("width ratio at N=1e5 is %v, want ≈ 1", prev)
	}
	if h := HalfWidth(momentsOf(1), 0.95); !math.IsInf(h, 1) {
		t.Errorf("HalfWidth with N=1 = %v, want +Inf", h)
	}
	for _, bad := range []float64{0, 1, math.NaN()} {
		mustPanic(t, "StudentCI with bad level", func() { StudentCI(momentsOf(1, 2), bad) })
		mustPanic(t, "HalfWidth with bad level", func() { HalfWidth(momentsOf(1, 2), bad) })
	}
}

func TestPrecisionReached(t *testing.T) {
	tight := unitSE(101) // half-width t_{0.95,100} ≈ 1.984
	h := HalfWidth(tight, 0.95)
	cases := []struct {
		name   string
		ms     []Moments
		target float64
		want   bool
	}{
		{"empty", nil, 10, false},
		{"one reached", []Moments{tight}, 2, true},
		{"exactly at target", []Moments{tight}, h, true},
		{"just above target", []Moments{tight}, h * (1 - 1e-12), false},
		{"one of two not reached", []Moments{tight, unitSE(5)}, 2, false},
		{"both reached", []Moments{tight, unitSE(5)}, 3, true},
		{"N < 2", []Moments{tight, momentsOf(4)}, 100, false},
		{"zero variance", []Moments{momentsOf(4, 4)}, 0, true},
	}
	for _, c := range cases {
		if got := PrecisionReached(c.ms, 0.95, c.target); got != c.want {
			t.Errorf("%s: PrecisionReached = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestWilsonPublished(t *testing.T) {
	cases := []struct {
		k, n   int64
		level  float64
		lo, hi float64
		tol    float64
	}{
		// Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
		// methods", Statistics in Medicine 17:857–872 (1998), Table II, method 3 (score interval
		// without continuity correction), 4 decimals.
		{81, 263, 0.95, 0.2553, 0.3662, 5e-5},
		{15, 148, 0.95, 0.0624, 0.1605, 5e-5},
		{0, 20, 0.95, 0, 0.1611, 5e-5},
		{1, 29, 0.95, 0.0061, 0.1718, 5e-5},
		// R, prop.test(x, n, correct = FALSE)$conf.int, as recorded in the test snapshots of the
		// cards package (insightsengineering/cards, tests/testthat/_snaps/proportion_ci.md).
		{5, 10, 0.9, 0.2692718, 0.7307282, 5e-8},
		{32, 32, 0.95, 0.8928208, 1, 5e-8},
		{0, 32, 0.95, 0, 0.1071792, 5e-8},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.k, c.n, c.level)
		if math.Abs(lo-c.lo) > c.tol || math.Abs(hi-c.hi) > c.tol {
			t.Errorf("Wilson(%d, %d, %v) = [%.7f, %.7f], want [%v, %v]", c.k, c.n, c.level, lo, hi, c.lo, c.hi)
		}
	}
}

func TestWilsonIdentities(t *testing.T) {
	for _, level := range []float64{0.5, 0.9, 0.95, 0.999} {
		z := Z(level)
		for n := int64(1); n <= 60; n++ {
			// Edge cases in closed form: at k = 0 the interval is [0, z²/(n+z²)], at k = n it is
			// [n/(n+z²), 1].
			if lo, hi := Wilson(0, n, level); lo != 0 || !near(hi, z*z/(float64(n)+z*z), 1e-12) {
				t.Errorf("Wilson(0, %d, %v) = [%v, %v]", n, level, lo, hi)
			}
			if lo, hi := Wilson(n, n, level); hi != 1 || !near(lo, float64(n)/(float64(n)+z*z), 1e-12) {
				t.Errorf("Wilson(%d, %d, %v) = [%v, %v]", n, n, level, lo, hi)
			}
			for k := int64(0); k <= n; k++ {
				lo, hi := Wilson(k, n, level)
				p := float64(k) / float64(n)
				if !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
					t.Fatalf("Wilson(%d, %d, %v) = [%v, %v] does not bracket %v within [0, 1]", k, n, level, lo, hi, p)
				}
				// Symmetry: failures are successes seen the other way.
				if lo2, hi2 := Wilson(n-k, n, level); math.Abs(lo-(1-hi2)) > 1e-14 || math.Abs(hi-(1-lo2)) > 1e-14 {
					t.Errorf("Wilson(%d, %d) = [%v, %v] but Wilson(%d, %d) = [%v, %v]", k, n, lo, hi, n-k, n, lo2, hi2)
				}
				// Definition: interior endpoints are the roots of the score equation
				// (p̂ - p)² = z²·p(1-p)/n.
				for _, e := range []float64{lo, hi} {
					if e == 0 && k == 0 || e == 1 && k == n {
						continue
					}
					lhs, rhs := (p-e)*(p-e), z*z*e*(1-e)/float64(n)
					if math.Abs(lhs-rhs) > 1e-12 {
						t.Errorf("Wilson(%d, %d, %v): endpoint %v gives (p̂-p)² = %v, z²p(1-p)/n = %v", k, n, level, e, lhs, rhs)
					}
				}
			}
		}
	}
	if lo, hi := Wilson(0, 0, 0.95); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = [%v, %v], want [0, 1]", lo, hi)
	}
	mustPanic(t, "Wilson(-1, 5)", func() { Wilson(-1, 5, 0.95) })
	mustPanic(t, "Wilson(6, 5)", func() { Wilson(6, 5, 0.95) })
	mustPanic(t, "Wilson(0, -1)", func() { Wilson(0, -1, 0.95) })
	mustPanic(t, "Wilson level 1", func() { Wilson(1, 5, 1) })
}
