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
	return evaluationFigure(f, [2]string{r.Seats[0].Name, r.Seats[1].Name}, r.Win, r.Game.Rules.Pairs, r.Evaluation(), "decision")
}

// VariantFigure draws the evaluation graph of the review of a game under a rule variant: seat 0's
// win score (its expected pairs when the review has no win scores) at each of the game's
// decisions, a turn each, from the start to its result.
func VariantFigure[T any](f field.Field[T], r *VariantReview[T]) (plots.Figure, error) {
	if len(r.Through) == 0 {
		return plots.Figure{}, fmt.Errorf("the game has no decision to draw")
	}
	return evaluationFigure(f, [2]string{r.Seats[0].Name, r.Seats[1].Name}, r.Win, r.Game.Rules.Pairs, r.Through, "turn decision")
}

// evaluationFigure draws seat 0's values at the points of a game, a decision (of kind what)
// apart.
func evaluationFigure[T any](f field.Field[T], names [2]string, win bool, pairs int, points []Point[T], what string) (plots.Figure, error) {
	for i := range names {
		if names[i] == "" {
			names[i] = fmt.Sprintf("seat %d", i)
		}
	}
	lo, hi, even, value := 0.0, 1.0, 0.5, "win score, P(win) + P(draw)/2"
	if !win {
		hi, even, value = float64(pairs), float64(pairs)/2, "expected pairs"
	}
	var pts []plots.EvaluationPoint
	for i, p := range points {
		v := p.Win
		if !win {
			v = p.Pairs
		}
		// In float64 a value may stray past its bounds by a rounding error.
		pts = append(pts, plots.EvaluationPoint{Move: i, Value: min(hi, max(lo, f.Float64(v)))})
	}
	title := fmt.Sprintf("%s against %s: the %s of seat 0 after each %s", names[0], names[1], value, what)
	label := fmt.Sprintf("seat 0 (%s)", names[0])
	yLabel := "Win score"
	if !win {
		yLabel = "Expected pairs"
	}
	xLabel := "Decisions"
	if what != "decision" {
		xLabel = "Turn decisions"
	}
	return plots.Evaluation(title, pts, lo, hi, even, label, xLabel, yLabel)
}
