package tournament_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"memsim/analysis/report"
	"memsim/configs"
	"memsim/tournament"
)

// parse parses a configuration and builds its tournament.
func parse(t *testing.T, src string) (*tournament.Tournament, error) {
	t.Helper()
	cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	return tournament.New(context.Background(), cfg)
}

// Players with choice sets have an exact model only with players of the same set, and a fixed
// policy that needs a choice outside its set is refused at the choices key.
func TestChoiceSets(t *testing.T) {
	tr, err := parse(t, `rules: {pairs: 6}
players:
  - {name: two, policy: optimal, choices: [daring, safe]}
  - {name: parity2, policy: parity, choices: [safe, daring]}
  - {name: full, policy: optimal}
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		seats []int
		exact bool
	}{{[]int{0, 1}, true}, {[]int{1, 0}, true}, {[]int{0, 2}, false}, {[]int{2, 1}, false}} {
		model, _, ok := tr.ExactModel(6, tt.seats)
		if ok != tt.exact {
			t.Errorf("seats %v: exact model %v, want %v", tt.seats, ok, tt.exact)
		}
		if ok && model.Choices.String() != "daring,safe" {
			t.Errorf("seats %v: model choices %v", tt.seats, model.Choices)
		}
	}
	if !strings.Contains(tr.Players[0].Table, "choices daring,safe") {
		t.Errorf("table note %q does not name the choice set", tr.Players[0].Table)
	}
	_, err = parse(t, "players:\n  - {name: a, policy: optimal}\n  - {name: b, policy: parity, choices: [daring, known-first]}\n")
	if err == nil || !strings.HasPrefix(err.Error(), "t.yaml:3:40: ") || !strings.Contains(err.Error(), "policy parity plays safe") {
		t.Errorf("parity without safe: %v", err)
	}
	_, err = parse(t, "players:\n  - {name: a, policy: optimal}\n  - {name: b, policy: random, choices: [daring]}\n")
	if err == nil || !strings.Contains(err.Error(), "takes no choice set") {
		t.Errorf("random with choices: %v", err)
	}
}

// Tournaments too large to lay out or to hold are refused, at the key at fault, before anything is
// built (16 players in games of 8, 1,000 pairs with 1,000 singletons).
func TestTooLarge(t *testing.T) {
	var players strings.Builder
	for i := range 16 {
		fmt.Fprintf(&players, "  - {name: p%d, policy: daring}\n", i)
	}
	tests := []struct{ src, want string }{
		{"rules: {players_per_game: 8}\nplayers:\n" + players.String(), "t.yaml:3:3: players: 16 players in games of 8 make more than 10000 seat orders"},
		{"rules: {pairs: [1000], singletons: 1000}\nplayers: [{name: a, policy: safe}, {name: b, policy: daring}]\n", "t.yaml:1:36: rules: 1000 pairs and 1000 singletons need choice tables of 1e+09 cells, at most 50000000"},
	}
	for _, tt := range tests {
		_, err := parse(t, tt.src)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.src, err, tt.want)
		}
	}
	// The counts of seatings match the enumeration.
	for _, f := range []string{"round-robin", "gauntlet"} {
		tr, err := parse(t, "format: "+f+"\nrules: {players_per_game: 3}\nplayers:\n"+strings.Join(strings.SplitAfter(players.String(), "\n")[:6], ""))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"round-robin": 6 * 5 * 4, "gauntlet": 6*5*4 - 5*4*3}[f]
		if len(tr.Matches) != want {
			t.Errorf("%s: %d matches, want %d", f, len(tr.Matches), want)
		}
	}
}

// Every matchup is luck-adjusted by default, with the reference named; luck_adjusted: false plays
// the same games (the raw numbers are equal) without the adjustment.
func TestLuckAdjustedKey(t *testing.T) {
	const src = "seed: 3\ngames: 3000\nrules: {pairs: [5]}\nplayers:\n  - {name: a, policy: optimal}\n  - {name: b, policy: daring}\n  - {name: c, policy: optimal, memory: {capacity: 3, forget: lru, scope: private}}\n"
	runs := map[bool]*report.Run{}
	for _, on := range []bool{true, false} {
		cfg := src
		if !on {
			cfg += "luck_adjusted: false\n"
		}
		tr, err := parse(t, cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tr.Play(context.Background(), tournament.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if runs[on], err = tr.Report(context.Background(), res); err != nil {
			t.Fatal(err)
		}
	}
	for i, m := range runs[true].Matchups {
		raw := runs[false].Matchups[i]
		if m.LuckAdjusted == nil || raw.LuckAdjusted != nil {
			t.Fatalf("matchup %v: luck_adjusted %v with the default, %v with false", m.Players, m.LuckAdjusted, raw.LuckAdjusted)
		}
		if !slices.Equal(m.MeanPairs, raw.MeanPairs) {
			t.Errorf("matchup %v: the raw means differ with and without the adjustment: %v, %v", m.Players, m.MeanPairs, raw.MeanPairs)
		}
		mixed := slices.Contains(m.Players, "c") // a private lru memory against perfect ones
		model := strings.HasPrefix(m.LuckAdjusted.Reference, "the matchup's own model")
		if mixed == model {
			t.Errorf("matchup %v: reference %q", m.Players, m.LuckAdjusted.Reference)
		}
	}
}
