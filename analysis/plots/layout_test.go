package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// textBox is a text drawn on a layoutCanvas, with the bounds of its glyphs' boxes on the canvas.
type textBox struct {
	s    string
	r    vg.Rectangle
	size vg.Length
}

// affine maps (x, y) to (a·x + c·y + e, b·x + d·y + f).
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(p vg.Point) vg.Point {
	x, y := float64(p.X), float64(p.Y)
	return vg.Point{X: vg.Length(m.a*x + m.c*y + m.e), Y: vg.Length(m.b*x + m.d*y + m.f)}
}

// then returns m after n: n applied first.
func (m affine) then(n affine) affine {
	return affine{
		a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
	}
}

// layoutCanvas is a vg.Canvas that draws nothing but records where every text lands, from the
// font's own metrics (advance width, ascent and descent) and the transforms in force.
type layoutCanvas struct {
	w, h  vg.Length
	m     affine
	stack []affine
	texts []textBox
}

func newLayoutCanvas(w, h vg.Length) *layoutCanvas {
	return &layoutCanvas{w: w, h: h, m: affine{a: 1, d: 1}}
}

func (c *layoutCanvas) Size() (vg.Length, vg.Length)        { return c.w, c.h }
func (c *layoutCanvas) SetLineWidth(vg.Length)              {}
func (c *layoutCanvas) SetLineDash([]vg.Length, vg.Length)  {}
func (c *layoutCanvas) SetColor(color.Color)                {}
func (c *layoutCanvas) Stroke(vg.Path)                      {}
func (c *layoutCanvas) Fill(vg.Path)                        {}
func (c *layoutCanvas) DrawImage(vg.Rectangle, image.Image) {}
func (c *layoutCanvas) Push()                               { c.stack = append(c.stack, c.m) }
func (c *layoutCanvas) Pop() {
	c.m = c.stack[len(c.stack)-1]
	c.stack = c.stack[:len(c.stack)-1]
}
func (c *layoutCanvas) Rotate(t float64) {
	s, co := math.Sincos(t)
	c.m = c.m.then(affine{a: co, b: s, c: -s, d: co})
}
func (c *layoutCanvas) Translate(p vg.Point) {
	c.m = c.m.then(affine{a: 1, d: 1, e: float64(p.X), f: float64(p.Y)})
}
func (c *layoutCanvas) Scale(x, y float64) { c.m = c.m.then(affine{a: x, d: y}) }

func (c *layoutCanvas) FillString(f font.Face, p vg.Point, s string) {
	e := f.Extents()
	w := f.Width(s)
	var r vg.Rectangle
	for i, q := range []vg.Point{
		{X: p.X, Y: p.Y - e.Descent}, {X: p.X + w, Y: p.Y - e.Descent},
		{X: p.X, Y: p.Y + e.Ascent}, {X: p.X + w, Y: p.Y + e.Ascent},
	} {
		q = c.m.apply(q)
		if i == 0 {
			r = vg.Rectangle{Min: q, Max: q}
		}
		r.Min.X, r.Min.Y = min(r.Min.X, q.X), min(r.Min.Y, q.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, q.X), max(r.Max.Y, q.Y)
	}
	c.texts = append(c.texts, textBox{s: s, r: r, size: f.Font.Size})
}

// layout draws pt on a layoutCanvas of its size and returns the texts drawn.
func layout(t *testing.T, pt painter, err error) (texts []textBox, w, h vg.Length) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	w, h = pt.size()
	c := newLayoutCanvas(w, h)
	pt.paint(draw.New(c))
	return c.texts, w, h
}

// checkLayout checks that every text lies within the w × h figure and that no two texts
// overlap (by more than a hair: glyph boxes include the font's full ascent and descent).
func checkLayout(t *testing.T, name string, texts []textBox, w, h vg.Length) {
	t.Helper()
	const tol = 0.01
	for _, b := range texts {
		if b.r.Min.X < -tol || b.r.Min.Y < -tol || b.r.Max.X > w+tol || b.r.Max.Y > h+tol {
			t.Errorf("%s: %q at [%.1f, %.1f]×[%.1f, %.1f] leaves the %.1f × %.1f figure",
				name, b.s, b.r.Min.X, b.r.Max.X, b.r.Min.Y, b.r.Max.Y, w, h)
		}
	}
	for i, a := range texts {
		for _, b := range texts[i+1:] {
			// The boxes span the font's full ascent and descent, more than the line height:
			// lines of one text overlap by about a tenth of the font's size.
			slack := 0.15 * max(a.size, b.size)
			dx := min(a.r.Max.X, b.r.Max.X) - max(a.r.Min.X, b.r.Min.X)
			dy := min(a.r.Max.Y, b.r.Max.Y) - max(a.r.Min.Y, b.r.Min.Y)
			if dx > slack && dy > slack {
				t.Errorf("%s: %q and %q overlap by %.1f × %.1f points", name, a.s, b.s, dx, dy)
			}
		}
	}
}

// drawn returns the strings of texts.
func drawn(texts []textBox) []string {
	var out []string
	for _, b := range texts {
		out = append(out, b.s)
	}
	return out
}

// A tournament matrix of six players with 24-character names shows every name, in full, as a row
// and as a column label, within the figure and overlapping nothing.
func TestHeatMapShowsEveryLongName(t *testing.T) {
	for _, n := range []int{2, 5, 6} {
		var names []string
		vals := make([][]float64, n)
		for i := range n {
			names = append(names, fmt.Sprintf("player-%d-%s", i, strings.Repeat("x", 15)))
			vals[i] = make([]float64, n)
			for k := range vals[i] {
				vals[i][k] = float64(i - k)
			}
		}
		if len(names[0]) != 24 {
			t.Fatalf("name %q is not 24 characters", names[0])
		}
		pt, err := heatMapPainter("Mean lead per game, 26 pairs", names, names, vals, "opponent", "player", Diverging)
		texts, w, h := layout(t, pt, err)
		name := fmt.Sprintf("%d players", n)
		checkLayout(t, name, texts, w, h)
		got := drawn(texts)
		for _, p := range names {
			if c := strings.Count(strings.Join(got, "\n")+"\n", p+"\n"); c != 2 {
				t.Errorf("%s: %q drawn %d times, want twice (row and column)", name, p, c)
			}
		}
	}
}

// The default tournament's five players, named as there, are all shown.
func TestHeatMapLabelsEveryPlayer(t *testing.T) {
	names := []string{"optimal", "parity", "daring", "forgetful", "win-optimal"}
	vals := make([][]float64, len(names))
	for i := range vals {
		vals[i] = []float64{0.5, -1.25, 2, math.NaN(), 0}
	}
	pt, err := heatMapPainter("Mean lead per game, 26 pairs", names, names, vals, "opponent", "player", Diverging)
	texts, w, h := layout(t, pt, err)
	checkLayout(t, "five players", texts, w, h)
	got := drawn(texts)
	for _, p := range names {
		if c := count(got, p); c != 2 {
			t.Errorf("%q drawn %d times, want twice", p, c)
		}
	}
}

func count(texts []string, s string) int {
	n := 0
	for _, t := range texts {
		if t == s {
			n++
		}
	}
	return n
}

// A title too long for one line is wrapped onto two, every word of it drawn, within the figure.
func TestLongTitlesWrap(t *testing.T) {
	title := "When is daring better? limited memory (capacity 4), pass two-known, choices safe,daring, 12 singletons (all unseen)"
	pt, err := strategyMapPainter(title, triangle(12), "j (pairs with no card known)", "n (pairs on the table)")
	texts, w, h := layout(t, pt, err)
	checkLayout(t, "strategy map", texts, w, h)
	all := strings.Join(drawn(texts), " ")
	for _, word := range strings.Fields(title) {
		if !strings.Contains(all, word) {
			t.Errorf("the title's %q is not drawn", word)
		}
	}
	if strings.Contains(all, ellipsis) {
		t.Error("a title that fits two lines is cut")
	}
}

// A title that cannot fit even two lines at the smallest size ends in an ellipsis, within the
// figure.
func TestOverlongTitlesAreCut(t *testing.T) {
	title := strings.Repeat("a very long title ", 30)
	pt, err := convergencePainter(title, []ConvergencePanel{{Points: convPoints()}}, "y")
	texts, w, h := layout(t, pt, err)
	checkLayout(t, "overlong title", texts, w, h)
	if !strings.Contains(strings.Join(drawn(texts), " "), ellipsis) {
		t.Error("an overlong title is not marked as cut")
	}
}

// Half-pair shares (stalemates) put bars between whole numbers: the x axis is labelled at whole
// numbers evenly spaced, never at the halves.
func TestDistributionTicksAreRegular(t *testing.T) {
	for _, pairs := range []int{6, 10, 26, 52} {
		var xs, probs []float64
		for k := 0; k <= 2*pairs; k++ {
			if k%2 == 1 && k != 5 && k != pairs {
				continue // a few half shares only, as stalemates leave
			}
			xs = append(xs, float64(k)/2)
			probs = append(probs, 0.01)
		}
		pt, err := distributionPainter(fmt.Sprintf("%d pairs", pairs), []DistributionPanel{{X: xs, Simulated: probs, Exact: probs}}, "pairs")
		texts, w, h := layout(t, pt, err)
		name := fmt.Sprintf("%d pairs", pairs)
		checkLayout(t, name, texts, w, h)
		// The x labels: the numbers on the lowest line of numbers.
		var xl []float64
		var y vg.Length = -1
		for _, b := range texts {
			var v float64
			if _, err := fmt.Sscanf(b.s, "%g", &v); err != nil || strings.Contains(b.s, ".") {
				continue
			}
			if y < 0 || b.r.Min.Y < y-0.5 {
				xl, y = nil, b.r.Min.Y
			}
			if math.Abs(float64(b.r.Min.Y-y)) <= 0.5 {
				xl = append(xl, v)
			}
		}
		slices.Sort(xl)
		if len(xl) < 3 {
			t.Fatalf("%s: x labels %v", name, xl)
		}
		if xl[0] != 0 {
			t.Errorf("%s: x labels %v do not start at 0", name, xl)
		}
		for i := 2; i < len(xl); i++ {
			if xl[i]-xl[i-1] != xl[1]-xl[0] {
				t.Errorf("%s: x labels %v are not evenly spaced", name, xl)
				break
			}
		}
		if last := xl[len(xl)-1]; last+(xl[1]-xl[0]) <= float64(pairs) {
			t.Errorf("%s: x labels %v stop short of %d", name, xl, pairs)
		}
	}
}

// A figure of many panels of players with long names keeps every text inside the figure, apart
// from the others, and draws a panel for each matchup.
func TestPanelsOfLongNames(t *testing.T) {
	var names []string
	for i := range 5 {
		names = append(names, fmt.Sprintf("player-%d-%s", i, strings.Repeat("y", 15)))
	}
	var conv []ConvergencePanel
	var dist []DistributionPanel
	exact := 12.75
	for i, a := range names {
		for k, b := range names {
			if i == k {
				continue
			}
			p := ConvergencePanel{Title: a + " vs " + b, Points: convPoints()}
			d := DistributionPanel{Title: p.Title, X: []float64{0, 0.5, 1, 2, 3}, Simulated: []float64{0.1, 0.1, 0.3, 0.3, 0.2}}
			if i < k {
				p.Exact = &exact
				p.Adjusted = []ConvergencePoint{{Games: 1000, Mean: 4.02, Lo: 4.0, Hi: 4.04}}
				d.Exact = d.Simulated
			}
			conv = append(conv, p)
			dist = append(dist, d)
		}
	}
	if len(conv) != MaxPanels {
		t.Fatalf("%d panels", len(conv))
	}
	for _, n := range []int{1, 2, 3, 5, 7, MaxPanels} {
		pt, err := convergencePainter("Seat 0's mean pairs, 26 pairs", conv[:n], "mean pairs of seat 0")
		texts, w, h := layout(t, pt, err)
		name := fmt.Sprintf("%d convergence panels", n)
		checkLayout(t, name, texts, w, h)
		got := strings.Join(drawn(texts), "\n")
		for _, want := range []string{"Running mean", "Games", "mean pairs of seat 0"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: %q not drawn", name, want)
			}
		}
		if n > 1 && !strings.Contains(got, "Luck-adjusted") {
			t.Errorf("%s: the luck-adjusted estimate is not in the legend", name)
		}
		// Every panel's title names its two players in full.
		for _, p := range conv[:n] {
			a, b, _ := strings.Cut(p.Title, " vs ")
			if !strings.Contains(got, a) || !strings.Contains(got, b) {
				t.Errorf("%s: the panel of %q is not titled", name, p.Title)
			}
		}
		if strings.Contains(got, ellipsis) {
			t.Errorf("%s: a text is cut", name)
		}

		pt, err = distributionPainter("Seat 0's final share, 26 pairs", dist[:n], "pairs collected by seat 0")
		texts, w, h = layout(t, pt, err)
		checkLayout(t, fmt.Sprintf("%d distribution panels", n), texts, w, h)
	}
}
