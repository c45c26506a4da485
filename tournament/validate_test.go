package tournament_test

import (
	"context"
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
	res, err := embeddedSuite(t, 400).Validate(context.Background(), tournament.ValidateOptions{Level: 0.01, NegativeControl: true})
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
