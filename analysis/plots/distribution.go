package plots

import (
	"math"

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

// Distribution plots the simulated probability of each outcome as a bar,
// one category per label (e.g. "0", "0.5", "1", ...), with the exact
// probability as a second bar beside it when exact is not nil; a legend
// then names the two series. The y axis is labelled "Probability"; xLabel
// names the outcome. When the labels would overlap, only every k-th is
// printed.
//
// labels must be non-empty, at most MaxCells of them; simulated, and exact when not nil, must have
// one value within [0, MaxMagnitude] per label.
func Distribution(title string, simulated []float64, exact []float64, labels []string, xLabel string) (Figure, error) {
	pt, err := distributionPainter(title, simulated, exact, labels, xLabel)
	if err != nil {
		return Figure{}, err
	}
	return pt.render()
}

func distributionPainter(title string, simulated []float64, exact []float64, labels []string, xLabel string) (painter, error) {
	if len(labels) == 0 {
		return painter{}, inputErr("distribution: no labels")
	}
	if len(labels) > MaxCells {
		return painter{}, inputErr("distribution: %d labels, at most %d", len(labels), MaxCells)
	}
	if len(simulated) != len(labels) {
		return painter{}, inputErr("distribution: %d simulated values for %d labels", len(simulated), len(labels))
	}
	if exact != nil && len(exact) != len(labels) {
		return painter{}, inputErr("distribution: %d exact values for %d labels", len(exact), len(labels))
	}
	for _, series := range []struct {
		name string
		vs   []float64
	}{{"simulated", simulated}, {"exact", exact}} {
		for i, v := range series.vs {
			if !plottable(v) || v < 0 {
				return painter{}, inputErr("distribution: %s value %d (%q) is %v, not a number within [0, %g]", series.name, i, labels[i], v, MaxMagnitude)
			}
		}
	}
	return painter{WidthCM, HeightCM, func(dc draw.Canvas) {
		paintDistribution(dc, title, simulated, exact, labels, xLabel)
	}}, nil
}

func paintDistribution(dc draw.Canvas, title string, sim, exact []float64, labels []string, xLabel string) {
	c := drawFrame(dc, title)
	p := newPlot(xLabel, "Probability")
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = nil, gridColor
	p.Add(grid)

	simBars := &cells{edge: draw.LineStyle{Color: simEdgeColor, Width: vg.Points(0.5)}}
	exBars := &cells{edge: draw.LineStyle{Color: exactBarEdge, Width: vg.Points(0.5)}}
	top := 0.0
	for i := range labels {
		x := float64(i)
		if exact == nil {
			simBars.cells = append(simBars.cells, cell{x0: x - 0.35, x1: x + 0.35, y1: sim[i], fill: simColor})
		} else {
			simBars.cells = append(simBars.cells, cell{x0: x - 0.4, x1: x, y1: sim[i], fill: simColor})
			exBars.cells = append(exBars.cells, cell{x0: x, x1: x + 0.4, y1: exact[i], fill: exactBarColor})
			top = math.Max(top, exact[i])
		}
		top = math.Max(top, sim[i])
	}
	p.Add(simBars)
	leg := legend{boxed: true}
	if exact != nil {
		p.Add(exBars)
		leg.entries = []legendEntry{
			{"Simulated", swatch{simColor, simBars.edge}},
			{"Exact", swatch{exactBarColor, exBars.edge}},
		}
	}
	if top == 0 {
		top = 1
	}
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	p.Y.Min, p.Y.Max = 0, top*1.05
	p.X.Padding = 0
	p.Y.Padding = 0

	da := p.DataCanvas(c)
	p.X.Tick.Marker = nominalTicks(labels, da.Size().X, p.X.Tick.Label, false)
	if len(leg.entries) > 0 {
		_, lh := leg.size()
		headroom(p, c, lh+vg.Points(8))
	}
	p.Draw(c)
	da = p.DataCanvas(c)
	lw, _ := leg.size()
	leg.draw(c, da.Max.X-lw-vg.Points(4), da.Max.Y-vg.Points(4))
}
