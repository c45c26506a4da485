package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// EvaluationPoint is one point of a game's evaluation graph: a side's value after a number of
// moves.
type EvaluationPoint struct {
	// Move counts the decisions made so far (0 at the start), strictly increasing along a graph.
	Move int
	// Value is the side's value then, within [Lo, Hi] of the graph.
	Value float64
}

// Evaluation plots a game's evaluation graph, as chess players know it: one side's value after
// each move, as a line on a y axis from lo to hi (0 and 1 for a win score, 0 and the pairs dealt
// for expected pairs), with a dashed line at even, the value of an even game (1/2 for a win
// score, half the pairs for pairs). The x axis is labelled xLabel, the y axis yLabel; label names
// the line.
//
// points must be non-empty, with strictly increasing moves from 0 and values within [lo, hi];
// lo < hi and even within them, all within ±MaxMagnitude.
func Evaluation(title string, points []EvaluationPoint, lo, hi, even float64, label, xLabel, yLabel string) (Figure, error) {
	if err := checkEvaluation(points, lo, hi, even); err != nil {
		return Figure{}, inputErr("evaluation: %v", err)
	}
	ps := []panel{{draw: func(c draw.Canvas, tick font.Font) { evaluationPlot(c, points, lo, hi, even, tick) }}}
	leg := legend{entries: []legendEntry{{label, meanLine()}, {"an even game", exactLine()}}}
	return panelsPainter(title, ps, leg, xLabel, yLabel).render()
}

// checkEvaluation checks a graph's points and bounds.
func checkEvaluation(points []EvaluationPoint, lo, hi, even float64) error {
	switch {
	case len(points) == 0:
		return fmt.Errorf("no points")
	case len(points) > MaxCells:
		return fmt.Errorf("%d points, at most %d", len(points), MaxCells)
	case !plottable(lo) || !plottable(hi) || !(lo < hi):
		return fmt.Errorf("the y axis [%v, %v] is not an interval within ±%g", lo, hi, MaxMagnitude)
	case !(even >= lo && even <= hi):
		return fmt.Errorf("even %v is outside [%v, %v]", even, lo, hi)
	}
	for i, pt := range points {
		switch {
		case i == 0 && pt.Move < 0, i > 0 && pt.Move <= points[i-1].Move:
			return fmt.Errorf("point %d: move %d does not follow %d", i, pt.Move, points[max(i-1, 0)].Move)
		case !(pt.Value >= lo && pt.Value <= hi):
			return fmt.Errorf("point %d: value %v is outside [%v, %v]", i, pt.Value, lo, hi)
		}
	}
	return nil
}

// evaluationPlot draws the graph on c.
func evaluationPlot(c draw.Canvas, points []EvaluationPoint, lo, hi, even float64, tick font.Font) {
	p := newPlot("", "")
	p.X.Tick.Label.Font, p.Y.Tick.Label.Font = tick, tick
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = nil, gridColor
	p.Add(grid)
	xys := make(plotter.XYs, len(points))
	for i, pt := range points {
		xys[i] = plotter.XY{X: float64(pt.Move), Y: pt.Value}
	}
	first, last := float64(points[0].Move), float64(points[len(points)-1].Move)
	if first == last {
		last = first + 1
	}
	l := exactLine()
	l.XYs = plotter.XYs{{X: first, Y: even}, {X: last, Y: even}}
	p.Add(l)
	m := meanLine()
	m.XYs = xys
	p.Add(m)
	p.Add(&plotter.Scatter{XYs: xys, GlyphStyle: draw.GlyphStyle{Color: meanColor, Radius: vg.Points(1.2), Shape: draw.CircleGlyph{}}})
	p.X.Min, p.X.Max = first, last
	p.Y.Min, p.Y.Max = lo, hi
	p.Y.Tick.Marker = plot.TickerFunc(linearTicks)
	drawPlot(p, c)
}
