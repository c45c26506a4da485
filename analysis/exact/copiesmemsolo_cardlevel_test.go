package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// solveSolo returns every card-level state's expected turns (each two-card flip one turn, a pair
// known whole taken by a turn of its own) and lucky matches in solitaire, by value iteration over
// the reference's outcomes (the seat role the reference alternates at a hand-over plays the same
// way).
func (r *cmRef) solveSolo() (turns, lucky map[string]float64) {
	turns = make(map[string]float64, len(r.edges))
	lucky = make(map[string]float64, len(r.edges))
	for it := 0; it < 1000000; it++ {
		delta := 0.0
		for k, es := range r.edges {
			x, l := 0.0, 0.0
			for _, e := range es {
				x += e.p * (1 + turns[e.to])
				l += e.p * lucky[e.to]
				if e.lucky {
					l += e.p
				}
			}
			delta = max(delta, math.Abs(x-turns[k]), math.Abs(l-lucky[k]))
			turns[k], lucky[k] = x, l
		}
		if delta < 1e-13 {
			break
		}
	}
	return turns, lucky
}

// cmCardSolo returns solitaire's expected turns and lucky matches averaged over the start tables,
// played card by card with a handover-uniform memory of the given capacity, choosing by choose;
// with first >= 0 the first turn makes that choice.
func cmCardSolo(tables []cmTable, copies, capacity int, choose func(counts []int) rules.Choice, first int) (float64, float64) {
	r := &cmRef{capacity: capacity, copies: copies, edges: map[string][]cmEdge{},
		choose: func(_ int, counts []int) rules.Choice { return choose(counts) }}
	var starts []string
	for _, t := range tables {
		starts = append(starts, r.explore(t, first))
	}
	turns, lucky := r.solveSolo()
	var x, l float64
	for _, k := range starts {
		x += turns[k]
		l += lucky[k]
	}
	return x / float64(len(starts)), l / float64(len(starts))
}

// TestCopiesHandoverSolitaireMatchesCardPlay checks solitaire's expected turns and lucky matches
// under a shared handover-uniform memory with copies against card play over every deal (safe,
// daring, and the optimum with its choices read off the solver's states), every choice's values
// from states with remembered cards against card play with that choice first, and that no choice
// there, the optimum played afterwards, takes fewer turns in card play than the optimum's own.
func TestCopiesHandoverSolitaireMatchesCardPlay(t *testing.T) {
	type deck struct{ faces, copies, capacity int }
	decks := []deck{{2, 4, 2}, {2, 4, 3}}
	ctx := context.Background()
	for _, d := range decks {
		for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
			name := fmt.Sprintf("%d faces of %d, handover-uniform(%d), solitaire %s", d.faces, d.copies, d.capacity, p)
			m := handoverCopies(d.capacity, d.copies)
			mu := Lineup{Players: 1, Policy: p, Opponent: p}
			st, err := StartCopiesState(d.faces*d.copies/2, d.copies)
			if err != nil {
				t.Fatal(err)
			}
			s, err := newCopiesMemSolver(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solve(); err != nil {
				t.Fatal(err)
			}
			choose := func(counts []int) rules.Choice {
				i, ok := s.at[copiesVec(counts).key()]
				if !ok {
					t.Fatalf("%s: the solver did not reach %v", name, copiesVec(counts).state())
				}
				if p == rules.PolicyOptimal {
					return s.cells[i].soloChoice
				}
				if p == rules.PolicySafe && remembered(copiesVec(counts)) > 0 {
					return rules.Safe
				}
				return rules.Daring
			}
			res, err := EvaluateCopies(ctx, field.Float{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			turns, lucky := cmCardSolo(cmDeals(d.faces, d.copies), d.copies, d.capacity, choose, -1)
			if math.Abs(res.ExpectedTurns-turns) > 1e-9 || math.Abs(res.ExpectedLucky-lucky) > 1e-9 {
				t.Errorf("%s: %.12f turns, %.12f lucky; card play %.12f, %.12f", name, res.ExpectedTurns, res.ExpectedLucky, turns, lucky)
			}
			for _, c := range s.cells {
				if c.h == 0 || c.pairs == 0 {
					continue
				}
				cst := c.v.state()
				cs, err := CopiesChoiceValues(ctx, field.Float{}, m, mu, cst)
				if err != nil {
					t.Fatal(err)
				}
				own, _ := cmCardSolo([]cmTable{cmTableOf(c.v)}, d.copies, d.capacity, choose, -1)
				for _, cv := range cs.Values {
					want, wantLucky := cmCardSolo([]cmTable{cmTableOf(c.v)}, d.copies, d.capacity, choose, int(cv.Choice))
					if math.Abs(cv.Turns-want) > 1e-9 || math.Abs(cv.Lucky-wantLucky) > 1e-9 {
						t.Errorf("%s, from %v: %s first: %.12f turns, %.12f lucky; card play %.12f, %.12f", name, cst, cv.Choice, cv.Turns, cv.Lucky, want, wantLucky)
					}
					if p == rules.PolicyOptimal && want < own-1e-9 {
						t.Errorf("%s, from %v: %s first takes %.12f turns in card play, fewer than optimal's %.12f", name, cst, cv.Choice, want, own)
					}
				}
			}
		}
	}
}
