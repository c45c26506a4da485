package tournament_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// embeddedSuite builds the embedded validation suite with the given games per matchup.
func embeddedSuite(t *testing.T, games int) *tournament.Suite {
	return embeddedSuiteOf(t, games, func(string) bool { return true })
}

// embeddedSuiteOf is embeddedSuite with only the tournaments whose names keep accepts.
func embeddedSuiteOf(t *testing.T, games int, keep func(name string) bool) *tournament.Suite {
	t.Helper()
	return embeddedSuiteCut(t, games, 0, keep)
}

// embeddedSuiteCut is embeddedSuiteOf with each tournament's deal sizes of more than maxPairs
// pairs left out (none when maxPairs is 0).
func embeddedSuiteCut(t *testing.T, games, maxPairs int, keep func(name string) bool) *tournament.Suite {
	t.Helper()
	file, data := configs.ValidationSuite()
	all, err := configs.ParseSuite(file, data, tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	var cfgs []*configs.Tournament
	for _, c := range all {
		if !keep(c.Name) {
			continue
		}
		if maxPairs > 0 {
			c.Rules.Pairs = slices.DeleteFunc(c.Rules.Pairs, func(n int) bool { return n > maxPairs })
		}
		cfgs = append(cfgs, c)
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
	res, err := controlSuite(t).ValidateWrongExpectation(context.Background(), tournament.ValidateOptions{Level: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	rejected, checks := map[string]int{}, map[string]int{}
	for _, c := range res.Checks {
		checks[c.Family]++
		if c.Rejected {
			rejected[c.Family]++
		}
	}
	t.Logf("%d of %d checks rejected: %v", total(rejected), len(res.Checks), rejected)
	for _, f := range []string{"perfect", "singletons", "handover-uniform", "lru", "win"} {
		if raceEnabled && checks[f] == 0 {
			continue // a family the control suite leaves out under the race detector
		}
		if rejected[f] < 10 {
			t.Errorf("family %s: %d checks rejected under the wrong model, want many", f, rejected[f])
		}
	}
	// The swap leaves solitaire and the means at three or more seats alone: nothing there may be
	// rejected (the seats' distributions, swapped, are TestValidateSeatsDistributionNegativeControl's).
	for _, c := range res.Checks {
		if c.Rejected && (c.Family == "solitaire" || c.Family == "multiplayer" && c.Test != "G") {
			t.Errorf("%s rejected: the control does not swap it", c.Name)
		}
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
// while the raw checks, on the same games, notice nothing. At 400 games per matchup, where an
// adjusted check takes the variance of a game's adjusted score to be at least 3/N times the most
// a score with the exact mean can vary, a bias of 0.05 is seen in 1,337 of the 3,512 adjusted
// checks (677 at the 200 games of -short); 0.01 needs the suite's own 4,000 games, ten times the
// work.
func TestValidateBiasedLuck(t *testing.T) {
	res, err := controlSuite(t).ValidateBiasedLuck(context.Background(), tournament.ValidateOptions{Level: 0.01}, 0.05)
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
	if adjusted == 0 || rejected < adjusted/6 { // small deals have few daring choices to bias
		t.Errorf("%d of %d adjusted checks rejected under biased luck, want many", rejected, adjusted)
	}
	if other > 0 {
		t.Errorf("%d raw checks rejected: the bias must touch only the adjusted means", other)
	}
}

// controlSuite is the suite of the negative controls: the embedded suite at controlGames() games
// per matchup; with -short only its tournaments of the standard game's two-player models,
// solitaire and three players with fixed policies (the families the controls name), which keeps
// them within a few seconds. Under the race detector, which slows the engine and the solver down
// several times, one tournament of each family is left, dealt at most raceControlPairs pairs.
func controlSuite(t *testing.T) *tournament.Suite {
	if !testing.Short() {
		return embeddedSuite(t, controlGames())
	}
	if raceEnabled {
		names := []string{"perfect-never", "lru-3", "solitaire", "three-players", "win-never"}
		return embeddedSuiteCut(t, controlGames(), raceControlPairs, func(name string) bool { return slices.Contains(names, name) })
	}
	prefixes := []string{"perfect-", "singletons-", "handover-uniform-", "lru-", "solitaire", "three-players", "win-never", "win-always", "win-two-known", "win-lru", "win-handover"}
	return embeddedSuiteOf(t, controlGames(), func(name string) bool {
		for _, prefix := range prefixes {
			if strings.HasPrefix(name, prefix) {
				return true
			}
		}
		return false
	})
}

// raceControlPairs is the largest deal size of the negative controls under the race detector.
const raceControlPairs = 6

// controlGames is the games per matchup of the negative controls: 400, or 200 with -short.
func controlGames() int {
	if testing.Short() {
		return 200
	}
	return 400
}

// The negative control of the multiplayer checks: an engine playing every seat's own optimum,
// checked against the two-player optimum's values (what an engine that played the two-player
// table would score), must be caught at the suite's 4,000 games per matchup wherever the two
// optima differ (not at 3 pairs, where they agree), and passed against its own values.
func TestValidateTwoPlayerOptimal(t *testing.T) {
	const suite = `name: selfish
seed: 1
games: 4000
rules: {pairs: [3, 4, 5, 6], players_per_game: 3}
players:
  - {name: a, policy: optimal}
  - {name: b, policy: optimal}
  - {name: c, policy: optimal}
`
	validate := func(wrong bool) *tournament.Validation {
		t.Helper()
		cfgs, err := configs.ParseSuite("selfish.yaml", []byte(suite), tournament.ConfigOptions())
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
			res, err = s.ValidateTwoPlayerOptimal(context.Background(), o)
		} else {
			res, err = s.Validate(context.Background(), o)
		}
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	right, wrong := validate(false), validate(true)
	// Every seat's distribution is G-tested against the own optimum only (the two-player optimum's
	// choices have no seats' distribution): the control compares the means.
	right.Checks = slices.DeleteFunc(right.Checks, func(c tournament.Check) bool { return c.Test == "G" })
	if len(right.Checks) != len(wrong.Checks) || len(right.Checks) == 0 {
		t.Fatalf("%d checks against the own optimum, %d against the two-player one", len(right.Checks), len(wrong.Checks))
	}
	differ, caught := 0, 0
	for i, c := range wrong.Checks {
		r := right.Checks[i]
		if r.Rejected {
			t.Errorf("%s rejected against the own optimum: %s %.3g, p %.3g", r.Name, r.Test, r.Statistic, r.PValue)
		}
		switch d := math.Abs(*c.Expected - *r.Expected); {
		case d > 0.05:
			differ++
			if c.Rejected {
				caught++
			} else {
				t.Errorf("%s: %g observed, the two-player optimum's %g not rejected (own optimum %g): %s %.3g",
					c.Name, *c.Observed, *c.Expected, *r.Expected, c.Test, c.Statistic)
			}
		case d == 0 && c.Rejected:
			t.Errorf("%s rejected where the two optima agree", c.Name)
		}
	}
	if differ == 0 {
		t.Fatal("the two optima agree everywhere: the control tests nothing")
	}
	t.Logf("%d of %d checks whose two optima differ by more than 0.05 pairs rejected", caught, differ)
}

// The negative control of the G tests of every seat's share at three seats: under a fluctuating
// capacity, without a pass rule (whole pairs) and under two-known (a stalemate shares the pairs
// left in thirds), and without -short with perfect memory under always, lru of a fixed capacity
// and perfect memory under two-known and a turn limit, each seat's distribution passes against its own exact distribution and is rejected
// against the next seat's, while the means, which keep their own expectation, pass.
func TestValidateSeatsDistributionNegativeControl(t *testing.T) {
	const suite = `name: seats-never
seed: 3
games: 400
rules: {pairs: [4], players_per_game: 3}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: safe, policy: safe, memory: {capacity: 3, forget: lru, fluctuation: 1}}
  - {name: daring, policy: daring, memory: {capacity: 3, forget: lru, fluctuation: 1}}
---
name: seats-two-known
seed: 4
games: 400
rules: {pairs: [4], pass: two-known, players_per_game: 3}
players:
  - {name: optimal-a, policy: optimal, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
  - {name: optimal-b, policy: optimal, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
  - {name: safe, policy: safe, memory: {capacity: 3, forget: handover-uniform, fluctuation: 1}}
`
	cfgs, err := configs.ParseSuite("seats.yaml", []byte(suite), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !testing.Short() {
		const fixed = `name: seats-perfect-always
seed: 5
games: 400
rules: {pairs: [4], pass: always, players_per_game: 3}
players:
  - {name: optimal-a, policy: optimal}
  - {name: optimal-b, policy: optimal}
  - {name: daring, policy: daring}
---
name: seats-lru-never
seed: 6
games: 400
rules: {pairs: [5], players_per_game: 3}
players:
  - {name: optimal, policy: optimal, memory: {capacity: 3, forget: lru}}
  - {name: safe, policy: safe, memory: {capacity: 3, forget: lru}}
  - {name: daring, policy: daring, memory: {capacity: 3, forget: lru}}
---
name: seats-limit-two-known
seed: 7
games: 400
rules: {pairs: [5], pass: two-known, turn_limit: 7, players_per_game: 3}
players:
  - {name: optimal, policy: optimal}
  - {name: safe, policy: safe}
  - {name: daring, policy: daring}
`
		more, err := configs.ParseSuite("fixed.yaml", []byte(fixed), tournament.ConfigOptions())
		if err != nil {
			t.Fatal(err)
		}
		cfgs = append(cfgs, more...)
	}
	if raceEnabled && testing.Short() {
		// The race detector's short form: the tournament without a pass rule alone, at 3 pairs.
		cfgs = cfgs[:1]
		cfgs[0].Rules.Pairs = []int{3}
	}
	s, err := tournament.NewSuite(context.Background(), cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := tournament.ValidateOptions{Level: 0.01}
	right, err := s.Validate(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	wrong, err := s.ValidateWrongExpectation(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(right.Checks) != len(wrong.Checks) {
		t.Fatalf("%d checks against the right expectation, %d against the wrong one", len(right.Checks), len(wrong.Checks))
	}
	// Every seat of every seat order has its G test: 6 seat orders × 3 seats per tournament.
	want := len(cfgs) * 6 * 3
	tested, caught := 0, 0
	for i, c := range wrong.Checks {
		r := right.Checks[i]
		if r.Rejected {
			t.Errorf("%s rejected against its own exact values: %s %.3g, p %.3g", r.Name, r.Test, r.Statistic, r.PValue)
		}
		if c.Test != "G" {
			if c.Rejected {
				t.Errorf("%s rejected: the control changes only the distributions at three seats", c.Name)
			}
			continue
		}
		// A share the wrong distribution gives probability 0 rejects at once, with df 0.
		if !strings.Contains(c.Name, "/distribution seat ") || c.Df == nil || (*c.Df < 1 && (!c.Rejected || c.PValue != 0)) {
			t.Errorf("%s: a G test of a seat's distribution with df %v", c.Name, c.Df)
		}
		tested++
		if c.Rejected {
			caught++
		}
	}
	t.Logf("%d of %d G tests rejected against the next seat's distribution", caught, tested)
	if tested != want {
		t.Errorf("%d G tests of the seats' distributions, want %d", tested, want)
	}
	if caught < tested*2/3 {
		t.Errorf("%d of %d G tests rejected against the next seat's distribution, want most", caught, tested)
	}
}
