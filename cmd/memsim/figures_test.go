package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A run's PNGs are named after their matchups, report.md links every one of them, and the score
// distribution of a game without stalemates has no slot for the half shares nobody can reach.
func TestFiguresAreNamedAfterTheirMatchupsAndLinked(t *testing.T) {
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
	want := []string{"convergence-n3-optimal-vs-parity.png", "convergence-n3-parity-vs-optimal.png",
		"distribution-n3-optimal-vs-parity.png", "distribution-n3-parity-vs-optimal.png", "strategy-0.png", "tournament.png"}
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
		if !strings.Contains(fig, "<h4>Score distribution:") {
			continue
		}
		n++
		// Shares 0 to 3 pairs; 0.5, 1.5 and 2.5 need a stalemate, which pass never does not have.
		for _, label := range []string{">0<", ">1<", ">2<", ">3<"} {
			if !strings.Contains(fig, label) {
				t.Errorf("a distribution lacks the share %s", label)
			}
		}
		for _, label := range []string{">1.5<", ">2.5<"} {
			if strings.Contains(fig, label) {
				t.Errorf("a distribution has an empty slot for the share %s", label)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d distribution figures in report.html, want 2", n)
	}
}
