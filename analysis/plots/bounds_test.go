package plots

import (
	"errors"
	"math"
	"testing"
	"time"
)

// deadline runs f and fails the test if it has not returned within d (the goroutine is then left
// running: the test binary ends with the failure).
func deadline(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not finish within %v", what, d)
	}
}

// Huge values, such as a mean of 5e307 pairs read from an edited results.json, are refused before
// they reach the rasteriser (whose arithmetic on them would overflow and never end); values at
// the limit are drawn. Each call finishes well within its deadline.
func TestHugeValuesAreRefusedQuickly(t *testing.T) {
	const huge = 5e307
	players := []string{"a", "b"}
	tests := []struct {
		name    string
		draw    func() (Figure, error)
		refused bool
	}{
		{"heat map of ±5e307", func() (Figure, error) {
			return HeatMap("t", players, players, [][]float64{{math.NaN(), huge}, {-huge, math.NaN()}}, "x", "y", Diverging)
		}, true},
		{"sequential heat map of 1e308 and -1e308", func() (Figure, error) {
			return HeatMap("t", players, players, [][]float64{{1e308, 0}, {0, -1e308}}, "x", "y", Sequential)
		}, true},
		{"heat map of an infinite value", func() (Figure, error) {
			return HeatMap("t", players, players, [][]float64{{math.Inf(1), 0}, {0, 0}}, "x", "y", Diverging)
		}, true},
		{"heat map at ±MaxMagnitude", func() (Figure, error) {
			return HeatMap("t", players, players, [][]float64{{math.NaN(), MaxMagnitude}, {-MaxMagnitude, math.NaN()}}, "x", "y", Diverging)
		}, false},
		{"convergence of a mean of 5e307", func() (Figure, error) {
			return Convergence("t", []ConvergencePoint{{Games: 10, Mean: huge, Lo: 0, Hi: 1}}, nil, "y")
		}, true},
		{"convergence of an interval to -5e307", func() (Figure, error) {
			return Convergence("t", []ConvergencePoint{{Games: 10, Mean: 1, Lo: -huge, Hi: 2}}, nil, "y")
		}, true},
		{"convergence to an exact value of 5e307", func() (Figure, error) {
			x := huge
			return Convergence("t", []ConvergencePoint{{Games: 10, Mean: 1, Lo: 0, Hi: 2}}, &x, "y")
		}, true},
		{"convergence at ±MaxMagnitude", func() (Figure, error) {
			x := -MaxMagnitude
			return Convergence("t", []ConvergencePoint{{Games: 10, Mean: MaxMagnitude, Lo: -MaxMagnitude, Hi: MaxMagnitude}, {Games: 20, Mean: 0, Lo: 0, Hi: 0}}, &x, "y")
		}, false},
		{"distribution with 5e307", func() (Figure, error) {
			return Distribution("t", []float64{0, 1}, []float64{huge, 0}, nil, "x")
		}, true},
		{"distribution of more bars than MaxCells", func() (Figure, error) {
			xs := make([]float64, MaxCells+1)
			for i := range xs {
				xs[i] = float64(i)
			}
			return Distribution("t", xs, make([]float64, MaxCells+1), nil, "x")
		}, true},
		{"heat map of more cells than MaxCells", func() (Figure, error) {
			rows := make([]string, MaxCells/2+1)
			vals := make([][]float64, len(rows))
			for i := range vals {
				vals[i] = []float64{0, 0}
			}
			return HeatMap("t", rows, players, vals, "x", "y", Sequential)
		}, true},
		{"choice map whose rows reach 2^62", func() (Figure, error) {
			return ChoiceMap("t", [][]int{{ChoiceSafe}}, 1<<62, "x", "y")
		}, true},
	}
	for _, tt := range tests {
		deadline(t, 30*time.Second, tt.name, func() {
			_, err := tt.draw()
			switch {
			case tt.refused && !errors.Is(err, ErrInput):
				t.Errorf("%s: %v, want an error wrapping ErrInput", tt.name, err)
			case !tt.refused && err != nil:
				t.Errorf("%s: %v", tt.name, err)
			}
		})
	}
}

// The tick generators end on any range, however wide, narrow or far out, with a bounded number of
// ticks (at most nine per decade of float64 on a log axis).
func TestTicksEndOnExtremeRanges(t *testing.T) {
	tests := []struct {
		name   string
		ticks  func(lo, hi float64) int
		lo, hi float64
	}{
		{"linear over ±8e307 (an overflowing width)", func(lo, hi float64) int { return len(linearTicks(lo, hi)) }, -8e307, 8e307},
		{"linear over ±5e307", func(lo, hi float64) int { return len(linearTicks(lo, hi)) }, -5e307, 5e307},
		{"linear over a range narrower than its floats", func(lo, hi float64) int { return len(linearTicks(lo, hi)) }, 1e300, math.Nextafter(1e300, math.Inf(1))},
		{"linear from -Inf", func(lo, hi float64) int { return len(linearTicks(lo, hi)) }, math.Inf(-1), 0},
		{"log up to 1e308", func(lo, hi float64) int { return len(logTicks(lo, hi)) }, 1e-300, 1e308},
		{"log of infinities", func(lo, hi float64) int { return len(logTicks(lo, hi)) }, math.Inf(1), math.Inf(1)},
		{"log of NaN", func(lo, hi float64) int { return len(logTicks(lo, hi)) }, math.NaN(), 10},
		{"integers beyond 2^53", func(lo, hi float64) int { return len(intTicks(lo, hi)) }, 1e20, 1e20 + 1e5},
		{"integers over ±1e15", func(lo, hi float64) int { return len(intTicks(lo, hi)) }, -1e15, 1e15},
		{"integers from -Inf", func(lo, hi float64) int { return len(intTicks(lo, hi)) }, math.Inf(-1), 3},
	}
	for _, tt := range tests {
		deadline(t, 10*time.Second, tt.name, func() {
			if n := tt.ticks(tt.lo, tt.hi); n > 9*650 {
				t.Errorf("%s: %d ticks", tt.name, n)
			}
		})
	}
}
