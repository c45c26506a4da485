package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cdSeatsCard returns every seat's expected pairs, averaged over the start tables, the game
// played card by card at p seats under a shared decay(q) memory of the given capacity (0: none),
// seat 0 first (making first on its first turn when first >= 0).
func cdSeatsCard(tables []cmTable, p, copies, capacity int, q float64, choose func(seat int, counts []int) rules.Choice, first int) []float64 {
	turns := &cdRef{q: q, capacity: capacity, copies: copies}
	r := &cmSeatsRef{turns: turns, copies: copies, p: p, choose: choose, edges: map[string][]cmSeatsEdge{}}
	return r.average(tables, first)
}

// TestCopiesDecaySeatsMatchCardPlay checks the decay copies model at three and four seats
// against card play over every deal, every card forgotten or kept at each hand-over and the
// capacity's draws enumerated card by card, from states the game reaches: every seat's expected
// pairs for the optimum of every seat for itself, fixed policies per seat and a best reply at
// one seat, and every choice's values; that no mover gains in card play by deviating
// once from the optimum (beyond the gain the solver reports), and that the replying seat's choice
// is the best of its choices in card play.
func TestCopiesDecaySeatsMatchCardPlay(t *testing.T) {
	type deck struct {
		faces, copies, capacity int
		q                       string
	}
	decks := []deck{{2, 4, 0, "0.5"}}
	// The states checked have a remembered card and at most maxPairs pairs (card play over every
	// deal of the whole deck is too slow here).
	states, maxPairs := 1, 2
	lineups := []Lineup{
		{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicySafe}},
	}
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 2, "0.25"})
		states, maxPairs = 6, 3
		lineups = append(lineups,
			Lineup{Players: 4, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
			Lineup{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal}})
	}
	ctx := context.Background()
	for _, d := range decks {
		var q float64
		fmt.Sscan(d.q, &q)
		for _, mu := range lineups {
			name := fmt.Sprintf("%d faces of %d, decay(%s) capacity %d, %s", d.faces, d.copies, d.q, d.capacity, lineupName(mu))
			m := decayCopies(q, d.capacity, d.copies)
			st, err := StartCopiesState(d.faces*d.copies/2, d.copies)
			if err != nil {
				t.Fatal(err)
			}
			s, err := newCopiesDecaySolver(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solve(); err != nil {
				t.Fatal(err)
			}
			pol := mu.SeatPolicies()
			choose := cmSeatsChooser(t, s.copiesMemSolver, pol)
			selfPlay, reply := s.seatsSelfish(), pol[0] == rules.PolicyBestResponse
			checked := 0
			for _, c := range s.cells {
				if c.h == 0 || c.pairs == 0 || c.pairs > maxPairs || checked == states {
					continue
				}
				checked++
				cs, err := CopiesChoiceValues(ctx, field.Float{}, m, mu, c.v.state())
				if err != nil {
					t.Fatal(err)
				}
				tab := []cmTable{cmTableOf(c.v)}
				own := cdSeatsCard(tab, mu.Players, d.copies, d.capacity, q, choose, -1)
				if !closeVec(cs.Value.PairsBySeat, own) {
					t.Errorf("%s, from %v: every seat's pairs %v, card play %v", name, c.v.state(), cs.Value.PairsBySeat, own)
				}
				for _, cv := range cs.Values {
					want := cdSeatsCard(tab, mu.Players, d.copies, d.capacity, q, choose, int(cv.Choice))
					if !closeVec(cv.PairsBySeat, want) {
						t.Errorf("%s, from %v: %s first: %v, card play %v", name, c.v.state(), cv.Choice, cv.PairsBySeat, want)
					}
					slack := 1e-9
					if selfPlay {
						slack += c.mseats.selfGap
					}
					if (selfPlay || reply) && want[0] > own[0]+slack {
						t.Errorf("%s, from %v: %s first gives the mover %.12f in card play, more than its policy's %.12f", name, c.v.state(), cv.Choice, want[0], own[0])
					}
				}
			}
			if checked == 0 {
				t.Errorf("%s: no state with a remembered card checked", name)
			}
		}
	}
}
