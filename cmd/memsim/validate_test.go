package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shortGames is the games per matchup of the short form of the embedded suite that make test runs.
const shortGames = 400

func TestValidateEmbeddedSuiteShort(t *testing.T) {
	stdout, stderr, code := runArgs(t, "validate", "--quiet", "--json", "--games", "400")
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	var res validationResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	families := map[string]int{}
	for _, c := range res.Checks {
		families[c.Family]++
		if c.Rejected || !c.Pass || c.PHolm < c.PValue || c.PHolm > 1 {
			t.Errorf("%+v", c)
		}
	}
	for _, f := range []string{"perfect", "singletons", "handover-uniform", "lru", "solitaire", "multiplayer"} {
		if families[f] == 0 {
			t.Errorf("no check of family %s", f)
		}
	}
	if res.Level != 0.01 || res.Games == 0 {
		t.Errorf("level %g, games %d", res.Level, res.Games)
	}
}

// The negative control: the same code path, every two-player expectation taken from the opposite
// seat order (the first mover's advantage given to the second), must be rejected.
func TestValidateNegativeControl(t *testing.T) {
	fl := validateFlags{level: 0.01, games: shortGames, quiet: true, json: true}
	res, err := validateSuite(context.Background(), fl, nil, validator{level: 0.01, seatSwap: true}, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	rejected := map[string]int{}
	for _, c := range res.Checks {
		if c.Rejected {
			rejected[c.Family]++
		}
	}
	for _, f := range []string{"perfect", "singletons", "handover-uniform", "lru"} {
		if rejected[f] < 10 {
			t.Errorf("family %s: %d checks rejected under the wrong model, want many", f, rejected[f])
		}
	}
	// The swap leaves solitaire and three players alone: nothing there may be rejected.
	if rejected["solitaire"]+rejected["multiplayer"] > 0 {
		t.Errorf("checks without a swap rejected: %v", rejected)
	}
}

func TestHolm(t *testing.T) {
	// Hand-computed: sorted p = 0.01, 0.02, 0.03, 0.5 give 4·0.01, 3·0.02, 2·0.03 and 0.5, each the
	// running maximum.
	cs := []check{{PValue: 0.03}, {PValue: 0.5}, {PValue: 0.01}, {PValue: 0.02}}
	holm(cs, 0.05)
	want := []float64{0.06, 0.5, 0.04, 0.06}
	for i, c := range cs {
		if math.Abs(c.PHolm-want[i]) > 1e-12 || c.Rejected != (want[i] < 0.05) {
			t.Errorf("check %d: Holm p %g rejected %v, want %g", i, c.PHolm, c.Rejected, want[i])
		}
	}
}

func TestGCheck(t *testing.T) {
	prob := []float64{0.25, 0.5, 0.25}
	// Counts exactly as expected: G = 0, p = 1.
	if c, ok := gCheck("x", "perfect", []int64{100, 200, 100}, prob); !ok || c.Statistic != 0 || c.PValue != 1 || c.Df != 2 {
		t.Errorf("exact counts: %+v %v", c, ok)
	}
	// G by hand: 2·Σ O ln(O/E) with O = 150, 150, 100 and E = 100, 200, 100.
	g := 2 * (150*math.Log(1.5) + 150*math.Log(0.75))
	if c, _ := gCheck("x", "perfect", []int64{150, 150, 100}, prob); math.Abs(c.Statistic-g) > 1e-9 || c.PValue > 1e-6 {
		t.Errorf("skewed counts: %+v, want G %g", c, g)
	}
	// An outcome of probability zero rejects at once.
	if c, ok := gCheck("x", "perfect", []int64{1, 399, 0}, []float64{0, 0.5, 0.5}); !ok || c.PValue != 0 {
		t.Errorf("impossible outcome: %+v", c)
	}
	// Small bins are pooled: 4 games expected in the first bin join the second.
	if c, _ := gCheck("x", "perfect", []int64{4, 46, 50}, []float64{0.04, 0.46, 0.5}); c.Df != 1 {
		t.Errorf("pooling: df %d, want 1", c.Df)
	}
	// A single outcome has no distribution to test.
	if _, ok := gCheck("x", "perfect", []int64{0, 10}, []float64{0, 1}); ok {
		t.Error("a single-outcome distribution was tested")
	}
}

func TestValidateBadInput(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite.yaml")
	body := "name: a\nplayers: [{name: x, policy: safe}, {name: y, policy: daring}]\n---\nname: a\nplayers: [{name: x, policy: safe}, {name: y, policy: daring}]\n"
	if err := os.WriteFile(suite, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--level", "0"}, "--level 0: must be between 0 and 1"},
		{[]string{"validate", "--level", "x"}, "--level \"x\": must be a number"},
		{[]string{"validate", suite}, "suite.yaml:4:1: document 2: duplicate name \"a\""},
		{[]string{"validate", "/no/such.yaml"}, "no such file"},
	}
	for _, tt := range tests {
		_, stderr, code := runArgs(t, tt.args...)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tt.args, code, stderr, tt.want)
		}
	}
}
