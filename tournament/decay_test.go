package tournament_test

import (
	"context"
	"strings"
	"testing"

	"memsim/configs"
	"memsim/tournament"
)

// TestDecayPlayersPlayTheirOwnModel checks that decay players play the table of their own model,
// that the solver gives exact values of their matchups, and which values measure their luck: the
// shared decay model for a shared memory, each seat's own model for private memories.
func TestDecayPlayersPlayTheirOwnModel(t *testing.T) {
	for _, tt := range []struct {
		scope, table, luck string
		exact              bool
	}{
		{"shared", "two-player optimal table, decay(3, q=0.2) memory", "the matchup's own model: ", true},
		{"private", "private memory has no exact model, so it plays the decay(3, q=0.2) table", "each seat's own memory model", false},
	} {
		src := "games: 10\nrules: {pairs: [5]}\nplayers:\n" +
			"  - {name: a, policy: optimal, memory: {capacity: 3, forget: decay, q: 0.2, scope: " + tt.scope + "}}\n" +
			"  - {name: b, policy: safe, memory: {capacity: 3, forget: decay, q: 0.2, scope: " + tt.scope + "}}\n"
		cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := tournament.New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Players[0].Table; !strings.Contains(got, tt.table) {
			t.Errorf("%s: table %q, want one containing %q", tt.scope, got, tt.table)
		}
		for _, m := range tr.Matches {
			if !strings.HasPrefix(m.LuckReference, tt.luck) {
				t.Errorf("%s: luck reference %q, want one starting %q", tt.scope, m.LuckReference, tt.luck)
			}
			if _, _, ok := tr.ExactModel(m.Setup.Pairs, m.IDs); ok != tt.exact {
				t.Errorf("%s: exact model %v, want %v", tt.scope, ok, tt.exact)
			}
		}
	}
}

// At three seats a decay player optimal plays the table of every seat for itself, and its
// matchups' exact values are of that play: the lineup gives the fixed seats their policies and
// optimal its own optimum's choices.
func TestDecayThreeSeatsHaveExactValues(t *testing.T) {
	src := "games: 10\nrules: {pairs: [4], players_per_game: 3}\nplayers:\n" +
		"  - {name: a, policy: optimal, memory: {forget: decay, q: 0.3}}\n" +
		"  - {name: b, policy: safe, memory: {forget: decay, q: 0.3}}\n" +
		"  - {name: c, policy: daring, memory: {forget: decay, q: 0.3}}\n"
	cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tournament.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range tr.Matches {
		for _, order := range m.Orders {
			seats := m.Seats(order)
			_, mu, ok := tr.ExactModel(m.Setup.Pairs, seats)
			if !ok {
				t.Errorf("seats %v: no exact model", seats)
				continue
			}
			if mu.TwoPlayerOptimal {
				t.Errorf("seats %v: optimal is the two-player optimum's choices, not every seat's own", seats)
			}
		}
	}
}

// memsim validate checks matchups of three seats under decay forgetting against the values of
// what the seats play, optimal the optimum of every seat for itself, and rejects none.
func TestValidateDecayThreeSeats(t *testing.T) {
	src := "name: d3\nseed: 2\ngames: 400\nrules: {pairs: [3], players_per_game: 3}\nplayers:\n" +
		"  - {name: a, policy: optimal, memory: {forget: decay, q: 0.3}}\n" +
		"  - {name: b, policy: safe, memory: {forget: decay, q: 0.3}}\n" +
		"  - {name: c, policy: daring, memory: {forget: decay, q: 0.3}}\n"
	cfgs, err := configs.ParseSuite("d3.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSuite(context.Background(), cfgs, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Validate(context.Background(), tournament.ValidateOptions{Level: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Checks) == 0 {
		t.Fatal("no checks")
	}
	for _, c := range res.Checks {
		if c.Rejected {
			t.Errorf("%s rejected: %s %.3g, p %.3g", c.Name, c.Test, c.Statistic, c.PValue)
		}
	}
}
