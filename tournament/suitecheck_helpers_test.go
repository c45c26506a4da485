package tournament_test

import (
	"context"
	"strconv"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// newSuite parses the validation suite src (named file in errors) and builds it.
func newSuite(t *testing.T, file, src string) *tournament.Suite {
	t.Helper()
	cfgs, err := configs.ParseSuite(file, []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSuite(context.Background(), cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// agreesWithSolver plays suite s, validates it at level 0.01 against the exact values and
// reports every rejected check as an error; it fails the test when there is no check at all. It
// returns the checks.
func agreesWithSolver(t *testing.T, s *tournament.Suite) []tournament.Check {
	t.Helper()
	right, err := s.Validate(context.Background(), tournament.ValidateOptions{Level: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if len(right.Checks) == 0 {
		t.Fatal("no check against the exact values")
	}
	for _, c := range right.Checks {
		if c.Rejected {
			t.Errorf("%s rejected against the exact values: %s %.3g, p %.3g", c.Name, c.Test, c.Statistic, c.PValue)
		}
	}
	return right.Checks
}

// negativeControl validates suite s at level 0.01 against the wrong expectation (every seat given
// another seat's exact values) and returns how many of the checks that keep accepts are rejected.
func negativeControl(t *testing.T, s *tournament.Suite, keep func(c tournament.Check) bool) int {
	t.Helper()
	wrong, err := s.ValidateWrongExpectation(context.Background(), tournament.ValidateOptions{Level: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	caught := 0
	for _, c := range wrong.Checks {
		if c.Rejected && keep(c) {
			caught++
		}
	}
	return caught
}

// shortGames is a suite's games per matchup: full, or short with -short (the checks keep their
// level, so the smaller sample only widens what they accept).
func shortGames(full, short int) string {
	if testing.Short() {
		return strconv.Itoa(short)
	}
	return strconv.Itoa(full)
}
