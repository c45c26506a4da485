package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ConvergencePoint is the running mean of a simulated quantity after a
// number of games, with its 95% confidence interval [Lo, Hi].
type ConvergencePoint struct {
	// Games is the number of games played so far (> 0).
	Games int64
	// Mean is the running mean after Games games; it must be within
	// ±MaxMagnitude.
	Mean float64
	// Lo and Hi bound the 95% confidence interval. A point whose Lo or
	// Hi is NaN or infinite (e.g. an interval not yet defined after one
	// game) is left out of the band.
	Lo, Hi float64
}

var (
	meanColor  = hex(0x1F4E79)
	bandColor  = hex(0xC6DBEF)
	exactColor = hex(0xC0392B)
)

// Convergence plots the running mean of a simulated quantity against the
// number of games on a logarithmic x axis, with its 95% confidence band as
// a light filled area and, when exact is not nil, the exact value as a
// dashed horizontal line. The x axis is labelled "Games"; yLabel names the
// quantity. A legend is drawn in the upper right corner; the y axis is
// extended upwards so that the legend never hides data.
//
// points must be non-empty, ordered by strictly increasing Games > 0, with
// means within ±MaxMagnitude and Lo <= Hi wherever both are finite (finite
// ends within ±MaxMagnitude too); *exact must be within ±MaxMagnitude.
func Convergence(title string, points []ConvergencePoint, exact *float64, yLabel string) (Figure, error) {
	pt, err := convergencePainter(title, points, exact, yLabel)
	if err != nil {
		return Figure{}, err
	}
	return pt.render()
}

func convergencePainter(title string, points []ConvergencePoint, exact *float64, yLabel string) (painter, error) {
	if len(points) == 0 {
		return painter{}, inputErr("convergence: no points")
	}
	for i, pt := range points {
		switch {
		case pt.Games <= 0:
			return painter{}, inputErr("convergence: point %d: games %d <= 0", i, pt.Games)
		case i > 0 && pt.Games <= points[i-1].Games:
			return painter{}, inputErr("convergence: point %d: games %d not greater than %d", i, pt.Games, points[i-1].Games)
		case !plottable(pt.Mean):
			return painter{}, inputErr("convergence: point %d: mean is %v, not a number within ±%g", i, pt.Mean, MaxMagnitude)
		case finite(pt.Lo) && !plottable(pt.Lo), finite(pt.Hi) && !plottable(pt.Hi):
			return painter{}, inputErr("convergence: point %d: interval [%v, %v] reaches beyond ±%g", i, pt.Lo, pt.Hi, MaxMagnitude)
		case finite(pt.Lo) && finite(pt.Hi) && pt.Lo > pt.Hi:
			return painter{}, inputErr("convergence: point %d: lo %v > hi %v", i, pt.Lo, pt.Hi)
		}
	}
	if exact != nil && !plottable(*exact) {
		return painter{}, inputErr("convergence: exact value is %v, not a number within ±%g", *exact, MaxMagnitude)
	}
	return painter{WidthCM, HeightCM, func(dc draw.Canvas) {
		paintConvergence(dc, title, points, exact, yLabel)
	}}, nil
}

func paintConvergence(dc draw.Canvas, title string, points []ConvergencePoint, exact *float64, yLabel string) {
	c := drawFrame(dc, title)
	p := newPlot("Games", yLabel)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.TickerFunc(logTicks)
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = gridColor, gridColor
	p.Add(grid)

	// Band: one polygon per run of consecutive points with a finite interval.
	var bands []*plotter.Polygon
	addBand := func(run []ConvergencePoint) {
		if len(run) < 2 {
			return
		}
		ring := make(plotter.XYs, 0, 2*len(run))
		for _, pt := range run {
			ring = append(ring, plotter.XY{X: float64(pt.Games), Y: pt.Hi})
		}
		for i := len(run) - 1; i >= 0; i-- {
			ring = append(ring, plotter.XY{X: float64(run[i].Games), Y: run[i].Lo})
		}
		b := &plotter.Polygon{XYs: []plotter.XYs{ring}, Color: bandColor,
			LineStyle: draw.LineStyle{Color: bandColor, Width: vg.Points(0.5)}}
		bands = append(bands, b)
		p.Add(b)
	}
	start := 0
	for i, pt := range points {
		if !finite(pt.Lo) || !finite(pt.Hi) {
			addBand(points[start:i])
			start = i + 1
		}
	}
	addBand(points[start:])

	mean := make(plotter.XYs, len(points))
	for i, pt := range points {
		mean[i] = plotter.XY{X: float64(pt.Games), Y: pt.Mean}
	}
	meanLine := &plotter.Line{XYs: mean, LineStyle: draw.LineStyle{Color: meanColor, Width: vg.Points(1.5)}}
	p.Add(meanLine)
	if len(points) == 1 {
		s := &plotter.Scatter{XYs: mean, GlyphStyle: draw.GlyphStyle{Color: meanColor, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}}
		p.Add(s)
	}

	xmin, xmax := float64(points[0].Games), float64(points[len(points)-1].Games)
	if xmin == xmax {
		xmin, xmax = xmin/2, xmax*2
	}
	leg := legend{boxed: true}
	leg.entries = append(leg.entries, legendEntry{"Running mean", meanLine})
	if len(bands) > 0 {
		leg.entries = append(leg.entries, legendEntry{"95% confidence band", bands[0]})
	}
	if exact != nil {
		l := &plotter.Line{
			XYs:       plotter.XYs{{X: xmin, Y: *exact}, {X: xmax, Y: *exact}},
			LineStyle: draw.LineStyle{Color: exactColor, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}},
		}
		p.Add(l)
		leg.entries = append(leg.entries, legendEntry{"Exact value", l})
	}
	p.X.Min, p.X.Max = xmin, xmax
	if p.Y.Min == p.Y.Max {
		d := max(0.5, 0.1*math.Abs(p.Y.Min))
		p.Y.Min, p.Y.Max = p.Y.Min-d, p.Y.Max+d
	}
	_, lh := leg.size()
	headroom(p, c, lh+vg.Points(8))
	p.Draw(c)

	da := p.DataCanvas(c)
	lw, _ := leg.size()
	leg.draw(c, da.Max.X-lw-vg.Points(4), da.Max.Y-vg.Points(4))
}
