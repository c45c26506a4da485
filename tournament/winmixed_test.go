package tournament_test

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/configs"
	"memsim/sim/rules"
	"memsim/tournament"
)

// A win-optimal seat beside fixed policies plays the table of its seating: in every seat order
// of win-optimal, safe and daring, the win-optimal seat's choice at every count state and
// standings is one of the largest P(most pairs) for it among the legal choices, the other seats
// playing their policies (the solver's values of each choice made now); and in some seating it
// differs from the table of every seat playing win-optimal, which it replaces.
func TestMixedWinSeatPlaysItsSeatingsTable(t *testing.T) {
	const n = 4
	cfg, err := configs.Parse("mixed.yaml", []byte(fmt.Sprintf(`name: mixed
seed: 1
games: 100
rules: {pairs: [%d], players_per_game: 3}
players:
  - {name: win, policy: win-optimal}
  - {name: safe, policy: safe}
  - {name: daring, policy: daring}
`, n)), tournament.ConfigOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr, err := tournament.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	everyWin := tr.Players[0].Player.Table.Standings()
	pairsSeen := [][]int{{3, 1, 0}, {0, 3, 2}, {0, 0, 0}, {0, 0, 2}, {2, 1, 0}}
	differs, checked := 0, 0
	for _, m := range tr.Matches {
		if len(m.Orders) != 1 {
			t.Fatalf("match %v: %d seat orders, want 1", m.IDs, len(m.Orders))
		}
		seats := m.Seats(m.Orders[0])
		pols := make([]rules.Policy, len(seats))
		k := -1
		for i, id := range seats {
			pols[i] = tr.Players[id].Exact.Policy
			if pols[i] == rules.PolicyWinOptimal {
				k = i
			}
		}
		// The lineup seen from the win-optimal seat, which moves in the states below.
		from := make([]rules.Policy, len(pols))
		for i := range pols {
			from[i] = pols[(k+i)%len(pols)]
		}
		tab := m.Setup.Players[m.Orders[0][k]].Table.Standings()
		if tab == nil {
			t.Fatalf("seating %v: the win-optimal seat has no standings table", pols)
		}
		// Every count state at standings of up to three pairs: how many choices differ.
		for left := 1; left <= n; left++ {
			for j := 0; j <= left; j++ {
				for x := range 64 {
					pairs := []int{x % 4, x / 4 % 4, x / 16}
					st := rules.State{N: left, J: j}
					c, _ := tab.Lookup(st, pairs)
					if e, _ := everyWin.Lookup(st, pairs); e != c {
						differs++
					}
				}
			}
		}
		// The choice is among the best for the seat in a sample of states.
		for left := 2; left <= 3; left++ {
			for j := left - 1; j <= left; j++ {
				st := rules.State{N: left, J: j}
				for _, pairs := range pairsSeen {
					res, err := exact.EvaluateStandings[float64](ctx, field.Float{}, exact.Model{}, exact.SeatLineup(from...), st, pairs)
					if err != nil {
						t.Fatal(err)
					}
					c, ok := tab.Lookup(st, pairs)
					if !ok || res.Choices[c] == nil {
						t.Fatalf("seating %v, %v, pairs %v: table choice %v (%v) is not legal", pols, st, pairs, c, ok)
					}
					for _, v := range res.Choices {
						if v != nil && v.Score[0] > res.Choices[c].Score[0]+1e-12 {
							t.Errorf("seating %v, %v, pairs %v: table plays %v, worth %g to it, another choice %g", pols, st, pairs,
								c, res.Choices[c].Score[0], v.Score[0])
						}
					}
					checked++
				}
			}
		}
	}
	if checked == 0 || differs == 0 {
		t.Errorf("%d choices checked, %d differ from every seat playing win-optimal: want some of each", checked, differs)
	}
}
