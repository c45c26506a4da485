package plots

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// cell is an axis-aligned rectangle in data coordinates, optionally
// annotated with centred text.
type cell struct {
	x0, x1, y0, y1 float64
	fill           color.Color // nil: not filled
	label          string
}

// cells is a plot.Plotter drawing rectangles: bars and heat-map cells.
type cells struct {
	cells []cell
	// edge is stroked around every cell when its width is positive.
	edge draw.LineStyle
	// labelSize is the largest font size (points) of the annotations; it
	// shrinks, down to a minimum, until the longest annotation fits a cell.
	labelSize float64
}

// Plot implements plot.Plotter.
func (cs *cells) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var sty text.Style
	if cs.labelSize > 0 {
		sty = cs.fitLabels(trX, trY)
	}
	for _, e := range cs.cells {
		x0, x1, y0, y1 := trX(e.x0), trX(e.x1), trY(e.y0), trY(e.y1)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		if e.fill != nil {
			c.FillPolygon(e.fill, c.ClipPolygonXY(pts))
		}
		if cs.edge.Width > 0 {
			c.StrokeLines(cs.edge, c.ClipLinesXY(append(pts, pts[0]))...)
		}
		if e.label != "" && cs.labelSize > 0 {
			s := sty
			if e.fill != nil && luminance(e.fill) < 0.45 {
				s.Color = color.White
			}
			c.FillText(s, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, e.label)
		}
	}
}

// fitLabels returns the annotation style, its size reduced so that every
// label fits its cell.
func (cs *cells) fitLabels(trX, trY func(float64) vg.Length) text.Style {
	const minSize = 5.0
	sty := textStyle(sansFont, cs.labelSize, draw.XCenter, draw.YCenter)
	scale := 1.0
	for _, e := range cs.cells {
		if e.label == "" {
			continue
		}
		w := math.Abs(float64(trX(e.x1) - trX(e.x0)))
		h := math.Abs(float64(trY(e.y1) - trY(e.y0)))
		r := sty.Rectangle(e.label).Size()
		if tw := float64(r.X); tw > 0 {
			scale = math.Min(scale, 0.88*w/tw)
		}
		if th := float64(r.Y); th > 0 {
			scale = math.Min(scale, 0.8*h/th)
		}
	}
	sty.Font = font.From(sansFont, vg.Points(math.Max(minSize, cs.labelSize*scale)))
	return sty
}

// DataRange implements plot.DataRanger.
func (cs *cells) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, e := range cs.cells {
		xmin = math.Min(xmin, math.Min(e.x0, e.x1))
		xmax = math.Max(xmax, math.Max(e.x0, e.x1))
		ymin = math.Min(ymin, math.Min(e.y0, e.y1))
		ymax = math.Max(ymax, math.Max(e.y0, e.y1))
	}
	return xmin, xmax, ymin, ymax
}

// swatch is a legend thumbnail: a filled square with an outline.
type swatch struct {
	fill color.Color
	edge draw.LineStyle
}

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y},
	}
	if s.fill != nil {
		c.FillPolygon(s.fill, pts)
	}
	if s.edge.Width > 0 {
		c.StrokeLines(s.edge, append(pts, pts[0]))
	}
}

// legendEntry is one line of a legend.
type legendEntry struct {
	label string
	thumb plot.Thumbnailer
}

// legend is a boxed legend drawn at an explicit position. (The legend of
// gonum/plot has no background and cannot be placed outside the data area.)
type legend struct {
	entries []legendEntry
	boxed   bool
}

const (
	legendPad   = 5 * vg.Length(1) // points between box and content
	legendThumb = 22 * vg.Length(1)
	legendGap   = 5 * vg.Length(1)
)

func (l legend) style() text.Style {
	return textStyle(sansFont, legendSize, draw.XLeft, draw.YCenter)
}

func (l legend) rowHeight() vg.Length { return vg.Points(legendSize * 1.6) }

// size returns the outer size of the legend.
func (l legend) size() (w, h vg.Length) {
	sty := l.style()
	var tw vg.Length
	for _, e := range l.entries {
		tw = max(tw, sty.Width(e.label))
	}
	return 2*legendPad + legendThumb + legendGap + tw, 2*legendPad + vg.Length(len(l.entries))*l.rowHeight()
}

// draw draws the legend with its top-left corner at (x, y).
func (l legend) draw(c draw.Canvas, x, y vg.Length) {
	if len(l.entries) == 0 {
		return
	}
	w, h := l.size()
	if l.boxed {
		box := []vg.Point{{X: x, Y: y - h}, {X: x + w, Y: y - h}, {X: x + w, Y: y}, {X: x, Y: y}}
		c.FillPolygon(color.White, box)
		c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 0xAA}, Width: vg.Points(0.5)}, append(box, box[0]))
	}
	sty := l.style()
	rh := l.rowHeight()
	th := vg.Points(legendSize * 0.9)
	for i, e := range l.entries {
		cy := y - legendPad - rh*(vg.Length(i)+0.5)
		tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x + legendPad, Y: cy - th/2},
			Max: vg.Point{X: x + legendPad + legendThumb, Y: cy + th/2},
		}}
		e.thumb.Thumbnail(&tc)
		c.FillText(sty, vg.Point{X: x + legendPad + legendThumb + legendGap, Y: cy}, e.label)
	}
}

// logTicks marks powers of ten (labelled) and their multiples (minor) on a
// logarithmic axis; narrow ranges get more labels.
func logTicks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) || !finite(hi) {
		return nil
	}
	const eps = 1e-9
	in := func(v float64) bool { return v >= lo*(1-eps) && v <= hi*(1+eps) }
	var vals []float64
	for d := math.Floor(math.Log10(lo)); d <= math.Ceil(math.Log10(hi)); d++ {
		for m := 1; m <= 9; m++ {
			if v := float64(m) * math.Pow(10, d); in(v) {
				vals = append(vals, v)
			}
		}
	}
	mant := func(v float64) int {
		return int(math.Round(v / math.Pow(10, math.Floor(math.Log10(v)+eps))))
	}
	for _, set := range [][]int{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		var ticks []plot.Tick
		nl := 0
		for _, v := range vals {
			t := plot.Tick{Value: v}
			for _, m := range set {
				if mant(v) == m {
					t.Label = countLabel(v)
					nl++
				}
			}
			ticks = append(ticks, t)
		}
		if nl >= 2 || len(set) == 9 {
			if nl == 0 { // range inside one step: label its ends
				ticks = []plot.Tick{{Value: lo, Label: countLabel(lo)}, {Value: hi, Label: countLabel(hi)}}
			}
			return ticks
		}
	}
	return nil
}

// countLabel formats a count compactly: 500, 2k, 10k, 1M.
func countLabel(v float64) string {
	f := func(x float64, suffix string) string {
		return strconv.FormatFloat(math.Round(x*1000)/1000, 'f', -1, 64) + suffix
	}
	switch a := math.Abs(v); {
	case a < 1e3:
		return f(v, "")
	case a < 1e6:
		return f(v/1e3, "k")
	case a < 1e9:
		return f(v/1e6, "M")
	default:
		return f(v/1e9, "G")
	}
}

// intTicks labels integers at a round step (1, 2, 5, 10, 20, ...) so that at
// most about ten labels appear; other integers get minor ticks when there are
// few enough of them.
func intTicks(lo, hi float64) []plot.Tick { return intTicksUpTo(lo, hi, 10) }

// intTicksUpTo is intTicks with at most about labels labels (at least 1).
func intTicksUpTo(lo, hi float64, labels int) []plot.Tick {
	a, b := math.Ceil(lo), math.Floor(hi)
	// Beyond 2^52 consecutive integers are no longer all floats: counting would not advance.
	if !(a <= b) || math.Abs(a) > 1<<52 || math.Abs(b) > 1<<52 {
		return nil
	}
	span := b - a
	step := 1.0
	for i := 0; span/step > float64(max(labels, 1)); i++ {
		step *= []float64{2, 2.5, 2}[i%3]
	}
	var ticks []plot.Tick
	if span > 60 {
		// Labels only, at the multiples of step.
		for v := math.Ceil(a/step) * step; v <= b; v += step {
			if v == 0 {
				v = 0 // not -0
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		}
		return ticks
	}
	for v := a; v <= b; v++ {
		if v == 0 {
			v = 0 // not -0
		}
		tick := plot.Tick{Value: v}
		if math.Mod(v, step) == 0 {
			tick.Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		ticks = append(ticks, tick)
	}
	return ticks
}

// maxLinearTicks bounds the ticks linearTicks returns.
const maxLinearTicks = 100

// linearTicks labels about five to eight round values (steps 1, 2, 2.5 or 5 times a
// power of ten) between lo and hi, with unlabelled minor ticks in between.
func linearTicks(lo, hi float64) []plot.Tick {
	if !(lo < hi) || !finite(hi-lo) {
		return nil
	}
	raw := (hi - lo) / 7
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step, minor := 10*mag, 5.0
	for _, s := range []struct{ f, minor float64 }{{1, 5}, {2, 4}, {2.5, 5}, {5, 5}} {
		if s.f*mag >= raw {
			step, minor = s.f*mag, s.minor
			break
		}
	}
	prec := 0
	for prec < 15 && math.Abs(step*math.Pow(10, float64(prec))-math.Round(step*math.Pow(10, float64(prec)))) > 1e-6 {
		prec++
	}
	var ticks []plot.Tick
	first := math.Ceil(lo/step*minor-1e-9) / minor
	// About eight labels with their minor ticks between: a range too narrow for its floats to
	// step through ends at maxLinearTicks.
	for i := 0; i < maxLinearTicks; i++ {
		u := first + float64(i)/minor // in units of step
		v := u * step
		if v > hi+step*1e-9 {
			break
		}
		t := plot.Tick{Value: v}
		if math.Abs(u-math.Round(u)) < 1e-9 {
			t.Value = math.Round(u) * step
			if t.Value == 0 {
				t.Value = 0 // not -0
			}
			t.Label = strconv.FormatFloat(t.Value, 'f', prec, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
