package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Sizes of the figures of panels (small multiples).
const (
	// GridWidthCM is the width of a figure of two or more panels in centimetres.
	GridWidthCM = 24.0
	// PanelHeightCM is the height of one row of panels, its titles included, in centimetres.
	PanelHeightCM = 6.5
	// MaxPanels is the largest number of panels in one figure.
	MaxPanels = 20
)

// Font sizes of panels, in points.
const (
	panelTitleSize    = 10
	minPanelTitleSize = 7
	panelTickSize     = 9
)

// panel is one plot of a figure of panels, with its title above it.
type panel struct {
	title string
	// draw draws the plot on c (axes included), its tick labels in the given style.
	draw func(c draw.Canvas, tick font.Font)
}

// panelColumns returns the number of columns a figure of n panels has.
func panelColumns(n int) int {
	switch {
	case n <= 2:
		return max(n, 1)
	case n <= 4:
		return 2
	case n <= 9:
		return 3
	default:
		return 4
	}
}

// panelsPainter lays out panels in a grid under the figure's title and a legend, with the axis
// labels xLabel (under the grid) and yLabel (at its left) shared by all panels. One panel makes a
// WidthCM × HeightCM figure; more make one GridWidthCM wide, PanelHeightCM per row.
func panelsPainter(title string, panels []panel, leg legend, xLabel, yLabel string) painter {
	cols := panelColumns(len(panels))
	rows := (len(panels) + cols - 1) / cols
	w, h := WidthCM, HeightCM
	if len(panels) > 1 {
		w, h = GridWidthCM, PanelHeightCM*float64(rows)+3
	}
	return painter{w, h, func(dc draw.Canvas) {
		paintPanels(dc, title, panels, cols, leg, xLabel, yLabel)
	}}
}

// paintPanels draws the figure panelsPainter lays out.
func paintPanels(dc draw.Canvas, title string, panels []panel, cols int, leg legend, xLabel, yLabel string) {
	c := drawFrame(dc, title)
	if len(leg.entries) > 0 {
		h := leg.drawRows(c, c.Max.Y)
		c.Max.Y -= h + vg.Points(6)
	}
	labelSty := textStyle(sansFont, labelSize, draw.XCenter, draw.YBottom)
	if xLabel != "" {
		xl, sty := fitText(xLabel, labelSty, c.Size().X, 1, minTickSize)
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Min.Y}, xl)
		c.Min.Y += sty.Height(xl) + vg.Points(4)
	}
	if yLabel != "" {
		sty := labelSty
		sty.Rotation = math.Pi / 2
		sty.YAlign = draw.YTop
		yl, sty := fitText(yLabel, sty, c.Size().Y, 1, minTickSize)
		c.FillText(sty, vg.Point{X: c.Min.X, Y: c.Center().Y}, yl)
		c.Min.X += sty.Height(yl) + vg.Points(4)
	}
	rows := (len(panels) + cols - 1) / cols
	gapX, gapY := vg.Points(14), vg.Points(10)
	pw := (c.Size().X - gapX*vg.Length(cols-1)) / vg.Length(cols)
	ph := (c.Size().Y - gapY*vg.Length(rows-1)) / vg.Length(rows)
	tick := font.From(sansFont, tickSize)
	if len(panels) > 1 {
		tick = font.From(sansFont, panelTickSize)
	}
	for i, pn := range panels {
		r, k := i/cols, i%cols
		x0 := c.Min.X + vg.Length(k)*(pw+gapX)
		y1 := c.Max.Y - vg.Length(r)*(ph+gapY)
		pc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x0, Y: y1 - ph}, Max: vg.Point{X: x0 + pw, Y: y1}}}
		if pn.title != "" {
			t, sty := fitText(pn.title, textStyle(boldFont, panelTitleSize, draw.XCenter, draw.YTop), pw, 2, minPanelTitleSize)
			pc.FillText(sty, vg.Point{X: pc.Center().X, Y: pc.Max.Y}, t)
			pc.Max.Y -= sty.Height(t) + vg.Points(3)
		}
		pn.draw(pc, tick)
	}
}

// drawPlot draws p on c, leaving room for the tick labels that stick out of its axes: half the
// widest x label at the right, half a line of text above the top y label.
func drawPlot(p *plot.Plot, c draw.Canvas) {
	var xw vg.Length
	for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if !t.IsMinor() {
			xw = max(xw, p.X.Tick.Label.Width(t.Label))
		}
	}
	c.Max.X -= xw / 2
	c.Max.Y -= lineHeight(p.Y.Tick.Label) / 2
	p.Draw(c)
}

// drawRows draws the entries of l side by side, in as many rows as the width of c needs, each row
// centred, below y; it returns the height drawn.
func (l legend) drawRows(c draw.Canvas, y vg.Length) vg.Length {
	sty := l.style()
	rh := l.rowHeight()
	const sep = 14 * vg.Length(1)
	width := func(e legendEntry) vg.Length { return legendThumb + legendGap + sty.Width(e.label) }
	var rows [][]legendEntry
	var rowW []vg.Length
	for _, e := range l.entries {
		w := width(e)
		if n := len(rows); n > 0 && rowW[n-1]+sep+w <= c.Size().X {
			rows[n-1] = append(rows[n-1], e)
			rowW[n-1] += sep + w
			continue
		}
		rows = append(rows, []legendEntry{e})
		rowW = append(rowW, w)
	}
	th := vg.Points(legendSize * 0.9)
	for r, row := range rows {
		x := c.Center().X - rowW[r]/2
		cy := y - rh*(vg.Length(r)+0.5)
		for _, e := range row {
			tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: cy - th/2}, Max: vg.Point{X: x + legendThumb, Y: cy + th/2}}}
			e.thumb.Thumbnail(&tc)
			label := ellipsize(e.label, sty, c.Max.X-(x+legendThumb+legendGap))
			c.FillText(sty, vg.Point{X: x + legendThumb + legendGap, Y: cy}, label)
			x += width(e) + sep
		}
	}
	return rh * vg.Length(len(rows))
}
