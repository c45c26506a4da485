package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A run's PNGs are named after their kind and deal size, report.md links every one of them, and
// the score distribution of a game without stalemates labels whole pairs only, with a panel per
// matchup.
func TestFiguresAreNamedAfterTheirDealSizesAndLinked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "fig", `seed: 9
games: 2000
rules: {pairs: [3]}
players:
  - {name: optimal, policy: optimal}
  - {name: parity, policy: parity}
`)
	if _, stderr, code := runArgs(t, "run", "--quiet", cfg); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "out", "fig")
	want := []string{"convergence-n3.png", "distribution-n3.png", "strategy-0.png", "tournament.png"}
	if got := dirNames(t, filepath.Join(out, "plots")); !slices.Equal(got, want) {
		t.Errorf("plots/ holds %v, want %v", got, want)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, png := range want {
		if !strings.Contains(string(md), "](plots/"+png+")") {
			t.Errorf("report.md does not link plots/%s", png)
		}
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fig := range strings.Split(string(html), "<figure>") {
		if !strings.Contains(fig, "<h4>Score distribution: 3 pairs<") {
			continue
		}
		n++
		// Shares 0 to 3 pairs, labelled in each of the two panels; no half shares are labelled.
		for _, label := range []string{">0<", ">1<", ">2<", ">3<"} {
			if c := strings.Count(fig, label); c < 2 {
				t.Errorf("the share %s is labelled %d times, want once per panel", label, c)
			}
		}
		for _, label := range []string{">0.5<", ">1.5<", ">2.5<"} {
			if strings.Contains(fig, label) {
				t.Errorf("the distribution labels the half share %s", label)
			}
		}
		for _, title := range []string{">optimal vs parity<", ">parity vs optimal<"} {
			if !strings.Contains(fig, title) {
				t.Errorf("the distribution has no panel %s", title)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d distribution figures in report.html, want 1", n)
	}
}
