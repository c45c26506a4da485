package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// Under a turn limit the two seats' shares need not add up to the pairs dealt, and validate checks
// the whole distribution of seat 0's share (a G test) and every seat's mean: against the exact
// distribution and means every check passes, and the negative control, which gives seat 0 seat
// 1's exact distribution (seat 1's own, not seat 0's reversed), has every distribution check
// rejected. The limits are odd, so that the first mover has a turn more than the second and the
// two seats' distributions differ.
func TestValidateDistributionUnderTurnLimit(t *testing.T) {
	const suite = `name: copies-limit
seed: 1
games: 2000
rules: {pairs: [4, 6], copies: 4, turn_limit: 3}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
---
name: limit
seed: 2
games: 2000
rules: {pairs: [4, 6], turn_limit: 3}
players:
  - {name: optimal, policy: optimal}
  - {name: daring, policy: daring}
`
	validate := func(wrong bool) *tournament.Validation {
		t.Helper()
		cfgs, err := configs.ParseSuite("limit.yaml", []byte(suite), tournament.ConfigOptions())
		if err != nil {
			t.Fatal(err)
		}
		s, err := tournament.NewSuite(context.Background(), cfgs, 0)
		if err != nil {
			t.Fatal(err)
		}
		o := tournament.ValidateOptions{Level: 0.01}
		var res *tournament.Validation
		if wrong {
			res, err = s.ValidateWrongExpectation(context.Background(), o)
		} else {
			res, err = s.Validate(context.Background(), o)
		}
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	right, wrong := validate(false), validate(true)
	dists, seat1 := 0, 0
	for _, c := range right.Checks {
		if c.Rejected {
			t.Errorf("%s rejected against the exact values: %s %.3g, p %.3g", c.Name, c.Test, c.Statistic, c.PValue)
		}
		if want := map[bool]string{true: "copies-limit", false: "turn-limit"}[strings.HasPrefix(c.Name, "copies-limit/")]; c.Family != want {
			t.Errorf("%s: family %s, want %s", c.Name, c.Family, want)
		}
		if strings.HasSuffix(c.Name, "/distribution") {
			dists++
		}
		if strings.HasSuffix(c.Name, "/mean pairs seat 1") {
			seat1++
		}
	}
	// Two tournaments, two deal sizes, two seat orders.
	if dists != 8 || seat1 != 8 {
		t.Errorf("%d distribution checks and %d of seat 1's mean, want 8 of each", dists, seat1)
	}
	caught := 0
	for _, c := range wrong.Checks {
		if strings.HasSuffix(c.Name, "/distribution") {
			if !c.Rejected {
				t.Errorf("%s: seat 1's distribution not rejected for seat 0: G %.3g, p %.3g", c.Name, c.Statistic, c.PValue)
			}
			caught++
		}
	}
	if caught != dists {
		t.Errorf("%d distribution checks under the control, %d without", caught, dists)
	}
}
