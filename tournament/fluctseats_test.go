package tournament_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/configs"
	"memsim/tournament"
)

// At three seats with a shared fluctuating memory, optimal plays the 3-player table of its own
// memory, and the seatings have exact values (every seat for itself and fixed policies) up to
// exact.FluctSelfishRationalLimit pairs, none beyond.
func TestFluctuationThreeSeatsHaveExactValues(t *testing.T) {
	small, large := 4, exact.FluctSelfishRationalLimit+1
	src := fmt.Sprintf("games: 10\nrules: {pairs: [%d, %d], players_per_game: 3}\nplayers:\n", small, large) +
		"  - {name: a, policy: optimal, memory: {capacity: 3, forget: lru, fluctuation: 1}}\n" +
		"  - {name: b, policy: safe, memory: {capacity: 3, forget: lru, fluctuation: 1}}\n" +
		"  - {name: c, policy: daring, memory: {capacity: 3, forget: lru, fluctuation: 1}}\n"
	cfg, err := configs.Parse("t.yaml", []byte(src), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tournament.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tr.Players[0].Table, "3-player optimal table, lru(3, fluctuation 1) memory"; !strings.Contains(got, want) {
		t.Errorf("table %q, want one containing %q", got, want)
	}
	for _, m := range tr.Matches {
		for _, order := range m.Orders {
			seats := m.Seats(order)
			model, mu, ok := tr.ExactModel(m.Setup.Pairs, seats)
			if ok != (m.Setup.Pairs == small) {
				t.Errorf("%d pairs, seats %v: exact model %v", m.Setup.Pairs, seats, ok)
			}
			if ok && (model.Memory.Fluctuation != 1 || mu.Players != 3) {
				t.Errorf("%d pairs, seats %v: model %v, %d players", m.Setup.Pairs, seats, model.Memory, mu.Players)
			}
		}
	}
}
