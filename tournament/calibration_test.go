package tournament_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// calibrationSeeds, when positive, runs TestValidateCalibration: the embedded suite at
// calibrationGames games per matchup under that many seeds (about 3 s each on 2 cores):
//
//	go test ./tournament -run TestValidateCalibration -v -args -calibration-seeds 40
var (
	calibrationSeeds = flag.Int("calibration-seeds", 0, "seeds of the suite's calibration (0: skip the test)")
	calibrationGames = flag.Int("calibration-games", 100, "games per matchup of the calibration")
)

// Under the null (a correct engine) the suite must reject at about its level across seeds, and
// every kind of check must have raw p-values with uniform tails: among m p-values about m·x lie
// below x. The test prints, for each kind, how many fall below 1e-2 ... 1e-6 against that
// expectation, and the smallest; it fails when more seeds reject than a binomial bound allows at
// the level.
func TestValidateCalibration(t *testing.T) {
	seeds := *calibrationSeeds
	if seeds <= 0 {
		t.Skip("run with -args -calibration-seeds N")
	}
	const level = 0.01
	file, data := configs.ValidationSuite()
	pvals := map[string][]float64{}
	lower := map[string]int{} // checks below 1e-3 with a negative statistic
	rejecting := 0
	for seed := 1; seed <= seeds; seed++ {
		cfgs, err := configs.ParseSuite(file, data, tournament.ConfigOptions())
		if err != nil {
			t.Fatal(err)
		}
		for i, cfg := range cfgs {
			cfg.Seed = uint64(1000*seed + i)
		}
		s, err := tournament.NewSuite(context.Background(), cfgs, *calibrationGames)
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.Validate(context.Background(), tournament.ValidateOptions{Level: level})
		if err != nil {
			t.Fatal(err)
		}
		var rejected []string
		for _, c := range v.Checks {
			k := checkKind(c)
			pvals[k] = append(pvals[k], c.PValue)
			if c.PValue < 1e-3 && c.Statistic < 0 {
				lower[k]++
			}
			if c.Rejected {
				rejected = append(rejected, fmt.Sprintf("%s (%s=%.3g, p %.3g)", c.Name, c.Test, c.Statistic, c.PValue))
			}
		}
		if len(rejected) > 0 {
			rejecting++
			t.Logf("seed %d: %d rejected: %s", seed, len(rejected), strings.Join(rejected, "; "))
		}
	}
	kinds := make([]string, 0, len(pvals))
	for k := range pvals {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	t.Logf("%-34s %8s  %s", "kind", "p-values", "below 1e-2 1e-3 1e-4 1e-5 1e-6 (observed/expected), smallest")
	for _, k := range kinds {
		p := pvals[k]
		line := fmt.Sprintf("%-34s %8d ", k, len(p))
		for x := 1e-2; x > 1e-7; x /= 10 {
			below := 0
			for _, q := range p {
				if q < x {
					below++
				}
			}
			line += fmt.Sprintf(" %d/%.3g", below, x*float64(len(p)))
		}
		t.Logf("%s, %.3g; %d of those below 1e-3 low", line, slicesMin(p), lower[k])
	}
	t.Logf("%d of %d seeds reject a check at level %g", rejecting, seeds, level)
	// A calibrated suite rejects at most at the level per seed; allow the binomial's upper tail.
	if bound := float64(seeds)*level + 3*math.Sqrt(float64(seeds)*level) + 1; float64(rejecting) > bound {
		t.Errorf("%d of %d seeds reject, more than %.1f", rejecting, seeds, bound)
	}
}

// checkKind names the kind of a check: its test, its quantity without the seat, and whether the
// table seats two players or more.
func checkKind(c tournament.Check) string {
	name := c.Name[strings.LastIndex(c.Name, "/")+1:]
	name = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, " seat 0"), " seat 1"), " seat 2"), " seat 3")
	seats := "two"
	switch c.Family {
	case "multiplayer":
		seats = "more"
	case "solitaire":
		seats = "one"
	}
	return fmt.Sprintf("%s %s (%s)", c.Test, name, seats)
}

// slicesMin returns the smallest element of a non-empty slice.
func slicesMin(p []float64) float64 {
	m := math.Inf(1)
	for _, x := range p {
		m = math.Min(m, x)
	}
	return m
}
