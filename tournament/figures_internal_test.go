package tournament

import (
	"slices"
	"strings"
	"testing"

	"memsim/analysis/report"
)

// Of ten matchups with exact values, the two whose exact value lies outside the interval come last in
// results.json; the figures go to them first, then to the others in order, up to the cap, and
// never to a matchup without an exact value.
func TestFiguresGoToFlaggedMatchupsFirst(t *testing.T) {
	exact := "1"
	var r report.Run
	for i := range 12 {
		m := report.Matchup{Pairs: 4, Players: []string{"a", "b"}, ExactPairs: []*string{&exact, &exact},
			CI95:        [][2]float64{{0.9, 1.1}, {0.9, 1.1}},
			Convergence: []report.ConvergencePoint{{Games: 1024, Mean: 1, Lo: 0.9, Hi: 1.1}}}
		switch i {
		case 0, 5: // no exact value
			m.ExactPairs = []*string{nil, nil}
		case 9: // seat 0's exact value above its interval
			m.CI95[0] = [2]float64{0.5, 0.8}
		case 11: // seat 1's exact value below its interval
			m.CI95[1] = [2]float64{1.2, 1.4}
		}
		r.Matchups = append(r.Matchups, m)
	}
	got := figureMatchups(&r)
	if want := []int{9, 11, 1, 2, 3, 4, 6, 7}; !slices.Equal(got, want) || len(got) != maxMatchupFigures {
		t.Errorf("figures go to matchups %v, want %v", got, want)
	}
}

// Figures of players with long names get file names within the 255 bytes a file system allows,
// still apart when the names differ only at their ends.
func TestLongNamesGiveShortFigureNames(t *testing.T) {
	long := strings.Repeat("a", 130)
	taken := map[string]bool{}
	a := uniqueSlug("n26-"+long+"x-vs-"+long+"y", taken)
	b := uniqueSlug("n26-"+long+"x-vs-"+long+"z", taken)
	c := uniqueSlug("n26-"+long+"x-vs-"+long+"z", taken)
	for _, s := range []string{a, b, c} {
		if name := "distribution-" + s + ".png"; len(name) > 255 {
			t.Errorf("%d bytes: %s", len(name), name)
		}
	}
	if a == b || b == c || a == c {
		t.Errorf("slugs not apart: %s %s %s", a, b, c)
	}
	if short := uniqueSlug("n26-optimal-vs-parity", map[string]bool{}); short != "n26-optimal-vs-parity" {
		t.Errorf("a short slug changed: %s", short)
	}
}
