package stats

import (
	"math"
	"testing"
)

func TestHolm(t *testing.T) {
	// Hand-computed: sorted p = 0.01, 0.02, 0.03, 0.5 give 4·0.01, 3·0.02, 2·0.03 and 0.5, each the
	// running maximum.
	got := Holm([]float64{0.03, 0.5, 0.01, 0.02})
	want := []float64{0.06, 0.5, 0.04, 0.06}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("p %d: Holm %g, want %g", i, got[i], want[i])
		}
	}
	// Capped at 1, and monotone in the sorted order.
	got = Holm([]float64{0.4, 0.3, 0.9})
	want = []float64{0.9, 0.9, 0.9}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("p %d: Holm %g, want %g", i, got[i], want[i])
		}
	}
}

func TestGTest(t *testing.T) {
	prob := []float64{0.25, 0.5, 0.25}
	// Counts exactly as expected: G = 0, p = 1.
	if r, ok := GTest([]float64{100, 200, 100}, prob, 5); !ok || r.G != 0 || r.P != 1 || r.DF != 2 {
		t.Errorf("exact counts: %+v %v", r, ok)
	}
	// G by hand: 2·Σ O ln(O/E) with O = 150, 150, 100 and E = 100, 200, 100, over Williams'
	// q = 1 + (3 + 1)/(6·400).
	g := 2 * (150*math.Log(1.5) + 150*math.Log(0.75)) / (1 + 4.0/2400)
	if r, _ := GTest([]float64{150, 150, 100}, prob, 5); math.Abs(r.G-g) > 1e-9 || r.P > 1e-6 {
		t.Errorf("skewed counts: %+v, want G %g", r, g)
	}
	// An outcome of probability zero rejects at once.
	if r, ok := GTest([]float64{1, 399, 0}, []float64{0, 0.5, 0.5}, 5); !ok || r.P != 0 || !math.IsInf(r.G, 1) {
		t.Errorf("impossible outcome: %+v", r)
	}
	// Small bins are pooled: 4 games expected in the first bin join the second.
	if r, _ := GTest([]float64{4, 46, 50}, []float64{0.04, 0.46, 0.5}, 5); r.DF != 1 {
		t.Errorf("pooling: df %d, want 1", r.DF)
	}
	// A single outcome has no distribution to test.
	if _, ok := GTest([]float64{0, 10}, []float64{0, 1}, 5); ok {
		t.Error("a single-outcome distribution was tested")
	}
}

func TestZTest(t *testing.T) {
	// z = (10.5 - 10)/0.25 = 2, two-sided p = 2·(1 - Φ(2)) = 0.0455002638963584 (R: 2*pnorm(-2)).
	z, p := ZTest(10.5, 0.25, 10)
	if z != 2 || math.Abs(p-0.0455002638963584) > 1e-12 {
		t.Errorf("z %g, p %g", z, p)
	}
	if z, p := ZTest(3, 0, 3); z != 0 || p != 1 {
		t.Errorf("no spread, equal: z %g p %g", z, p)
	}
	if z, p := ZTest(2, 0, 3); !math.IsInf(z, -1) || p != 0 {
		t.Errorf("no spread, different: z %g p %g", z, p)
	}
}
