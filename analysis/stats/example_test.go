package stats_test

import (
	"fmt"

	"memsim/analysis/stats"
)

func Example() {
	// Two workers each accumulate their own games' scores; the results are merged.
	var a, b stats.Moments
	for _, x := range []float64{1, 2, 2} {
		a.Add(x)
	}
	for _, x := range []float64{3, 1, 3} {
		b.Add(x)
	}
	a.Merge(b)
	lo, hi := stats.NormalCI(a, 0.95)
	fmt.Printf("n=%d mean=%.4f sd=%.4f 95%% CI [%.4f, %.4f]\n", a.N, a.Mean, a.StdDev(), lo, hi)

	// The same data as a histogram of values 1, 2, 3.
	h := stats.MomentsFromHistogram([]int64{2, 2, 2}, 1, 1)
	fmt.Printf("n=%d mean=%.4f sd=%.4f\n", h.N, h.Mean, h.StdDev())
	// Output:
	// n=6 mean=2.0000 sd=0.8944 95% CI [1.2843, 2.7157]
	// n=6 mean=2.0000 sd=0.8944
}
