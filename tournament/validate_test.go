package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// embeddedSuite builds the embedded validation suite with the given games per matchup.
func embeddedSuite(t *testing.T, games int) *tournament.Suite {
	t.Helper()
	file, data := configs.ValidationSuite()
	cfgs, err := configs.ParseSuite(file, data, tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSuite(context.Background(), cfgs, games)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The negative control: the same code path, every two-player expectation taken from the opposite
// seat order (the first mover's advantage given to the second), must be rejected.
func TestValidateNegativeControl(t *testing.T) {
	res, err := embeddedSuite(t, controlGames()).ValidateWrongExpectation(context.Background(), tournament.ValidateOptions{Level: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	rejected := map[string]int{}
	for _, c := range res.Checks {
		if c.Rejected {
			rejected[c.Family]++
		}
	}
	t.Logf("%d of %d checks rejected: %v", total(rejected), len(res.Checks), rejected)
	for _, f := range []string{"perfect", "singletons", "handover-uniform", "lru", "win"} {
		if rejected[f] < 10 {
			t.Errorf("family %s: %d checks rejected under the wrong model, want many", f, rejected[f])
		}
	}
	// The swap leaves solitaire and three players alone: nothing there may be rejected.
	if rejected["solitaire"]+rejected["multiplayer"] > 0 {
		t.Errorf("checks without a swap rejected: %v", rejected)
	}
}

// total sums the counts of a map.
func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// The negative control of the luck adjustment: luck tables biased by 0.05 pairs for the mover at
// every daring choice (luck terms whose mean is not zero) must have the adjusted means rejected,
// while the raw checks, on the same games, notice nothing. At 400 games per matchup, where
// stats.FitLuck trusts no variance reduction beyond N/3, a bias of 0.05 is seen in most matchups
// (942 of 1,646; 645 at the 200 games of -short); 0.01 needs the suite's own 4,000 games (770),
// ten times the work.
func TestValidateBiasedLuck(t *testing.T) {
	res, err := embeddedSuite(t, controlGames()).ValidateBiasedLuck(context.Background(), tournament.ValidateOptions{Level: 0.01}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	adjusted, rejected, other := 0, 0, 0
	for _, c := range res.Checks {
		isAdjusted := strings.Contains(c.Name, "/adjusted pairs")
		if isAdjusted {
			adjusted++
		}
		switch {
		case c.Rejected && isAdjusted:
			rejected++
		case c.Rejected:
			other++
		}
	}
	t.Logf("%d of %d adjusted checks rejected, %d other checks", rejected, adjusted, other)
	if adjusted == 0 || rejected < adjusted/5 { // small deals have few daring choices to bias
		t.Errorf("%d of %d adjusted checks rejected under biased luck, want many", rejected, adjusted)
	}
	if other > 0 {
		t.Errorf("%d raw checks rejected: the bias must touch only the adjusted means", other)
	}
}

// controlGames is the games per matchup of the negative controls: 400, or 200 with -short.
func controlGames() int {
	if testing.Short() {
		return 200
	}
	return 400
}
