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

func ExampleStudentCI() {
	// The paired differences of R's sleep data (extra hours of sleep, drug 1 minus drug 2).
	var d stats.Moments
	for _, x := range []float64{-1.2, -2.4, -1.3, -1.3, 0, -1.0, -1.8, -0.8, -4.6, -1.4} {
		d.Add(x)
	}
	lo, hi := stats.StudentCI(d, 0.95)
	nlo, nhi := stats.NormalCI(d, 0.95)
	fmt.Printf("mean %.2f, Student 95%% CI [%.4f, %.4f], normal [%.4f, %.4f]\n", d.Mean, lo, hi, nlo, nhi)
	// Output:
	// mean -1.58, Student 95% CI [-2.4599, -0.7001], normal [-2.3423, -0.8177]
}

func ExampleWilson() {
	// 81 successes in 263 trials, and no success in 20 (Newcombe 1998).
	lo, hi := stats.Wilson(81, 263, 0.95)
	fmt.Printf("81/263: [%.4f, %.4f]\n", lo, hi)
	lo, hi = stats.Wilson(0, 20, 0.95)
	fmt.Printf("0/20:   [%.4f, %.4f]\n", lo, hi)
	// Output:
	// 81/263: [0.2553, 0.3662]
	// 0/20:   [0.0000, 0.1611]
}

func ExampleWelch() {
	// R's sleep data: extra hours of sleep under two drugs, compared as independent groups.
	var a, b stats.Moments
	for _, x := range []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0} {
		a.Add(x)
	}
	for _, x := range []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4} {
		b.Add(x)
	}
	r := stats.Welch(a, b)
	fmt.Printf("diff %.2f, t = %.4f, df = %.3f, p = %.5f\n", r.Diff, r.T, r.DF, r.P)
	// Output:
	// diff -1.58, t = -1.8608, df = 17.776, p = 0.07939
}

func ExampleVarianceReduction() {
	// Four deals, each played in both seat orders; the per-game scores share the deal's luck.
	first := []float64{3, 7, 1, 9}
	second := []float64{2, 8, 0, 7}
	var x, y, diff stats.Moments
	for i := range first {
		x.Add(first[i])
		y.Add(second[i])
		diff.Add(first[i] - second[i])
	}
	fmt.Printf("pairing needs %.1f times fewer games\n", stats.VarianceReduction(x, y, diff))
	// Output:
	// pairing needs 17.8 times fewer games
}

func ExampleSPRT() {
	// Is A ahead of B by at least 0.5 pairs per deal? Errors of 5% either way.
	s, err := stats.NewSPRT(0.5, 0.05, 0.05)
	if err != nil {
		panic(err)
	}
	// Each batch is the per-deal leads of A from one round of deals.
	batches := [][]float64{
		{1, -1, 2, 0, 1, -2, 3, 1},
		{2, 0, 1, 1, -1, 2, 0, 1},
		{1, 2, -1, 1, 0, 2, 1, 1},
		{0, 1, 2, 1, 1, -1, 2, 1},
	}
	for i, batch := range batches {
		var m stats.Moments
		for _, x := range batch {
			m.Add(x)
		}
		s.Add(m)
		dec, llr := s.Decision()
		fmt.Printf("after batch %d: llr %+.3f, decision %+d\n", i+1, llr, dec)
		if dec != 0 {
			break
		}
	}
	// Output:
	// after batch 1: llr +0.587, decision +0
	// after batch 2: llr +2.064, decision +0
	// after batch 3: llr +4.246, decision +1
}

func ExamplePrecisionReached() {
	// Stop once both means are known to ±0.1 at 95% confidence.
	var a, b stats.Moments
	for i := range 400 {
		a.Add(float64(i%5) * 0.5) // values 0, 0.5, ..., 2
		b.Add(float64(i % 2))     // values 0 and 1
	}
	fmt.Printf("half-widths %.4f and %.4f\n", stats.HalfWidth(a, 0.95), stats.HalfWidth(b, 0.95))
	fmt.Println("±0.1 reached:", stats.PrecisionReached([]stats.Moments{a, b}, 0.95, 0.1))
	fmt.Println("±0.05 reached:", stats.PrecisionReached([]stats.Moments{a, b}, 0.95, 0.05))
	// Output:
	// half-widths 0.0696 and 0.0492
	// ±0.1 reached: true
	// ±0.05 reached: false
}

func ExampleBradleyTerry() {
	// wins[i][j]: games i won against j; a draw counts half a win for each side.
	names := []string{"greedy", "random", "expert"}
	wins := [][]float64{
		{0, 70, 30.5},
		{30, 0, 10},
		{69.5, 90, 0},
	}
	ratings, err := stats.BradleyTerry(names, wins, 0.95)
	if err != nil {
		panic(err)
	}
	for _, r := range ratings {
		fmt.Printf("%-6s %+.3f [%+.3f, %+.3f]\n", r.Name, r.Score, r.Lo, r.Hi)
	}
	// Output:
	// greedy +0.008 [-0.198, +0.215]
	// random -0.969 [-1.207, -0.732]
	// expert +0.961 [+0.724, +1.198]
}

func ExampleMedianCI() {
	// Eight timings of one benchmark, in games per second.
	runs := []float64{1510, 1480, 1532, 1497, 1605, 1488, 1521, 1502}
	mi := stats.MedianCI(runs, 0.95)
	if mi.OK {
		fmt.Printf("median %.1f, 95%% interval [%.0f, %.0f], coverage %.4f\n", mi.Median, mi.Lo, mi.Hi, mi.Coverage)
	}
	// Five runs are too few for a 95% interval.
	few := stats.MedianCI(runs[:5], 0.95)
	fmt.Printf("median %.1f, interval: %v\n", few.Median, few.OK)
	// Output:
	// median 1506.0, 95% interval [1480, 1532], coverage 0.9609
	// median 1510.0, interval: false
}
