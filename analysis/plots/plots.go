// Package plots renders the figures of memsim's run reports from plain data.
//
// Every function returns a [Figure] holding the same picture twice: as an
// SVG document ready to be inlined into HTML and as a PNG image. The package
// depends on gonum.org/v1/plot only (no other memsim package); its output is
// deterministic, so the same input always gives byte-identical figures.
//
// # Sizes and fonts
//
// Line and bar charts of one panel are [WidthCM] × [HeightCM] centimetres;
// figures of several panels (small multiples, [ConvergenceGrid] and
// [DistributionGrid]) are [GridWidthCM] wide and [PanelHeightCM] high per row
// of panels; heat maps are [WidthCM] × [SquareHeightCM]. PNGs are rendered at
// [PNGDPI] dots per inch. Titles, panel titles and labels that would not fit
// are wrapped, set smaller, or (as a last resort) cut with an ellipsis; no
// text is drawn outside its figure.
// Text uses the Liberation Sans font, which gonum/plot compiles into the
// binary, so the PNG output needs no installed fonts. The SVG output does
// not embed the font (that would add about 400 KB per figure); instead its
// font-family lists "Liberation Sans", Arial, Helvetica, sans-serif. The
// first three have the same metrics, which the layout was computed with;
// with another sans-serif font, text widths may be a little off.
//
// # Embedding the SVG
//
// [Figure.SVG] starts directly with the "<svg" element: the XML prolog and
// the generator comment written by gonum/plot are stripped, so the bytes can
// be pasted verbatim into an HTML document (it uses no id attributes, so
// several figures can share one page). The root element carries width and
// height in points and a viewBox; CSS such as "svg{max-width:100%;height:auto}"
// makes it scale with the page.
//
// All functions are safe for concurrent use.
package plots

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure sizes and PNG resolution.
const (
	// WidthCM is the width of every figure in centimetres.
	WidthCM = 16.0
	// HeightCM is the height of the line and bar charts
	// (Convergence, Distribution) in centimetres.
	HeightCM = 10.0
	// SquareHeightCM is the height of the heat maps
	// (HeatMap, StrategyMap) in centimetres.
	SquareHeightCM = 14.0
	// PNGDPI is the resolution of the PNG images in dots per inch;
	// a 16 cm wide figure is 945 pixels wide.
	PNGDPI = 150
)

// Figure is one rendered figure in two formats.
type Figure struct {
	// SVG is a self-contained SVG document starting with "<svg" (no XML
	// prolog), suitable for inlining into HTML.
	SVG []byte
	// PNG is the same figure as a PNG image at PNGDPI dots per inch.
	PNG []byte
}

// ErrInput is wrapped by every error caused by invalid input data.
var ErrInput = errors.New("plots: invalid input")

// MaxMagnitude bounds the absolute value of every number a figure plots; larger values are refused
// (ErrInput). It lies far beyond what a report plots (pairs, probabilities, leads), and keeps every
// difference and multiple the drawing computes from the values finite and fine enough to place a
// point: rasterising coordinates that overflowed would not end.
const MaxMagnitude = 1e12

// MaxCells bounds the cells of a map (rows times columns) and the bars of a distribution, so that
// drawing a figure takes a bounded time: reports draw a few thousand at most.
const MaxCells = 100_000

// plottable reports whether v is finite and within ±MaxMagnitude.
func plottable(v float64) bool { return finite(v) && math.Abs(v) <= MaxMagnitude }

// inputErr returns an error wrapping ErrInput.
func inputErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInput}, args...)...)
}

// Font sizes, in points.
const (
	titleSize  = 14
	labelSize  = 12
	tickSize   = 10
	legendSize = 10
	// minTitleSize and minTickSize bound the shrinking of titles and tick labels that would not
	// fit at their size.
	minTitleSize = 10
	minTickSize  = 6
)

var (
	sansFont  = font.Font{Typeface: "Liberation", Variant: "Sans"}
	boldFont  = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}
	axisColor = color.Gray{Y: 0x30}
	gridColor = color.Gray{Y: 0xDD}
	textColor = color.Black
)

// textStyle returns a plain-text style in the package font.
func textStyle(f font.Font, size float64, xa text.XAlignment, ya text.YAlignment) text.Style {
	return text.Style{
		Color:   textColor,
		Font:    font.From(f, vg.Points(size)),
		XAlign:  xa,
		YAlign:  ya,
		Handler: plot.DefaultTextHandler,
	}
}

// newPlot returns a plot without title whose axes use the package fonts.
func newPlot(xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil // the figure background is painted once by render
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sansFont, labelSize)
		ax.Label.Padding = vg.Points(4)
		ax.Tick.Label.Font = font.From(sansFont, tickSize)
		ax.Tick.Length = vg.Points(5)
		ax.Tick.Marker = plot.TickerFunc(linearTicks)
		ax.Color = axisColor
		ax.Tick.Color = axisColor
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	return p
}

// figurePad is the blank margin around every figure.
const figurePad = 0.25 * vg.Centimeter

// drawFrame draws the title centred at the top of dc and returns the
// remaining canvas, inset by the figure margin. A title wider than the
// figure is wrapped onto a second line, in a smaller font if need be, and
// cut (ending in an ellipsis) only if it does not fit even so.
func drawFrame(dc draw.Canvas, title string) draw.Canvas {
	c := draw.Crop(dc, figurePad, -figurePad, figurePad, -figurePad)
	if title == "" {
		return c
	}
	title, sty := fitText(title, textStyle(boldFont, titleSize, draw.XCenter, draw.YTop), c.Size().X, 2, minTitleSize)
	c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y}, title)
	h := sty.Height(title)
	return draw.Crop(c, 0, 0, 0, -(h + vg.Points(6)))
}

// painter draws one figure of a given size on any canvas.
type painter struct {
	wCM, hCM float64
	paint    func(dc draw.Canvas)
}

func (pt painter) size() (w, h vg.Length) {
	return vg.Length(pt.wCM) * vg.Centimeter, vg.Length(pt.hCM) * vg.Centimeter
}

// render draws the figure twice, once as SVG and once as PNG.
func (pt painter) render() (Figure, error) {
	svg, err := pt.svg()
	if err != nil {
		return Figure{}, err
	}
	png, err := pt.png()
	if err != nil {
		return Figure{}, err
	}
	return Figure{SVG: svg, PNG: png}, nil
}

// svg returns the figure as an embeddable SVG document. Panics from the
// plotting library are turned into errors.
func (pt painter) svg() (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("plots: rendering SVG failed: %v", r)
		}
	}()
	w, h := pt.size()
	c := vgsvg.NewWith(vgsvg.UseWH(w, h))
	dc := draw.New(c)
	dc.SetColor(color.White) // an opaque background, also on dark pages
	dc.Fill(dc.Rectangle.Path())
	pt.paint(dc)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: writing SVG: %w", err)
	}
	return embeddableSVG(buf.Bytes()), nil
}

// png returns the figure as a PNG image at PNGDPI. Panics from the
// plotting library are turned into errors.
func (pt painter) png() (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("plots: rendering PNG failed: %v", r)
		}
	}()
	w, h := pt.size()
	// The image starts out white, so no background needs painting.
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI), vgimg.UseBackgroundColor(color.White))
	pt.paint(draw.New(c))
	var buf bytes.Buffer
	if err := encodePNG(&buf, c.Image()); err != nil {
		return nil, fmt.Errorf("plots: writing PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// embeddableSVG strips everything before the root <svg> element (the XML
// prolog and generator comment) and gives text font fallbacks.
func embeddableSVG(b []byte) []byte {
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		b = b[i:]
	}
	b = bytes.ReplaceAll(b, []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
	return b
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// luminance returns the relative luminance of c in [0, 1].
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xFFFF
}

// hex returns the opaque colour 0xRRGGBB.
func hex(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xFF}
}
