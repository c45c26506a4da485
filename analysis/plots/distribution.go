package plots

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var (
	simColor      = hex(0x4477AA)
	simEdgeColor  = hex(0x2B4F73)
	exactBarColor = hex(0xEE7733)
	exactBarEdge  = hex(0xA84F1E)
)

// DistributionPanel is one matchup's panel of a DistributionGrid.
type DistributionPanel struct {
	// Title heads the panel (a matchup's players, say); it is wrapped, shrunk or cut to fit.
	Title string
	// X lists the outcomes (pairs collected, say), strictly increasing, each within
	// ±MaxMagnitude; Simulated, and Exact when not nil, give the probability of each, within
	// [0, MaxMagnitude].
	X, Simulated, Exact []float64
}

// Distribution plots the simulated probability of each outcome x[i] as a bar
// on a numeric x axis, with the exact probability as a second bar beside it
// when exact is not nil; a legend then names the two series. The y axis is
// labelled "Probability"; xLabel names the outcome. Whole numbers are
// labelled at a regular step (1, 2, 5, 10, ...), so that outcomes such as
// half pairs fall between the labelled ticks.
//
// x must be non-empty and strictly increasing, of at most MaxCells values
// within ±MaxMagnitude; simulated, and exact when not nil, must have one
// value within [0, MaxMagnitude] per outcome.
func Distribution(title string, x, simulated, exact []float64, xLabel string) (Figure, error) {
	return DistributionGrid(title, []DistributionPanel{{X: x, Simulated: simulated, Exact: exact}}, xLabel)
}

// DistributionGrid draws one panel per element of panels, each as Distribution draws its plot,
// side by side in rows under one legend, with the axis labels xLabel and "Probability" shared.
// It takes 1 to MaxPanels panels, each valid as for Distribution, of at most MaxCells outcomes
// together.
func DistributionGrid(title string, panels []DistributionPanel, xLabel string) (Figure, error) {
	pt, err := distributionPainter(title, panels, xLabel)
	if err != nil {
		return Figure{}, err
	}
	return pt.render()
}

func distributionPainter(title string, panels []DistributionPanel, xLabel string) (painter, error) {
	if len(panels) == 0 || len(panels) > MaxPanels {
		return painter{}, inputErr("distribution: %d panels, want 1 to %d", len(panels), MaxPanels)
	}
	total, hasExact := 0, false
	var ps []panel
	for i, pn := range panels {
		if total += len(pn.X); total > MaxCells {
			return painter{}, inputErr("distribution: more than %d outcomes", MaxCells)
		}
		if err := checkDistribution(pn); err != nil {
			return painter{}, inputErr("distribution: panel %d: %v", i, err)
		}
		hasExact = hasExact || pn.Exact != nil
		ps = append(ps, panel{title: pn.Title, draw: func(c draw.Canvas, tick font.Font) { distributionPlot(c, pn, tick) }})
	}
	leg := legend{entries: []legendEntry{{"Simulated", swatch{simColor, simEdge}}}}
	if hasExact {
		leg.entries = append(leg.entries, legendEntry{"Exact", swatch{exactBarColor, exactEdge}})
	}
	return panelsPainter(title, ps, leg, xLabel, "Probability"), nil
}

var (
	simEdge   = draw.LineStyle{Color: simEdgeColor, Width: vg.Points(0.5)}
	exactEdge = draw.LineStyle{Color: exactBarEdge, Width: vg.Points(0.5)}
)

// checkDistribution checks the values of one panel.
func checkDistribution(pn DistributionPanel) error {
	if len(pn.X) == 0 {
		return fmt.Errorf("no outcomes")
	}
	if len(pn.Simulated) != len(pn.X) {
		return fmt.Errorf("%d simulated values for %d outcomes", len(pn.Simulated), len(pn.X))
	}
	if pn.Exact != nil && len(pn.Exact) != len(pn.X) {
		return fmt.Errorf("%d exact values for %d outcomes", len(pn.Exact), len(pn.X))
	}
	for i, x := range pn.X {
		switch {
		case !plottable(x):
			return fmt.Errorf("outcome %d is %v, not a number within ±%g", i, x, MaxMagnitude)
		case i > 0 && x <= pn.X[i-1]:
			return fmt.Errorf("outcome %d (%v) not greater than %v", i, x, pn.X[i-1])
		}
	}
	for _, series := range []struct {
		name string
		vs   []float64
	}{{"simulated", pn.Simulated}, {"exact", pn.Exact}} {
		for i, v := range series.vs {
			if !plottable(v) || v < 0 {
				return fmt.Errorf("%s value %d (outcome %v) is %v, not a number within [0, %g]", series.name, i, pn.X[i], v, MaxMagnitude)
			}
		}
	}
	return nil
}

// distributionPlot draws the plot of one panel on c.
func distributionPlot(c draw.Canvas, pn DistributionPanel, tick font.Font) {
	p := newPlot("", "")
	p.X.Tick.Label.Font, p.Y.Tick.Label.Font = tick, tick
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = nil, gridColor
	p.Add(grid)

	// The bars are as wide as the closest outcomes allow.
	step := 1.0
	for i := 1; i < len(pn.X); i++ {
		if d := pn.X[i] - pn.X[i-1]; i == 1 || d < step {
			step = d
		}
	}
	simBars := &cells{edge: simEdge}
	exBars := &cells{edge: exactEdge}
	top := 0.0
	for i, x := range pn.X {
		if pn.Exact == nil {
			simBars.cells = append(simBars.cells, cell{x0: x - 0.35*step, x1: x + 0.35*step, y1: pn.Simulated[i], fill: simColor})
		} else {
			simBars.cells = append(simBars.cells, cell{x0: x - 0.4*step, x1: x, y1: pn.Simulated[i], fill: simColor})
			exBars.cells = append(exBars.cells, cell{x0: x, x1: x + 0.4*step, y1: pn.Exact[i], fill: exactBarColor})
			top = math.Max(top, pn.Exact[i])
		}
		top = math.Max(top, pn.Simulated[i])
	}
	p.Add(simBars)
	if pn.Exact != nil {
		p.Add(exBars)
	}
	if top == 0 {
		top = 1
	}
	p.X.Min, p.X.Max = pn.X[0]-0.5*step, pn.X[len(pn.X)-1]+0.5*step
	p.Y.Min, p.Y.Max = 0, top*1.05
	p.X.Padding, p.Y.Padding = 0, 0
	// Whole numbers at a round step, as many as fit the axis.
	da := p.DataCanvas(c)
	widest := max(p.X.Tick.Label.Width(strconv.FormatFloat(math.Round(p.X.Min), 'f', -1, 64)),
		p.X.Tick.Label.Width(strconv.FormatFloat(math.Round(p.X.Max), 'f', -1, 64)))
	labels := max(2, int(da.Size().X/(widest+vg.Points(10))))
	p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick { return intTicksUpTo(lo, hi, labels) })
	drawPlot(p, c)
}
