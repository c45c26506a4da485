package tournament

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"memsim/analysis/plots"
	"memsim/analysis/report"
)

// Every matchup with convergence points gets a panel, exactly once, in the figures of its deal
// size (in the order of the rules' sizes), with or without an exact value; a deal size of more
// matchups than a figure holds is split into figures of nearly equal size.
func TestEveryMatchupGetsAPanel(t *testing.T) {
	exact := "1"
	var r report.Run
	r.Rules.Pairs = []int{26, 4}
	count := map[int]int{4: 3, 26: 2*plots.MaxPanels + 5}
	for _, n := range []int{4, 26} {
		for i := range count[n] {
			m := report.Matchup{Pairs: n, Players: []string{"a", "b"}, ExactPairs: []*string{&exact, &exact},
				Convergence: []report.ConvergencePoint{{Games: 1024, Mean: 1, Lo: 0.9, Hi: 1.1}}}
			if i%3 == 0 {
				m.ExactPairs = []*string{nil, nil}
			}
			r.Matchups = append(r.Matchups, m)
		}
	}
	r.Matchups = append(r.Matchups, report.Matchup{Pairs: 4}) // no games: no convergence points
	sizes, groups := sizeGroups(&r)
	if !slices.Equal(sizes, []int{26, 4}) {
		t.Fatalf("deal sizes %v, want [26 4]", sizes)
	}
	seen := map[int]int{}
	for g, n := range sizes {
		ps := parts(groups[g])
		if want := (count[n] + plots.MaxPanels - 1) / plots.MaxPanels; len(ps) != want {
			t.Errorf("%d pairs: %d figures, want %d", n, len(ps), want)
		}
		for _, p := range ps {
			if len(p) > plots.MaxPanels || len(p) < count[n]/len(ps) {
				t.Errorf("%d pairs: a figure of %d panels (of %d matchups in %d figures)", n, len(p), count[n], len(ps))
			}
			for _, i := range p {
				if r.Matchups[i].Pairs != n {
					t.Errorf("matchup %d (%d pairs) in a figure of %d pairs", i, r.Matchups[i].Pairs, n)
				}
				seen[i]++
			}
		}
	}
	for i := range r.Matchups[:len(r.Matchups)-1] {
		if seen[i] != 1 {
			t.Errorf("matchup %d drawn %d times", i, seen[i])
		}
	}
	if seen[len(r.Matchups)-1] != 0 {
		t.Error("a matchup without games is drawn")
	}
}

// A figure split in parts numbers them in its names and titles; a figure of one part keeps its
// plain name.
func TestPartNames(t *testing.T) {
	tests := []struct {
		i, k         int
		name, suffix string
	}{
		{0, 1, "convergence-n26", ""},
		{0, 3, "convergence-n26", " (1 of 3)"},
		{2, 3, "convergence-n26-3", " (3 of 3)"},
	}
	for _, tt := range tests {
		name, suffix := partName("convergence-n26", tt.i, tt.k)
		if name != tt.name || suffix != tt.suffix {
			t.Errorf("part %d of %d: %q %q, want %q %q", tt.i, tt.k, name, suffix, tt.name, tt.suffix)
		}
	}
}

// A caption says how many panels lack an exact value, and says nothing when none does.
func TestCaptionsCountMissingExactValues(t *testing.T) {
	exact := "1"
	r := report.Run{}
	for i := range 4 {
		m := report.Matchup{ExactPairs: []*string{&exact}}
		if i < 3 {
			m.ExactPairs[0] = nil
		}
		r.Matchups = append(r.Matchups, m)
	}
	has := func(m *report.Matchup) bool { return m.ExactPairs[0] != nil }
	tests := []struct {
		matchups []int
		want     string
	}{
		{[]int{3}, ""},
		{[]int{0}, "This matchup has no exact value"},
		{[]int{0, 1}, "None of these matchups has an exact value"},
		{[]int{0, 1, 2, 3}, fmt.Sprintf("%d of the %d matchups have no exact value", 3, 4)},
	}
	for _, tt := range tests {
		got := withoutExact(&r, tt.matchups, has, "exact value")
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%v: %q, want %q", tt.matchups, got, tt.want)
		}
	}
}
