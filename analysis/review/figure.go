package review

import (
	"fmt"

	"memsim/analysis/field"
	"memsim/analysis/plots"
)

// Figure draws the review's evaluation graph, as chess players know it: seat 0's win score,
// P(win) + P(draw)/2, after each decision (its expected pairs when the review has no win
// scores), with the value of an even game dashed. f is the arithmetic of the review's values.
func Figure[T any](f field.Field[T], r *Review[T]) (plots.Figure, error) {
	names := [2]string{r.Seats[0].Name, r.Seats[1].Name}
	for i := range names {
		if names[i] == "" {
			names[i] = fmt.Sprintf("seat %d", i)
		}
	}
	lo, hi, even, what := 0.0, 1.0, 0.5, "win score, P(win) + P(draw)/2"
	if !r.Win {
		pairs := float64(r.Game.Rules.Pairs)
		hi, even, what = pairs, pairs/2, "expected pairs"
	}
	var pts []plots.EvaluationPoint
	for i, p := range r.Evaluation() {
		v := p.Win
		if !r.Win {
			v = p.Pairs
		}
		// In float64 a value may stray past its bounds by a rounding error.
		pts = append(pts, plots.EvaluationPoint{Move: i, Value: min(hi, max(lo, f.Float64(v)))})
	}
	title := fmt.Sprintf("%s against %s: the %s of seat 0 after each decision", names[0], names[1], what)
	label := fmt.Sprintf("seat 0 (%s)", names[0])
	yLabel := "Win score"
	if !r.Win {
		yLabel = "Expected pairs"
	}
	return plots.Evaluation(title, pts, lo, hi, even, label, "Decisions", yLabel)
}
