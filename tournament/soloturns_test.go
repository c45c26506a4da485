package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// soloTurnsSuite is a small solitaire suite: perfect memory, a shared lru memory of capacity 3
// under blind flips and decay forgetting, without a limit and under a turn limit that stops some
// games, where the solver gives the distribution of the number of turns.
const soloTurnsSuite = `name: solo-perfect
seed: 11
games: 400
rules: {pairs: [4, 6], players_per_game: 1}
players:
  - {name: optimal, policy: optimal}
  - {name: daring, policy: daring}
---
name: solo-blind-lru
seed: 12
games: 400
rules: {pairs: [4], flips: blind, players_per_game: 1}
players:
  - {name: optimal-lru, policy: optimal, memory: {capacity: 3, forget: lru}}
---
name: solo-decay
seed: 13
games: 400
rules: {pairs: [4], players_per_game: 1}
players:
  - {name: optimal-decay, policy: optimal, memory: {forget: decay, q: 0.3}}
---
name: solo-decay-limit
seed: 14
games: 400
rules: {pairs: [4], turn_limit: 7, players_per_game: 1}
players:
  - {name: optimal-decay, policy: optimal, memory: {forget: decay, q: 0.3}}
`

// soloTurnsChecks validates the small solitaire suite, with the turns' reference widened when
// spread is set, and returns its checks of the distribution of turns and of the mean turns.
func soloTurnsChecks(t *testing.T, spread bool) (dist, mean []tournament.Check) {
	t.Helper()
	cfgs, err := configs.ParseSuite("solo.yaml", []byte(soloTurnsSuite), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSuite(context.Background(), cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := tournament.ValidateOptions{Level: 0.01}
	var res *tournament.Validation
	if spread {
		res, err = s.ValidateSpreadTurns(context.Background(), o)
	} else {
		res, err = s.Validate(context.Background(), o)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Checks {
		switch {
		case strings.HasSuffix(c.Name, "/distribution of turns"):
			dist = append(dist, c)
		case strings.HasSuffix(c.Name, "/mean turns"):
			mean = append(mean, c)
		}
	}
	return dist, mean
}

// Every solitaire matchup whose model has an exact distribution of the number of turns gets a G
// test of it, under a turn limit too, and the engine's games pass it.
func TestValidateChecksSolitaireTurnsDistribution(t *testing.T) {
	dist, mean := soloTurnsChecks(t, false)
	if len(dist) != 7 || len(mean) != 7 {
		t.Fatalf("%d checks of the distribution of turns and %d of the mean turns, want 7 and 7", len(dist), len(mean))
	}
	for _, c := range dist {
		if c.Test != "G" || c.Df == nil || *c.Df < 1 {
			t.Errorf("%s: test %s (statistic %g): want a G test with at least one degree of freedom", c.Name, c.Test, c.Statistic)
		}
		if c.Rejected {
			t.Errorf("%s rejected (p = %g): the engine's turns disagree with the solver's distribution", c.Name, c.PValue)
		}
	}
}

// The negative control of the distribution of turns: a reference as wide as the exact one mixed
// with itself a turn earlier and later (the same mean) must be rejected by the G test, while the
// checks of the mean turns, on the same games, notice nothing.
func TestValidateRejectsAWrongSolitaireTurnsDistribution(t *testing.T) {
	dist, mean := soloTurnsChecks(t, true)
	if len(dist) == 0 {
		t.Fatal("no check of the distribution of turns")
	}
	for _, c := range dist {
		t.Logf("%s: G = %.1f, df %d, p = %.2g", c.Name, c.Statistic, *c.Df, c.PValue)
		if !c.Rejected {
			t.Errorf("%s: not rejected (p = %g) against a widened distribution", c.Name, c.PValue)
		}
	}
	for _, c := range mean {
		if c.Rejected {
			t.Errorf("%s rejected: the widened distribution keeps the mean", c.Name)
		}
	}
}
