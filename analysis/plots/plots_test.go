package plots

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"strings"
	"sync"
	"testing"
)

func ptr(v float64) *float64 { return &v }

func convPoints() []ConvergencePoint {
	return []ConvergencePoint{
		{Games: 1, Mean: 5, Lo: math.NaN(), Hi: math.NaN()},
		{Games: 10, Mean: 4.2, Lo: 3.1, Hi: 5.3},
		{Games: 100, Mean: 4.05, Lo: 3.8, Hi: 4.3},
		{Games: 1000, Mean: 4.01, Lo: 3.95, Hi: 4.07},
	}
}

func tournament() ([]string, [][]float64) {
	players := []string{"random", "greedy", "optimal"}
	return players, [][]float64{
		{0, -1.25, -2.5},
		{1.25, 0, math.NaN()},
		{2.5, 0.75, 0},
	}
}

func triangle(n int) [][]int {
	codes := make([][]int, n+1)
	for i := range codes {
		codes[i] = make([]int, i+1)
		for j := range codes[i] {
			codes[i][j] = (i + j) % 3
		}
	}
	codes[n][0] = NoState
	return codes
}

// figures renders the figure of every kind through the exported functions.
func figures() (map[string]Figure, error) {
	players, vals := tournament()
	out := map[string]Figure{}
	var errs []error
	add := func(title string, f Figure, err error) {
		out[title] = f
		errs = append(errs, err)
	}
	f, err := Convergence("Convergence of turns", convPoints(), ptr(4), "Turns")
	add("Convergence of turns", f, err)
	f, err = Distribution("Points of player one", []float64{0, 0.5, 1}, []float64{0.2, 0.5, 0.3}, []float64{0.25, 0.5, 0.25}, "Points")
	add("Points of player one", f, err)
	f, err = HeatMap("Tournament matrix", players, players, vals, "Opponent", "Player", Diverging)
	add("Tournament matrix", f, err)
	f, err = StrategyMap("Strategy table", triangle(5), "j", "n")
	add("Strategy table", f, err)
	f, err = ChoiceMap("Choices by lead", [][]int{{0, 1, 2}, {-1, 3, 0}, {1, 1, 2}, {0, 0, 0}}, -2, "j", "lead")
	add("Choices by lead", f, err)
	return out, errors.Join(errs...)
}

// checkSVG checks that svg is an embeddable, well-formed SVG document
// showing title.
func checkSVG(t *testing.T, name string, svg []byte, title string) {
	t.Helper()
	if !bytes.HasPrefix(svg, []byte("<svg")) {
		t.Errorf("%s: SVG starts with %q", name, svg[:min(len(svg), 20)])
	}
	if !bytes.Contains(svg, []byte(title)) {
		t.Errorf("%s: SVG lacks title %q", name, title)
	}
	if bytes.Contains(svg, []byte("<?xml")) || bytes.Contains(svg, []byte("<!--")) {
		t.Errorf("%s: SVG keeps its prolog", name)
	}
	if !bytes.HasSuffix(bytes.TrimSpace(svg), []byte("</svg>")) {
		t.Errorf("%s: SVG does not end with </svg>", name)
	}
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Errorf("%s: SVG is not well-formed XML: %v", name, err)
			break
		}
	}
}

// checkPNG checks that b decodes as a PNG of about wCM × hCM at PNGDPI.
func checkPNG(t *testing.T, name string, b []byte, wCM, hCM float64) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: PNG: %v", name, err)
	}
	wantW, wantH := wCM/2.54*PNGDPI, hCM/2.54*PNGDPI
	if b := img.Bounds(); math.Abs(float64(b.Dx())-wantW) > 2 || math.Abs(float64(b.Dy())-wantH) > 2 {
		t.Errorf("%s: PNG is %dx%d, want about %.0fx%.0f", name, b.Dx(), b.Dy(), wantW, wantH)
	}
}

// TestFigures renders every figure twice at the same time, which checks
// both determinism and (under -race) safety for concurrent use, and then
// checks the figures.
func TestFigures(t *testing.T) {
	var (
		wg          sync.WaitGroup
		figs, again map[string]Figure
		err1, err2  error
	)
	wg.Go(func() { figs, err1 = figures() })
	wg.Go(func() { again, err2 = figures() })
	wg.Wait()
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	for title, f := range figs {
		if !bytes.Equal(f.SVG, again[title].SVG) {
			t.Errorf("%s: SVG differs between runs", title)
		}
		if !bytes.Equal(f.PNG, again[title].PNG) {
			t.Errorf("%s: PNG differs between runs", title)
		}
	}
	for title, f := range figs {
		w, h := WidthCM, HeightCM
		if title == "Tournament matrix" || title == "Strategy table" || title == "Choices by lead" {
			h = SquareHeightCM
		}
		checkSVG(t, title, f.SVG, title)
		checkPNG(t, title, f.PNG, w, h)
		t.Logf("%s: SVG %d bytes, PNG %d bytes", title, len(f.SVG), len(f.PNG))
	}
	svg := func(title string) string { return string(figs[title].SVG) }
	for _, want := range []string{"Running mean", "95% interval", "Exact value", "Games", "Turns", "1k"} {
		if !strings.Contains(svg("Convergence of turns"), want) {
			t.Errorf("convergence SVG lacks %q", want)
		}
	}
	for _, want := range []string{"Simulated", "Exact", "Probability", "Points", ">0<", ">1<"} {
		if !strings.Contains(svg("Points of player one"), want) {
			t.Errorf("distribution SVG lacks %q", want)
		}
	}
	for _, want := range []string{">-1.25<", ">0.75<", ">0.00<", "no data", ">greedy<", "Opponent", "Player"} {
		if !strings.Contains(svg("Tournament matrix"), want) {
			t.Errorf("heat map SVG lacks %q", want)
		}
	}
	for _, want := range []string{"safe better", "daring better", "equal / no choice"} {
		if !strings.Contains(svg("Strategy table"), want) {
			t.Errorf("strategy map SVG lacks %q", want)
		}
	}
	if !strings.Contains(svg("Strategy table"), "'Liberation Sans',Arial") {
		t.Error("SVG lacks the font fallbacks")
	}
}

// svgOf renders only the SVG of a painter, which is much faster than the
// PNG under the race detector; the PNG path is shared and tested above.
func svgOf(t *testing.T, name string, pt painter, err error) []byte {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	svg, err := pt.svg()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return svg
}

func TestVariants(t *testing.T) {
	one := func(pts []ConvergencePoint, exact *float64) []ConvergencePanel {
		return []ConvergencePanel{{Points: pts, Exact: exact}}
	}
	pt, err := convergencePainter("No exact value", one(convPoints(), nil), "Lead")
	svg := svgOf(t, "convergence without exact", pt, err)
	checkSVG(t, "convergence without exact", svg, "No exact value")
	if bytes.Contains(svg, []byte("Exact value")) {
		t.Error("legend names an exact value that was not given")
	}

	pt, err = convergencePainter("One point", one([]ConvergencePoint{{Games: 1, Mean: 2, Lo: math.NaN(), Hi: math.Inf(1)}}, ptr(2)), "Lead")
	checkSVG(t, "one point", svgOf(t, "one point", pt, err), "One point")

	pt, err = convergencePainter("Constant", one([]ConvergencePoint{{Games: 5, Mean: 0, Lo: 0, Hi: 0}, {Games: 50, Mean: 0, Lo: 0, Hi: 0}}, nil), "Lead")
	checkSVG(t, "constant", svgOf(t, "constant", pt, err), "Constant")

	adj := []ConvergencePoint{{Games: 10, Mean: 4.1, Lo: 3.6, Hi: 4.6}, {Games: 100, Mean: 4.02, Lo: 3.9, Hi: 4.14}, {Games: 1000, Mean: 4.0, Lo: 3.98, Hi: 4.02}}
	pt, err = convergencePainter("Adjusted running", []ConvergencePanel{{Points: convPoints(), Adjusted: adj, Exact: ptr(4)}}, "Lead")
	svg = svgOf(t, "adjusted running mean", pt, err)
	checkSVG(t, "adjusted running mean", svg, "Adjusted running")
	if !bytes.Contains(svg, []byte("Luck-adjusted running mean")) || bytes.Contains(svg, []byte("of all games")) {
		t.Error("the legend does not name the luck-adjusted running mean alone")
	}

	pt, err = distributionPainter("Simulated only", []DistributionPanel{{X: []float64{0, 1, 2}, Simulated: []float64{0, 0, 1}}}, "Outcome")
	svg = svgOf(t, "distribution without exact", pt, err)
	checkSVG(t, "distribution without exact", svg, "Simulated only")
	if bytes.Contains(svg, []byte("Exact")) {
		t.Error("legend names exact values that were not given")
	}

	pt, err = distributionPainter("All zero", []DistributionPanel{{X: []float64{0, 1}, Simulated: []float64{0, 0}, Exact: []float64{0, 0}}}, "Outcome")
	checkSVG(t, "all zero", svgOf(t, "all zero", pt, err), "All zero")

	// Many outcomes: whole numbers labelled at a round step.
	var xs, probs []float64
	for i := range 81 {
		xs = append(xs, float64(i-40))
		probs = append(probs, 1/81.0)
	}
	pt, err = distributionPainter("Many", []DistributionPanel{{X: xs, Simulated: probs, Exact: probs}}, "Lead")
	svg = svgOf(t, "many outcomes", pt, err)
	if n := bytes.Count(svg, []byte("<text")); n > 40 {
		t.Errorf("many outcomes: %d texts, labels not thinned out", n)
	}

	// A grid larger than AnnotateLimit has no cell annotations.
	n := AnnotateLimit + 1
	labels := make([]string, n)
	vals := make([][]float64, n)
	for i := range vals {
		labels[i] = fmt.Sprintf("player %d", i)
		vals[i] = make([]float64, n)
		for k := range vals[i] {
			vals[i][k] = 0.125 + float64(i*k)
		}
	}
	pt, err = heatMapPainter("Big grid", labels, labels, vals, "x", "y", Sequential)
	svg = svgOf(t, "big heat map", pt, err)
	checkSVG(t, "big heat map", svg, "Big grid")
	if bytes.Contains(svg, []byte(">0.12<")) || bytes.Contains(svg, []byte(">0.13<")) {
		t.Error("big heat map is annotated")
	}

	pt, err = heatMapPainter("All missing", labels[:2], labels[:1], [][]float64{{math.NaN()}, {math.NaN()}}, "x", "y", Sequential)
	checkSVG(t, "all missing", svgOf(t, "all missing", pt, err), "All missing")

	pt, err = strategyMapPainter("Rectangular", [][]int{{0, 1, -1}, {2, 2, 1}}, "j", "n")
	checkSVG(t, "rectangular strategy map", svgOf(t, "rectangular", pt, err), "Rectangular")

	pt, err = strategyMapPainter("No states", [][]int{{-1}, {-1, -1}}, "j", "n")
	checkSVG(t, "no states", svgOf(t, "no states", pt, err), "No states")
}

func TestErrors(t *testing.T) {
	players, vals := tournament()
	nan := math.NaN()
	cases := []struct {
		name string
		fn   func() (Figure, error)
	}{
		{"convergence empty", func() (Figure, error) { return Convergence("t", nil, nil, "y") }},
		{"convergence NaN mean", func() (Figure, error) {
			return Convergence("t", []ConvergencePoint{{Games: 1, Mean: nan}}, nil, "y")
		}},
		{"convergence infinite mean", func() (Figure, error) {
			return Convergence("t", []ConvergencePoint{{Games: 1, Mean: math.Inf(-1)}}, nil, "y")
		}},
		{"convergence zero games", func() (Figure, error) {
			return Convergence("t", []ConvergencePoint{{Games: 0, Mean: 1}}, nil, "y")
		}},
		{"convergence unordered", func() (Figure, error) {
			return Convergence("t", []ConvergencePoint{{Games: 10, Mean: 1}, {Games: 10, Mean: 1}}, nil, "y")
		}},
		{"convergence lo > hi", func() (Figure, error) {
			return Convergence("t", []ConvergencePoint{{Games: 1, Mean: 1, Lo: 2, Hi: 0}}, nil, "y")
		}},
		{"convergence NaN exact", func() (Figure, error) {
			return Convergence("t", []ConvergencePoint{{Games: 1, Mean: 1}}, ptr(nan), "y")
		}},
		{"distribution empty", func() (Figure, error) { return Distribution("t", nil, nil, nil, "x") }},
		{"distribution no panels", func() (Figure, error) { return DistributionGrid("t", nil, "x") }},
		{"distribution simulated length", func() (Figure, error) {
			return Distribution("t", []float64{0, 1}, []float64{1}, nil, "x")
		}},
		{"distribution exact length", func() (Figure, error) {
			return Distribution("t", []float64{0, 1}, []float64{0.5, 0.5}, []float64{1}, "x")
		}},
		{"distribution NaN", func() (Figure, error) {
			return Distribution("t", []float64{0, 1}, []float64{nan, 0.5}, nil, "x")
		}},
		{"distribution negative exact", func() (Figure, error) {
			return Distribution("t", []float64{0, 1}, []float64{0.5, 0.5}, []float64{-0.5, 1.5}, "x")
		}},
		{"distribution outcomes out of order", func() (Figure, error) {
			return Distribution("t", []float64{1, 1}, []float64{0.5, 0.5}, nil, "x")
		}},
		{"convergence no panels", func() (Figure, error) { return ConvergenceGrid("t", nil, "y") }},
		{"convergence too many panels", func() (Figure, error) {
			return ConvergenceGrid("t", make([]ConvergencePanel, MaxPanels+1), "y")
		}},
		{"convergence adjusted without interval", func() (Figure, error) {
			return ConvergenceGrid("t", []ConvergencePanel{{Points: convPoints(), Adjusted: []ConvergencePoint{{Games: 5, Mean: 1, Lo: nan, Hi: nan}}}}, "y")
		}},
		{"heat map no rows", func() (Figure, error) { return HeatMap("t", nil, players, nil, "x", "y", Diverging) }},
		{"heat map no cols", func() (Figure, error) {
			return HeatMap("t", players, nil, [][]float64{{}, {}, {}}, "x", "y", Diverging)
		}},
		{"heat map row count", func() (Figure, error) { return HeatMap("t", players, players, vals[:2], "x", "y", Diverging) }},
		{"heat map ragged", func() (Figure, error) {
			return HeatMap("t", players, players, [][]float64{{1, 2, 3}, {1, 2}, {1, 2, 3}}, "x", "y", Sequential)
		}},
		{"heat map infinite", func() (Figure, error) {
			return HeatMap("t", players[:1], players[:1], [][]float64{{math.Inf(1)}}, "x", "y", Sequential)
		}},
		{"heat map palette", func() (Figure, error) { return HeatMap("t", players, players, vals, "x", "y", Palette(7)) }},
		{"strategy empty", func() (Figure, error) { return StrategyMap("t", nil, "j", "n") }},
		{"strategy empty rows", func() (Figure, error) { return StrategyMap("t", [][]int{{}, {}}, "j", "n") }},
		{"strategy ragged", func() (Figure, error) { return StrategyMap("t", [][]int{{0}, {0, 1}, {0}}, "j", "n") }},
		{"strategy code", func() (Figure, error) { return StrategyMap("t", [][]int{{0}, {3, 1}}, "j", "n") }},
		{"strategy negative code", func() (Figure, error) { return StrategyMap("t", [][]int{{-2}}, "j", "n") }},
		{"choice empty", func() (Figure, error) { return ChoiceMap("t", nil, 0, "j", "d") }},
		{"choice ragged", func() (Figure, error) { return ChoiceMap("t", [][]int{{0}, {0, 1}}, 0, "j", "d") }},
		{"choice code", func() (Figure, error) { return ChoiceMap("t", [][]int{{4}}, 0, "j", "d") }},
	}
	for _, c := range cases {
		f, err := c.fn()
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", c.name, err)
		}
		if f.SVG != nil || f.PNG != nil {
			t.Errorf("%s: figure returned with the error", c.name)
		}
	}
}

func TestLogTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range logTicks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{1, 1e6, "1 10 100 1k 10k 100k 1M"},
		{32, 128, "50 100"},
		{200, 400, "200 300 400"},
		{210, 290, "210 290"},
		{5e8, 2e9, "500M 1G 2G"},
	} {
		if got := strings.Join(labels(c.lo, c.hi), " "); got != c.want {
			t.Errorf("logTicks(%v, %v) labels %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
	if logTicks(0, 10) != nil {
		t.Error("logTicks accepts 0")
	}
}

func TestLinearAndIntTicks(t *testing.T) {
	labels := func(ts []string) string { return strings.Join(ts, " ") }
	lin := func(lo, hi float64) string {
		var out []string
		for _, tk := range linearTicks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return labels(out)
	}
	if got := lin(0, 0.28); got != "0.00 0.05 0.10 0.15 0.20 0.25" {
		t.Errorf("linearTicks(0, 0.28) = %q", got)
	}
	if got := lin(-3.1, 3.1); got != "-3 -2 -1 0 1 2 3" {
		t.Errorf("linearTicks(-3.1, 3.1) = %q", got)
	}
	ints := func(lo, hi float64) string {
		var out []string
		for _, tk := range intTicks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return labels(out)
	}
	if got := ints(-0.5, 3.5); got != "0 1 2 3" {
		t.Errorf("intTicks(-0.5, 3.5) = %q", got)
	}
	if got := ints(-0.5, 40.5); got != "0 5 10 15 20 25 30 35 40" {
		t.Errorf("intTicks(-0.5, 40.5) = %q", got)
	}
}

func TestPaletteColors(t *testing.T) {
	sc := newScale(Diverging, [][]float64{{-2, 1, math.NaN()}})
	if sc.lo != -2 || sc.hi != 2 {
		t.Errorf("diverging scale [%v, %v], want [-2, 2]", sc.lo, sc.hi)
	}
	if c := sc.color(0); c != divergingRamp[3] {
		t.Errorf("diverging colour of 0 is %v, want the middle %v", c, divergingRamp[3])
	}
	if c := sc.color(math.NaN()); c != nanColor {
		t.Errorf("NaN colour %v", c)
	}
	sq := newScale(Sequential, [][]float64{{3, 5}})
	if sq.color(3) != sequentialRamp[0] || sq.color(5) != sequentialRamp[len(sequentialRamp)-1] {
		t.Error("sequential scale does not span the ramp")
	}
	if Diverging.String() != "Diverging" || Palette(9).String() != "Palette(9)" {
		t.Error("Palette.String")
	}
}

// TestEvaluationDrawsAndRefusesBadInput draws an evaluation graph in both formats and refuses
// points out of order or out of the axis.
func TestEvaluationDrawsAndRefusesBadInput(t *testing.T) {
	pts := []EvaluationPoint{{0, 0.5}, {1, 0.55}, {2, 0.3}, {3, 1}}
	fig, err := Evaluation("Ann against Ben", pts, 0, 1, 0.5, "Ann's win score", "Decisions", "Win score")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(fig.SVG, []byte("<svg")) || !bytes.HasPrefix(fig.PNG, []byte("\x89PNG")) {
		t.Errorf("not an SVG and a PNG: %q, %q", fig.SVG[:min(10, len(fig.SVG))], fig.PNG[:min(4, len(fig.PNG))])
	}
	for _, bad := range [][]EvaluationPoint{nil, {{0, 0.5}, {0, 0.6}}, {{0, 1.5}}, {{-1, 0.5}}} {
		if _, err := Evaluation("", bad, 0, 1, 0.5, "x", "x", "y"); !errors.Is(err, ErrInput) {
			t.Errorf("%v: got %v, want an input error", bad, err)
		}
	}
}
