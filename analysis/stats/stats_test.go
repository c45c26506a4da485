package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// direct computes the moments of xs in two passes.
func direct(xs []float64) Moments {
	if len(xs) == 0 {
		return Moments{}
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	mean := s / float64(len(xs))
	var m2 float64
	for _, x := range xs {
		m2 += (x - mean) * (x - mean)
	}
	return Moments{N: int64(len(xs)), Mean: mean, M2: m2}
}

func near(a, b, rel float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

func checkMoments(t *testing.T, what string, got, want Moments) {
	t.Helper()
	if got.N != want.N || !near(got.Mean, want.Mean, 1e-12) || !near(got.M2, want.M2, 1e-12) {
		t.Errorf("%s: got %+v, want %+v", what, got, want)
	}
}

func TestAddAndMergeMatchDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 1 + r.IntN(2000)
		xs := make([]float64, n)
		shift := r.NormFloat64() * 1e3
		for i := range xs {
			xs[i] = shift + r.NormFloat64()*(1+float64(trial))
		}
		want := direct(xs)

		var whole Moments
		for _, x := range xs {
			whole.Add(x)
		}
		checkMoments(t, "Add", whole, want)

		cut := r.IntN(n + 1)
		var a, b Moments
		for _, x := range xs[:cut] {
			a.Add(x)
		}
		for _, x := range xs[cut:] {
			b.Add(x)
		}
		a.Merge(b)
		checkMoments(t, "Merge", a, want)
		checkMoments(t, "Merge vs Add", a, whole)
	}
}

func TestMergeEmpty(t *testing.T) {
	var a Moments
	b := Moments{N: 3, Mean: 2, M2: 4}
	a.Merge(b)
	if a != b {
		t.Errorf("empty.Merge(b) = %+v, want %+v", a, b)
	}
	a.Merge(Moments{})
	if a != b {
		t.Errorf("b.Merge(empty) = %+v, want %+v", a, b)
	}
}

func TestSmallN(t *testing.T) {
	var m Moments
	if m.Variance() != 0 || m.StdErr() != 0 || m.StdDev() != 0 {
		t.Errorf("empty: variance %v, stderr %v", m.Variance(), m.StdErr())
	}
	if lo, hi := NormalCI(m, 0.95); lo != 0 || hi != 0 {
		t.Errorf("empty CI = [%v, %v], want [0, 0]", lo, hi)
	}
	m.Add(7)
	if m.Variance() != 0 || m.StdErr() != 0 {
		t.Errorf("one observation: variance %v, stderr %v", m.Variance(), m.StdErr())
	}
	if lo, hi := NormalCI(m, 0.95); lo != 7 || hi != 7 {
		t.Errorf("one-observation CI = [%v, %v], want [7, 7]", lo, hi)
	}
}

func TestVarianceAndCI(t *testing.T) {
	var m Moments
	for _, x := range []float64{1, 2, 3, 4} {
		m.Add(x)
	}
	if !near(m.Variance(), 5.0/3, 1e-15) {
		t.Errorf("variance = %v, want 5/3", m.Variance())
	}
	se := math.Sqrt(5.0 / 3 / 4)
	if !near(m.StdErr(), se, 1e-15) {
		t.Errorf("stderr = %v, want %v", m.StdErr(), se)
	}
	lo, hi := NormalCI(m, 0.95)
	if !near(lo, 2.5-1.959963984540054*se, 1e-12) || !near(hi, 2.5+1.959963984540054*se, 1e-12) {
		t.Errorf("CI = [%v, %v]", lo, hi)
	}
}

func TestMomentsFromHistogram(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		counts := make([]int64, 1+r.IntN(30))
		offset := r.IntN(21) - 10
		scale := []float64{1, 0.5, -2, 0.1}[trial%4]
		var xs []float64
		for i := range counts {
			counts[i] = int64(r.IntN(50))
			for k := int64(0); k < counts[i]; k++ {
				xs = append(xs, float64(i+offset)*scale)
			}
		}
		got := MomentsFromHistogram(counts, offset, scale)
		want := direct(xs)
		if got.N != want.N || !near(got.Mean, want.Mean, 1e-12) || !near(got.M2, want.M2, 1e-10) {
			t.Errorf("trial %d: got %+v, want %+v", trial, got, want)
		}
	}
	if m := MomentsFromHistogram[int64](nil, 3, 1); m != (Moments{}) {
		t.Errorf("empty histogram: %+v", m)
	}
	if m := MomentsFromHistogram([]int64{0, 0, 5}, 1, 2); m != (Moments{N: 5, Mean: 6, M2: 0}) {
		t.Errorf("constant histogram: %+v", m)
	}
	// Any integer type of counts gives the same moments.
	if a, b := MomentsFromHistogram([]uint8{3, 0, 7}, -1, 0.5), MomentsFromHistogram([]int64{3, 0, 7}, -1, 0.5); a != b {
		t.Errorf("uint8 counts %+v, int64 counts %+v", a, b)
	}
}

func TestZ(t *testing.T) {
	if z := Z(0.95); math.Abs(z-1.959963984540054) > 1e-12 {
		t.Errorf("Z(0.95) = %.17g", z)
	}
	if z := Z(0.99); math.Abs(z-2.5758293035489004) > 1e-12 {
		t.Errorf("Z(0.99) = %.17g", z)
	}
	for _, bad := range []float64{0, 1, -0.5, 1.5, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Z(%v) did not panic", bad)
				}
			}()
			Z(bad)
		}()
	}
}

// MomentsFromSums agrees with the histogram of the same integers.
func TestMomentsFromSums(t *testing.T) {
	counts := []int64{3, 0, 7, 1, 12, 5}
	var n, sum, sumSq int64
	for v, c := range counts {
		n += c
		sum += c * int64(v)
		sumSq += c * int64(v*v)
	}
	got, want := MomentsFromSums(n, sum, sumSq), MomentsFromHistogram(counts, 0, 1)
	if got.N != want.N || math.Abs(got.Mean-want.Mean) > 1e-12 || math.Abs(got.M2-want.M2) > 1e-9 {
		t.Errorf("from sums %+v, from the histogram %+v", got, want)
	}
	if (MomentsFromSums(0, 0, 0) != Moments{}) {
		t.Error("no observations")
	}
}
