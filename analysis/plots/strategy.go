package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Strategy codes of StrategyMap.
const (
	// NoState marks a pair (n, j) that is not a state; its cell is blank.
	NoState = -1
	// SafeBetter marks states where the safe move is better.
	SafeBetter = 0
	// DaringBetter marks states where the daring move is better.
	DaringBetter = 1
	// Equal marks states where both moves are equally good or there is
	// no choice.
	Equal = 2
)

var strategyColors = [3]color.RGBA{
	SafeBetter:   hex(0x4477AA), // blue
	DaringBetter: hex(0xEE6677), // red
	Equal:        hex(0xBBBBBB), // grey
}

var strategyNames = [3]string{
	SafeBetter:   "safe better",
	DaringBetter: "daring better",
	Equal:        "equal / no choice",
}

// StrategyMap draws a strategy table as a categorical heat map: codes[n][j]
// is the code of the state with n pairs and j unknown pairs, for n = 0..N
// and j = 0..n. The x axis is j, the y axis n (growing upwards); cells are
// (nearly) square. Codes SafeBetter, DaringBetter and Equal are drawn blue,
// red and grey and named in a legend at the right; NoState cells are left
// blank.
//
// codes must be non-empty and either triangular (len(codes[n]) == n+1)
// or rectangular (all rows of the same, non-zero length), of at most
// MaxCells cells, with every code in NoState..Equal.
func StrategyMap(title string, codes [][]int, xLabel, yLabel string) (Figure, error) {
	pt, err := strategyMapPainter(title, codes, xLabel, yLabel)
	if err != nil {
		return Figure{}, err
	}
	return pt.render()
}

func strategyMapPainter(title string, codes [][]int, xLabel, yLabel string) (painter, error) {
	if len(codes) == 0 {
		return painter{}, inputErr("strategy map: no rows")
	}
	if cells := cellCount(codes); cells > MaxCells {
		return painter{}, inputErr("strategy map: %d cells, at most %d", cells, MaxCells)
	}
	triangular, rectangular := true, len(codes[0]) > 0
	ncols := 0
	for n, row := range codes {
		triangular = triangular && len(row) == n+1
		rectangular = rectangular && len(row) == len(codes[0])
		ncols = max(ncols, len(row))
	}
	if !triangular && !rectangular {
		return painter{}, inputErr("strategy map: rows are neither triangular (len(codes[n]) == n+1) nor of equal length")
	}
	for n, row := range codes {
		for j, v := range row {
			if v < NoState || v > Equal {
				return painter{}, inputErr("strategy map: code [%d][%d] = %d is not in -1..2", n, j, v)
			}
		}
	}
	return painter{WidthCM, SquareHeightCM, func(dc draw.Canvas) {
		paintStrategyMap(dc, title, codes, ncols, xLabel, yLabel)
	}}, nil
}

func paintStrategyMap(dc draw.Canvas, title string, codes [][]int, ncols int, xLabel, yLabel string) {
	c := drawFrame(dc, title)
	nrows := len(codes)
	p := gridPlot(xLabel, yLabel, ncols, nrows)
	p.X.Tick.Marker = plot.TickerFunc(intTicks)
	p.Y.Tick.Marker = plot.TickerFunc(intTicks)

	cs := &cells{}
	if nrows <= 40 && ncols <= 40 {
		cs.edge = draw.LineStyle{Color: color.White, Width: vg.Points(0.75)}
	}
	for n, row := range codes {
		for j, v := range row {
			if v == NoState {
				continue
			}
			x, y := float64(j), float64(n)
			cs.cells = append(cs.cells, cell{x0: x - 0.5, x1: x + 0.5, y0: y - 0.5, y1: y + 0.5, fill: strategyColors[v]})
		}
	}
	p.Add(cs)

	var leg legend
	for v, name := range strategyNames {
		leg.entries = append(leg.entries, legendEntry{name, swatch{fill: strategyColors[v]}})
	}
	lw, _ := leg.size()
	main, aside := fitGrid(p, c, lw, ncols, nrows)
	p.Draw(main)
	leg.draw(c, aside.Min.X, aside.Max.Y)
}

// Choices of ChoiceMap, in the order of memsim's tie-breaking.
const (
	// NoChoice marks a cell that is not a state; it is left blank.
	NoChoice = -1
	// ChoiceDaring, ChoiceSafe, ChoiceKnownFirst and ChoicePass are the four choices of a mover.
	ChoiceDaring     = 0
	ChoiceSafe       = 1
	ChoiceKnownFirst = 2
	ChoicePass       = 3
)

var choiceColors = [4]color.RGBA{
	ChoiceDaring:     hex(0xEE6677), // red, as "daring better"
	ChoiceSafe:       hex(0x4477AA), // blue, as "safe better"
	ChoiceKnownFirst: hex(0x228833), // green
	ChoicePass:       hex(0xCCBB44), // yellow
}

var choiceNames = [4]string{
	ChoiceDaring:     "daring",
	ChoiceSafe:       "safe",
	ChoiceKnownFirst: "known-first",
	ChoicePass:       "pass",
}

// ChoiceMap draws the choices of a policy as a categorical map: choices[r][x] is the choice in
// the cell of column x and row r, whose y value is yFirst + r (for example a lead, which may be
// negative). Daring, safe, known-first and pass are drawn red, blue, green and yellow and named
// in a legend at the right; NoChoice cells are left blank. choices must be non-empty, its rows of
// one non-zero length, at most MaxCells cells, every value in NoChoice..ChoicePass, and its rows'
// y values within ±MaxMagnitude.
func ChoiceMap(title string, choices [][]int, yFirst int, xLabel, yLabel string) (Figure, error) {
	if len(choices) == 0 || len(choices[0]) == 0 {
		return Figure{}, inputErr("choice map: no cells")
	}
	if cells := cellCount(choices); cells > MaxCells {
		return Figure{}, inputErr("choice map: %d cells, at most %d", cells, MaxCells)
	}
	if math.Abs(float64(yFirst)) > MaxMagnitude || math.Abs(float64(yFirst)+float64(len(choices))) > MaxMagnitude {
		return Figure{}, inputErr("choice map: rows %d to %d reach beyond ±%g", yFirst, yFirst+len(choices)-1, MaxMagnitude)
	}
	ncols := len(choices[0])
	for r, row := range choices {
		if len(row) != ncols {
			return Figure{}, inputErr("choice map: row %d has %d cells, row 0 %d", r, len(row), ncols)
		}
		for x, v := range row {
			if v < NoChoice || v > ChoicePass {
				return Figure{}, inputErr("choice map: choice [%d][%d] = %d is not in -1..3", r, x, v)
			}
		}
	}
	pt := painter{WidthCM, SquareHeightCM, func(dc draw.Canvas) {
		c := drawFrame(dc, title)
		nrows := len(choices)
		p := gridPlot(xLabel, yLabel, ncols, nrows)
		p.Y.Min, p.Y.Max = float64(yFirst)-0.5, float64(yFirst+nrows)-0.5
		p.X.Tick.Marker = plot.TickerFunc(intTicks)
		p.Y.Tick.Marker = plot.TickerFunc(intTicks)
		cs := &cells{}
		if nrows <= 40 && ncols <= 40 {
			cs.edge = draw.LineStyle{Color: color.White, Width: vg.Points(0.75)}
		}
		used := [4]bool{}
		for r, row := range choices {
			for x, v := range row {
				if v == NoChoice {
					continue
				}
				used[v] = true
				y := float64(yFirst + r)
				cs.cells = append(cs.cells, cell{x0: float64(x) - 0.5, x1: float64(x) + 0.5, y0: y - 0.5, y1: y + 0.5, fill: choiceColors[v]})
			}
		}
		p.Add(cs)
		var leg legend
		for v, name := range choiceNames {
			if used[v] {
				leg.entries = append(leg.entries, legendEntry{name, swatch{fill: choiceColors[v]}})
			}
		}
		lw, _ := leg.size()
		main, aside := fitGrid(p, c, lw, ncols, nrows)
		p.Draw(main)
		leg.draw(c, aside.Min.X, aside.Max.Y)
	}}
	return pt.render()
}

// cellCount returns the cells of a grid of rows, stopping once they exceed MaxCells.
func cellCount(rows [][]int) int {
	n := 0
	for _, row := range rows {
		if n += len(row); n > MaxCells {
			break
		}
	}
	return n
}
