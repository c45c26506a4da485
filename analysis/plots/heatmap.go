package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Palette selects the colour scale of a HeatMap.
type Palette int

const (
	// Diverging suits signed values: a red–white–blue scale (ColorBrewer
	// RdBu) centred at 0, running from -m (deep red) through 0 (white) to
	// +m (deep blue), where m is the largest absolute value.
	Diverging Palette = iota
	// Sequential suits values of one sign: a white-to-dark-blue scale
	// (ColorBrewer Blues) from the smallest to the largest value.
	Sequential
)

// String returns the palette name.
func (p Palette) String() string {
	switch p {
	case Diverging:
		return "Diverging"
	case Sequential:
		return "Sequential"
	}
	return fmt.Sprintf("Palette(%d)", int(p))
}

// AnnotateLimit is the largest number of rows, and of columns, for which
// HeatMap prints each cell's value (format %.2f) inside the cell.
const AnnotateLimit = 12

var (
	nanColor      = hex(0xD9D9D9)
	divergingRamp = []color.RGBA{
		hex(0xB2182B), hex(0xEF8A62), hex(0xFDDBC7), hex(0xF7F7F7),
		hex(0xD1E5F0), hex(0x67A9CF), hex(0x2166AC),
	}
	sequentialRamp = []color.RGBA{
		hex(0xF7FBFF), hex(0xDEEBF7), hex(0xC6DBEF), hex(0x9ECAE1), hex(0x6BAED6),
		hex(0x4292C6), hex(0x2171B5), hex(0x08519C), hex(0x08306B),
	}
)

// ramp interpolates linearly between the colours of r at t in [0, 1].
func ramp(r []color.RGBA, t float64) color.RGBA {
	t = math.Min(math.Max(t, 0), 1) * float64(len(r)-1)
	i := int(math.Floor(t))
	if i >= len(r)-1 {
		return r[len(r)-1]
	}
	f := t - float64(i)
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + f*(float64(b)-float64(a)))) }
	a, b := r[i], r[i+1]
	return color.RGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 0xFF}
}

// scale maps values to colours for a palette over the finite values of a grid.
type scale struct {
	lo, hi float64
	r      []color.RGBA
}

func newScale(p Palette, values [][]float64) scale {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range values {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if p == Diverging {
		m := math.Max(math.Abs(lo), math.Abs(hi))
		if math.IsInf(m, 0) || m == 0 {
			m = 1
		}
		return scale{lo: -m, hi: m, r: divergingRamp}
	}
	switch {
	case math.IsInf(lo, 0):
		lo, hi = 0, 1
	case lo == hi:
		lo, hi = lo-0.5, hi+0.5
	}
	return scale{lo: lo, hi: hi, r: sequentialRamp}
}

func (s scale) color(v float64) color.Color {
	if math.IsNaN(v) {
		return nanColor
	}
	return ramp(s.r, (v-s.lo)/(s.hi-s.lo))
}

// HeatMap draws values as a grid of (nearly square) coloured cells: values[i][k] is the
// cell in row i (rows[i], first row at the top) and column k (cols[k]).
// A colour bar at the right gives the scale, chosen by palette. NaN cells
// are drawn grey (a "no data" swatch is then added below the colour bar);
// when the grid has at most AnnotateLimit rows and columns, each other cell
// shows its value formatted with %.2f. Long column labels are slanted and,
// like row labels, thinned out when they would overlap.
//
// It suits, for example, a tournament matrix with rows = player,
// cols = opponent and value = mean lead (Diverging palette).
//
// rows and cols must be non-empty, of at most MaxCells cells together,
// values must have len(rows) rows of len(cols) values each, and every value must be NaN or within
// ±MaxMagnitude.
func HeatMap(title string, rows, cols []string, values [][]float64, xLabel, yLabel string, palette Palette) (Figure, error) {
	pt, err := heatMapPainter(title, rows, cols, values, xLabel, yLabel, palette)
	if err != nil {
		return Figure{}, err
	}
	return pt.render()
}

func heatMapPainter(title string, rows, cols []string, values [][]float64, xLabel, yLabel string, palette Palette) (painter, error) {
	if len(rows) == 0 || len(cols) == 0 {
		return painter{}, inputErr("heat map: %d rows and %d columns", len(rows), len(cols))
	}
	if len(rows) > MaxCells/len(cols) {
		return painter{}, inputErr("heat map: %d rows and %d columns, at most %d cells", len(rows), len(cols), MaxCells)
	}
	if palette != Diverging && palette != Sequential {
		return painter{}, inputErr("heat map: unknown palette %v", palette)
	}
	if len(values) != len(rows) {
		return painter{}, inputErr("heat map: %d value rows for %d row labels", len(values), len(rows))
	}
	for i, row := range values {
		if len(row) != len(cols) {
			return painter{}, inputErr("heat map: row %d has %d values for %d columns", i, len(row), len(cols))
		}
		for k, v := range row {
			if !math.IsNaN(v) && !plottable(v) {
				return painter{}, inputErr("heat map: value [%d][%d] is %v, not a number within ±%g", i, k, v, MaxMagnitude)
			}
		}
	}
	return painter{WidthCM, SquareHeightCM, func(dc draw.Canvas) {
		paintHeatMap(dc, title, rows, cols, values, xLabel, yLabel, palette)
	}}, nil
}

// gridPlot returns a plot for a grid of unit cells centred at integer
// coordinates 0..ncols-1 × 0..nrows-1, without axis lines.
func gridPlot(xLabel, yLabel string, ncols, nrows int) *plot.Plot {
	p := newPlot(xLabel, yLabel)
	p.X.Min, p.X.Max = -0.5, float64(ncols)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(nrows)-0.5
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Width = 0
		ax.Padding = vg.Points(2)
		ax.Tick.Length = vg.Points(3)
	}
	return p
}

// maxAspect is the largest ratio of the longer to the shorter side of a
// grid cell.
const maxAspect = 1.25

// fitGrid crops c, keeping room of width side (plus a gap) at the right,
// so that p drawn on the result has nearly square cells (see maxAspect). It returns the canvas for
// p and the canvas for the side content, whose vertical extent matches the
// data area of p.
func fitGrid(p *plot.Plot, c draw.Canvas, side vg.Length, ncols, nrows int) (main, aside draw.Canvas) {
	gap := vg.Points(10)
	main = draw.Crop(c, 0, -(side + gap), 0, 0)
	da := p.DataCanvas(main)
	cw, ch := da.Size().X/vg.Length(ncols), da.Size().Y/vg.Length(nrows)
	switch {
	case cw > ch*maxAspect:
		slack := (cw - ch*maxAspect) * vg.Length(ncols)
		main = draw.Crop(main, slack/2, -slack/2, 0, 0)
	case ch > cw*maxAspect:
		slack := (ch - cw*maxAspect) * vg.Length(nrows)
		main = draw.Crop(main, 0, 0, slack, 0)
	}
	da = p.DataCanvas(main)
	aside = draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: main.Max.X + gap, Y: da.Min.Y},
		Max: vg.Point{X: main.Max.X + gap + side, Y: da.Max.Y},
	}}
	return main, aside
}

func paintHeatMap(dc draw.Canvas, title string, rows, cols []string, values [][]float64, xLabel, yLabel string, palette Palette) {
	c := drawFrame(dc, title)
	nr, nc := len(rows), len(cols)
	p := gridPlot(xLabel, yLabel, nc, nr)
	p.X.Tick.Length, p.Y.Tick.Length = 0, 0
	sc := newScale(palette, values)

	cs := &cells{}
	if nr <= 30 && nc <= 30 {
		cs.edge = draw.LineStyle{Color: color.White, Width: vg.Points(1)}
	}
	annotate := nr <= AnnotateLimit && nc <= AnnotateLimit
	if annotate {
		cs.labelSize = 10
	}
	hasNaN := false
	for i, row := range values {
		y := float64(nr - 1 - i)
		for k, v := range row {
			e := cell{x0: float64(k) - 0.5, x1: float64(k) + 0.5, y0: y - 0.5, y1: y + 0.5, fill: sc.color(v)}
			if math.IsNaN(v) {
				hasNaN = true
			} else if annotate {
				e.label = fmt.Sprintf("%.2f", v)
				if e.label == "-0.00" {
					e.label = "0.00"
				}
			}
			cs.cells = append(cs.cells, e)
		}
	}
	p.Add(cs)

	// Row labels, first row at the top.
	ylabels := make([]string, nr)
	for i, r := range rows {
		ylabels[nr-1-i] = r
	}

	bar := colorBar{sc: sc}
	var extra legend
	if hasNaN {
		extra.entries = []legendEntry{{"no data", swatch{nanColor, draw.LineStyle{Color: color.Gray{Y: 0x99}, Width: vg.Points(0.5)}}}}
	}
	side := bar.width()
	if w, _ := extra.size(); hasNaN && w > side {
		side = w
	}
	layoutGridLabels(p, c, side, cols, ylabels)
	main, aside := fitGrid(p, c, side, nc, nr)
	p.Draw(main)

	if hasNaN {
		_, lh := extra.size()
		aside.Min.Y += lh + vg.Points(6)
		extra.draw(c, aside.Min.X-legendPad, aside.Min.Y-vg.Points(6))
	}
	bar.draw(aside)
}

// maxLabelShare bounds the length of a grid's row labels to this share of the figure's width, and
// of its column labels (turned upright) to this share of its height; longer labels end in an
// ellipsis.
const maxLabelShare = 0.35

// layoutGridLabels labels every column and row of the grid plot p, drawn by fitGrid on c with
// side beside it: column labels upright when they fit their cells, else turned to read upwards;
// both in a font shrunk (down to minTickSize) until each label fits its cell. Only a grid too
// fine for labels of minTickSize labels every k-th row or column.
func layoutGridLabels(p *plot.Plot, c draw.Canvas, side vg.Length, cols, rows []string) {
	nc, nr := len(cols), len(rows)
	rows = fitLabels(rows, p.Y.Tick.Label, maxLabelShare*c.Size().X)
	p.X.Tick.Marker = labelTicks(cols, 1)
	p.Y.Tick.Marker = labelTicks(rows, 1)
	cell := func() (w, h vg.Length) {
		main, _ := fitGrid(p, c, side, nc, nr)
		da := p.DataCanvas(main)
		return da.Size().X / vg.Length(nc), da.Size().Y / vg.Length(nr)
	}
	const gap = 3 * vg.Length(1) // between neighbouring labels
	if w, _ := cell(); maxWidth(p.X.Tick.Label, cols)+gap > w {
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
		cols = fitLabels(cols, p.X.Tick.Label, maxLabelShare*c.Size().Y)
		p.X.Tick.Marker = labelTicks(cols, 1)
	}
	// Shrinking the labels widens the cells: a few rounds settle the sizes.
	for range 3 {
		w, h := cell()
		if p.X.Tick.Label.Rotation == 0 {
			p.X.Tick.Label = shrinkTo(p.X.Tick.Label, func(s text.Style) bool { return maxWidth(s, cols)+gap <= w })
		} else {
			p.X.Tick.Label = shrinkTo(p.X.Tick.Label, func(s text.Style) bool { return lineHeight(s)+gap <= w })
		}
		p.Y.Tick.Label = shrinkTo(p.Y.Tick.Label, func(s text.Style) bool { return lineHeight(s)+gap <= h })
	}
	w, h := cell()
	need := lineHeight(p.X.Tick.Label)
	if p.X.Tick.Label.Rotation == 0 {
		need = maxWidth(p.X.Tick.Label, cols)
	}
	p.X.Tick.Marker = labelTicks(cols, every(need+gap, w))
	p.Y.Tick.Marker = labelTicks(rows, every(lineHeight(p.Y.Tick.Label)+gap, h))
}

// shrinkTo returns sty in the largest font size, down to minTickSize in steps of sizeStep, for
// which fits holds (minTickSize if none).
func shrinkTo(sty text.Style, fits func(text.Style) bool) text.Style {
	for size := sty.Font.Size; size > minTickSize && !fits(sty); {
		size = max(size-sizeStep, minTickSize)
		sty.Font = font.From(sty.Font, size)
	}
	return sty
}

// lineHeight returns the height of a line of text in sty.
func lineHeight(sty text.Style) vg.Length { return sty.Height("Ag") }

// every returns the least k of 1, 2, 5, 10, 20, 50, ... for which labels that need need of an
// axis each fit, one every k cells of size cell.
func every(need, cell vg.Length) int {
	for mag := 1; mag < 1<<30; mag *= 10 {
		for _, f := range []int{1, 2, 5} {
			if need <= vg.Length(f*mag)*cell {
				return f * mag
			}
		}
	}
	return 1 << 30
}

// labelTicks puts labels[i] at i for every i that is a multiple of k, and a minor tick at the
// others.
func labelTicks(labels []string, k int) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(labels))
	for i, l := range labels {
		ticks[i].Value = float64(i)
		if i%k == 0 {
			ticks[i].Label = l
			if l == "" {
				ticks[i].Label = " " // an empty label would make a minor tick
			}
		}
	}
	return ticks
}

// maxWidth returns the largest unrotated width of the texts in sty.
func maxWidth(sty text.Style, texts []string) vg.Length {
	sty.Rotation = 0
	var w vg.Length
	for _, t := range texts {
		w = max(w, sty.Width(t))
	}
	return w
}

// colorBar is a vertical colour scale with ticks and labels at its right.
type colorBar struct{ sc scale }

const (
	barWidth = 0.45 * vg.Centimeter
	barTick  = 3 * vg.Length(1)
	barGap   = 2 * vg.Length(1)
	barSteps = 64
)

func (b colorBar) ticks() []plot.Tick {
	return linearTicks(b.sc.lo, b.sc.hi)
}

func (b colorBar) style() text.Style {
	return textStyle(sansFont, tickSize, draw.XLeft, draw.YCenter)
}

// width returns the width of the bar with its labels.
func (b colorBar) width() vg.Length {
	var w vg.Length
	sty := b.style()
	for _, t := range b.ticks() {
		w = max(w, sty.Width(t.Label))
	}
	return barWidth + barTick + barGap + w
}

// draw draws the bar at the left of c, over its full height.
func (b colorBar) draw(c draw.Canvas) {
	top, bot := c.Max.Y, c.Min.Y
	h := top - bot
	x0, x1 := c.Min.X, c.Min.X+barWidth
	y := func(v float64) vg.Length {
		return bot + h*vg.Length((v-b.sc.lo)/(b.sc.hi-b.sc.lo))
	}
	// The scale's range times barSteps stays finite: the values are within ±MaxMagnitude.
	for i := range barSteps {
		lo := b.sc.lo + (b.sc.hi-b.sc.lo)*float64(i)/barSteps
		hi := b.sc.lo + (b.sc.hi-b.sc.lo)*float64(i+1)/barSteps
		mid := (lo + hi) / 2
		// Overlap the slices slightly so that no seams show.
		y1 := y(hi)
		if i < barSteps-1 {
			y1 += vg.Points(0.3)
		}
		c.FillPolygon(b.sc.color(mid), []vg.Point{{X: x0, Y: y(lo)}, {X: x1, Y: y(lo)}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
	line := draw.LineStyle{Color: axisColor, Width: vg.Points(0.5)}
	c.StrokeLines(line, []vg.Point{{X: x0, Y: bot}, {X: x1, Y: bot}, {X: x1, Y: top}, {X: x0, Y: top}, {X: x0, Y: bot}})
	sty := b.style()
	for _, t := range b.ticks() {
		if t.Value < b.sc.lo || t.Value > b.sc.hi {
			continue
		}
		ty := y(t.Value)
		if t.IsMinor() {
			c.StrokeLine2(line, x1, ty, x1+barTick/2, ty)
			continue
		}
		c.StrokeLine2(line, x1, ty, x1+barTick, ty)
		c.FillText(sty, vg.Point{X: x1 + barTick + barGap, Y: ty}, t.Label)
	}
}
