package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
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
	meanColor     = hex(0x1F4E79)
	bandColor     = hex(0xC6DBEF)
	exactColor    = hex(0xC0392B)
	adjustedColor = hex(0x228833)
	adjustedBand  = color.NRGBA{R: 0x22, G: 0x88, B: 0x33, A: 0x40}
)

// ConvergencePanel is one matchup's panel of a ConvergenceGrid.
type ConvergencePanel struct {
	// Title heads the panel (a matchup's players, say); it is wrapped, shrunk or cut to fit.
	Title string
	// Points is the raw running mean, as for Convergence.
	Points []ConvergencePoint
	// Adjusted, when not empty, is the luck-adjusted estimate of the same mean: a running mean
	// (two points or more, ordered as Points), drawn as a second line with its band, or the
	// estimate from all games (one point), drawn at its number of games as a marker with its
	// interval. Its points must be finite.
	Adjusted []ConvergencePoint
	// Exact, when not nil, is the exact value, drawn as a dashed line.
	Exact *float64
}

// Convergence plots the running mean of a simulated quantity against the
// number of games on a logarithmic x axis, with its 95% confidence band as
// a light filled area and, when exact is not nil, the exact value as a
// dashed horizontal line. The x axis is labelled "Games"; yLabel names the
// quantity. A legend above the plot names the lines.
//
// points must be non-empty, ordered by strictly increasing Games > 0, with
// means within ±MaxMagnitude and Lo <= Hi wherever both are finite (finite
// ends within ±MaxMagnitude too); *exact must be within ±MaxMagnitude.
func Convergence(title string, points []ConvergencePoint, exact *float64, yLabel string) (Figure, error) {
	return ConvergenceGrid(title, []ConvergencePanel{{Points: points, Exact: exact}}, yLabel)
}

// ConvergenceGrid draws one panel per element of panels, each as Convergence draws its plot
// (with the luck-adjusted estimate when there is one), side by side in rows under one legend,
// with the x axis label "Games" and yLabel shared. It takes 1 to MaxPanels panels, each valid as
// for Convergence.
func ConvergenceGrid(title string, panels []ConvergencePanel, yLabel string) (Figure, error) {
	pt, err := convergencePainter(title, panels, yLabel)
	if err != nil {
		return Figure{}, err
	}
	return pt.render()
}

func convergencePainter(title string, panels []ConvergencePanel, yLabel string) (painter, error) {
	if len(panels) == 0 || len(panels) > MaxPanels {
		return painter{}, inputErr("convergence: %d panels, want 1 to %d", len(panels), MaxPanels)
	}
	var has [4]bool // band, adjusted running, adjusted final, exact
	var ps []panel
	for i, pn := range panels {
		if err := checkConvergence(pn.Points, false); err != nil {
			return painter{}, inputErr("convergence: panel %d: %v", i, err)
		}
		if err := checkConvergence(pn.Adjusted, true); err != nil {
			return painter{}, inputErr("convergence: panel %d: luck-adjusted: %v", i, err)
		}
		if pn.Exact != nil && !plottable(*pn.Exact) {
			return painter{}, inputErr("convergence: panel %d: exact value is %v, not a number within ±%g", i, *pn.Exact, MaxMagnitude)
		}
		has[0] = has[0] || hasBand(pn.Points)
		has[1] = has[1] || len(pn.Adjusted) > 1
		has[2] = has[2] || len(pn.Adjusted) == 1
		has[3] = has[3] || pn.Exact != nil
		ps = append(ps, panel{title: pn.Title, draw: func(c draw.Canvas, tick font.Font) { convergencePlot(c, pn, tick) }})
	}
	var leg legend
	leg.entries = append(leg.entries, legendEntry{"Running mean (raw)", meanLine()})
	if has[0] {
		leg.entries = append(leg.entries, legendEntry{"its 95% interval", swatch{fill: bandColor}})
	}
	if has[1] {
		leg.entries = append(leg.entries, legendEntry{"Luck-adjusted running mean, 95% interval", adjustedLine()})
	}
	if has[2] {
		leg.entries = append(leg.entries, legendEntry{"Luck-adjusted mean of all games, 95% interval", estimate{}})
	}
	if has[3] {
		leg.entries = append(leg.entries, legendEntry{"Exact value", exactLine()})
	}
	return panelsPainter(title, ps, leg, "Games", yLabel), nil
}

// checkConvergence checks the points of a running mean; finite asks for finite intervals.
func checkConvergence(points []ConvergencePoint, finiteCI bool) error {
	if len(points) == 0 && !finiteCI {
		return fmt.Errorf("no points")
	}
	for i, pt := range points {
		switch {
		case pt.Games <= 0:
			return fmt.Errorf("point %d: games %d <= 0", i, pt.Games)
		case i > 0 && pt.Games <= points[i-1].Games:
			return fmt.Errorf("point %d: games %d not greater than %d", i, pt.Games, points[i-1].Games)
		case !plottable(pt.Mean):
			return fmt.Errorf("point %d: mean is %v, not a number within ±%g", i, pt.Mean, MaxMagnitude)
		case finiteCI && !(plottable(pt.Lo) && plottable(pt.Hi)):
			return fmt.Errorf("point %d: interval [%v, %v] is not finite within ±%g", i, pt.Lo, pt.Hi, MaxMagnitude)
		case finite(pt.Lo) && !plottable(pt.Lo), finite(pt.Hi) && !plottable(pt.Hi):
			return fmt.Errorf("point %d: interval [%v, %v] reaches beyond ±%g", i, pt.Lo, pt.Hi, MaxMagnitude)
		case finite(pt.Lo) && finite(pt.Hi) && pt.Lo > pt.Hi:
			return fmt.Errorf("point %d: lo %v > hi %v", i, pt.Lo, pt.Hi)
		}
	}
	return nil
}

// hasBand reports whether two consecutive points have finite intervals.
func hasBand(points []ConvergencePoint) bool {
	for i := 1; i < len(points); i++ {
		if finite(points[i-1].Lo) && finite(points[i-1].Hi) && finite(points[i].Lo) && finite(points[i].Hi) {
			return true
		}
	}
	return false
}

func meanLine() *plotter.Line {
	return &plotter.Line{LineStyle: draw.LineStyle{Color: meanColor, Width: vg.Points(1.5)}}
}

func adjustedLine() *plotter.Line {
	return &plotter.Line{LineStyle: draw.LineStyle{Color: adjustedColor, Width: vg.Points(1.5)},
		FillColor: adjustedBand}
}

func exactLine() *plotter.Line {
	return &plotter.Line{LineStyle: draw.LineStyle{Color: exactColor, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}}
}

// bands adds to p one polygon of colour fill per run of consecutive points with a finite interval.
func bands(p *plot.Plot, points []ConvergencePoint, fill color.Color) {
	add := func(run []ConvergencePoint) {
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
		p.Add(&plotter.Polygon{XYs: []plotter.XYs{ring}, Color: fill,
			LineStyle: draw.LineStyle{Color: fill, Width: vg.Points(0.5)}})
	}
	start := 0
	for i, pt := range points {
		if !finite(pt.Lo) || !finite(pt.Hi) {
			add(points[start:i])
			start = i + 1
		}
	}
	add(points[start:])
}

// line returns the running mean of points as a line in the style of proto.
func line(points []ConvergencePoint, proto *plotter.Line) *plotter.Line {
	xys := make(plotter.XYs, len(points))
	for i, pt := range points {
		xys[i] = plotter.XY{X: float64(pt.Games), Y: pt.Mean}
	}
	l := *proto
	l.XYs, l.FillColor = xys, nil
	return &l
}

// convergencePlot draws the plot of one panel on c.
func convergencePlot(c draw.Canvas, pn ConvergencePanel, tick font.Font) {
	p := newPlot("", "")
	p.X.Tick.Label.Font, p.Y.Tick.Label.Font = tick, tick
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.TickerFunc(logTicks)
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = gridColor, gridColor
	p.Add(grid)
	points := pn.Points
	bands(p, points, bandColor)
	if len(pn.Adjusted) > 1 {
		bands(p, pn.Adjusted, adjustedBand)
	}
	p.Add(line(points, meanLine()))
	if len(points) == 1 {
		p.Add(&plotter.Scatter{XYs: plotter.XYs{{X: float64(points[0].Games), Y: points[0].Mean}},
			GlyphStyle: draw.GlyphStyle{Color: meanColor, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}})
	}
	xmin, xmax := float64(points[0].Games), float64(points[len(points)-1].Games)
	switch len(pn.Adjusted) {
	case 0:
	case 1:
		a := pn.Adjusted[0]
		p.Add(estimate{x: float64(a.Games), mean: a.Mean, lo: a.Lo, hi: a.Hi})
		xmin, xmax = min(xmin, float64(a.Games)), max(xmax, float64(a.Games))
		xmax *= 1.3 // room for the marker
	default:
		p.Add(line(pn.Adjusted, adjustedLine()))
		xmin, xmax = min(xmin, float64(pn.Adjusted[0].Games)), max(xmax, float64(pn.Adjusted[len(pn.Adjusted)-1].Games))
	}
	if xmin == xmax {
		xmin, xmax = xmin/2, xmax*2
	}
	if pn.Exact != nil {
		l := exactLine()
		l.XYs = plotter.XYs{{X: xmin, Y: *pn.Exact}, {X: xmax, Y: *pn.Exact}}
		p.Add(l)
	}
	p.X.Min, p.X.Max = xmin, xmax
	if p.Y.Min == p.Y.Max {
		d := max(0.5, 0.1*math.Abs(p.Y.Min))
		p.Y.Min, p.Y.Max = p.Y.Min-d, p.Y.Max+d
	}
	drawPlot(p, c)
}

// estimate is a plotter of one estimate: a marker at (x, mean) on a vertical bar from lo to hi.
type estimate struct{ x, mean, lo, hi float64 }

// Plot implements plot.Plotter.
func (e estimate) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	x := trX(e.x)
	e.drawAt(c, x, trY(e.lo), trY(e.mean), trY(e.hi))
}

func (e estimate) drawAt(c draw.Canvas, x, lo, mid, hi vg.Length) {
	ls := draw.LineStyle{Color: adjustedColor, Width: vg.Points(1.5)}
	whisker := vg.Points(3)
	c.StrokeLine2(ls, x, lo, x, hi)
	c.StrokeLine2(ls, x-whisker, lo, x+whisker, lo)
	c.StrokeLine2(ls, x-whisker, hi, x+whisker, hi)
	c.DrawGlyph(draw.GlyphStyle{Color: adjustedColor, Radius: vg.Points(3), Shape: draw.PyramidGlyph{}}, vg.Point{X: x, Y: mid})
}

// DataRange implements plot.DataRanger.
func (e estimate) DataRange() (xmin, xmax, ymin, ymax float64) {
	return e.x, e.x, math.Min(e.lo, e.mean), math.Max(e.hi, e.mean)
}

// Thumbnail implements plot.Thumbnailer.
func (e estimate) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	e.drawAt(*c, x, c.Min.Y, c.Center().Y, c.Max.Y)
}
