package tournament_test

import (
	"slices"
	"testing"

	"memsim/sim"
	"memsim/tournament"
)

// flips lists the cards of a turn from their positions and faces: pos, face, pos, face, ...
func flips(posFace ...int) []sim.Card {
	var out []sim.Card
	for i := 0; i+1 < len(posFace); i += 2 {
		out = append(out, sim.Card{Pos: posFace[i], Face: posFace[i+1]})
	}
	return out
}

// Moves names the choice of each turn of a hand-written game from its flips alone. The table:
// positions 0 and 3 hold pair 0, 1 and 4 pair 1, 2 and 5 pair 2, 7 and 8 pair 3, 9 and 10 pair
// 4; position 6 holds the singleton (face 5, "S0").
func TestMovesNameTheChoices(t *testing.T) {
	const s0 = 5
	turns := []struct {
		flips []sim.Card
		end   string
		seen  []bool
		want  string
	}{
		{flips(0, 0, 3, 0), "pair", []bool{false, false}, "daring"},         // two new cards, a pair by luck
		{flips(1, 1, 2, 2), "miss", []bool{false, false}, "daring"},         // two new cards
		{flips(6, s0, 1, 1), "miss", []bool{false, true}, "daring or safe"}, // a new singleton first
		{flips(1, 1, 7, 3), "miss", []bool{true, false}, "known-first"},     // a seen card, then a new one
		{flips(9, 4, 6, s0), "miss", []bool{false, true}, "safe"},           // a new card of an unseen pair, then a seen card
		{flips(2, 2, 6, s0), "pass", []bool{true, true}, "pass"},            // two seen cards, not a pair
		{nil, "pass", []bool{}, "pass"},                                     // no flip
		{flips(5, 2, 8, 3), "miss", []bool{false, false}, "daring"},         // its partner 2 was seen, yet a new card second
		{flips(4, 1, 1, 1), "pair", []bool{false, true}, "daring or safe"},  // a new card, then its seen partner
		{flips(2, 2, 5, 2), "pair", []bool{true, true}, "known pair"},       // both cards of a seen pair
		{flips(10, 4, 9, 4), "pair", []bool{false, true}, "daring or safe"}, // a new card, then its seen partner
		{flips(7, 3, 8, 3), "pair", []bool{true, true}, "known pair"},       // both cards of a seen pair
	}
	log := &sim.Log{Pairs: 5, Singletons: 1, Names: []string{"a", "b"}}
	for i, tt := range turns {
		log.Turns = append(log.Turns, sim.LoggedTurn{Turn: i + 1, Seat: i % 2, Flips: tt.flips, End: tt.end})
	}
	moves := tournament.Moves(log)
	if len(moves) != len(turns) {
		t.Fatalf("%d moves for %d turns", len(moves), len(turns))
	}
	for i, tt := range turns {
		m := moves[i]
		if m.Choice != tt.want || !slices.Equal(m.Seen, tt.seen) || m.Turn != i+1 || !slices.Equal(m.Flips, tt.flips) {
			t.Errorf("turn %d %v: choice %q, seen %v; want %q, %v", i+1, tt.flips, m.Choice, m.Seen, tt.want, tt.seen)
		}
	}
}
