package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cdCardSolo returns solitaire's expected turns and lucky matches averaged over the start tables,
// played card by card with a shared decay(q) memory of the given capacity (0: none), every turn
// without a pair a hand-over to the player itself, choosing by choose; with first >= 0 the first
// turn makes that choice.
func cdCardSolo(tables []cmTable, copies, capacity int, q float64, choose func(counts []int) rules.Choice, first int) (float64, float64) {
	r := &cdRef{q: q, capacity: capacity, copies: copies, edges: map[string][]cmEdge{},
		choose: func(_ int, counts []int) rules.Choice { return choose(counts) }}
	var starts []string
	for _, t := range tables {
		starts = append(starts, r.explore(t, first))
	}
	turns, lucky := soloEdges(r.edges, r.order)
	var x, l float64
	for _, k := range starts {
		x += turns[k]
		l += lucky[k]
	}
	return x / float64(len(starts)), l / float64(len(starts))
}

// soloEdges returns every card-level state's expected turns (each two-card flip one turn, a pair
// known whole taken by a turn of its own) and lucky matches in solitaire, by Gauss-Seidel value
// iteration over the states in the given order (successors first), as cmRef.solveSolo does on
// the map.
func soloEdges(edges map[string][]cmEdge, order []string) (turns, lucky map[string]float64) {
	at := make(map[string]int, len(order))
	for _, k := range order {
		at[k] = len(at)
	}
	type edge struct {
		p     float64
		to    int
		lucky bool
	}
	es := make([][]edge, len(at))
	for k, list := range edges {
		for _, e := range list {
			es[at[k]] = append(es[at[k]], edge{e.p, at[e.to], e.lucky})
		}
	}
	x, l := make([]float64, len(at)), make([]float64, len(at))
	for it := 0; it < 1000000; it++ {
		delta := 0.0
		for i, list := range es {
			xi, li := 0.0, 0.0
			for _, e := range list {
				xi += e.p * (1 + x[e.to])
				li += e.p * l[e.to]
				if e.lucky {
					li += e.p
				}
			}
			delta = max(delta, math.Abs(xi-x[i]), math.Abs(li-l[i]))
			x[i], l[i] = xi, li
		}
		if delta < 1e-13 {
			break
		}
	}
	turns, lucky = make(map[string]float64, len(at)), make(map[string]float64, len(at))
	for k, i := range at {
		turns[k], lucky[k] = x[i], l[i]
	}
	return turns, lucky
}

// TestCopiesDecaySolitaireMatchesCardPlay checks solitaire's expected turns and lucky matches
// under a shared decay memory with copies against card play over every deal, each card's
// forgetting enumerated (safe, daring, and the optimum with its choices read off the solver's
// states), every choice's values from states with remembered cards against card play with that
// choice first, and that no choice there, the optimum played afterwards, takes fewer turns in
// card play than the optimum's own.
func TestCopiesDecaySolitaireMatchesCardPlay(t *testing.T) {
	type deck struct {
		faces, copies, capacity int
		q                       string
	}
	decks := []deck{{2, 4, 0, "0.25"}}
	policies := []rules.Policy{rules.PolicyOptimal}
	states := 2 // the states with a remembered card whose choices are checked
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 2, "0.5"}, deck{2, 4, 3, "0.1"})
		policies = append(policies, rules.PolicyDaring, rules.PolicySafe)
		states = 1 << 30
	}
	ctx := context.Background()
	for _, d := range decks {
		var q float64
		fmt.Sscan(d.q, &q)
		for _, p := range policies {
			name := fmt.Sprintf("%d faces of %d, decay(%s) capacity %d, solitaire %s", d.faces, d.copies, d.q, d.capacity, p)
			m := decayCopies(q, d.capacity, d.copies)
			mu := Lineup{Players: 1, Policy: p, Opponent: p}
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
			turns, lucky := cdCardSolo(cmDeals(d.faces, d.copies), d.copies, d.capacity, q, choose, -1)
			if math.Abs(res.ExpectedTurns-turns) > 1e-9 || math.Abs(res.ExpectedLucky-lucky) > 1e-9 {
				t.Errorf("%s: %.12f turns, %.12f lucky; card play %.12f, %.12f", name, res.ExpectedTurns, res.ExpectedLucky, turns, lucky)
			}
			checked := 0
			for _, c := range s.cells {
				if c.h == 0 || c.pairs == 0 || checked == states {
					continue
				}
				checked++
				cst := c.v.state()
				cs, err := CopiesChoiceValues(ctx, field.Float{}, m, mu, cst)
				if err != nil {
					t.Fatal(err)
				}
				own, _ := cdCardSolo([]cmTable{cmTableOf(c.v)}, d.copies, d.capacity, q, choose, -1)
				for _, cv := range cs.Values {
					want, wantLucky := cdCardSolo([]cmTable{cmTableOf(c.v)}, d.copies, d.capacity, q, choose, int(cv.Choice))
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

// TestCopiesDecaySolitaireIdentities checks solitaire under a decay memory with copies in exact
// rationals: q = 0 gives the perfect-memory copies model's solitaire, two copies §4.14's decay
// solitaire, with and without a capacity.
func TestCopiesDecaySolitaireIdentities(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	policies := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring}
	maxPairs := 4
	if !testing.Short() {
		maxPairs = 6
	}
	for _, p := range policies {
		mu := Lineup{Players: 1, Policy: p, Opponent: p}
		st, err := StartCopiesState(maxPairs, 4)
		if err != nil {
			t.Fatal(err)
		}
		s, err := newCopiesDecaySolverAt(ctx, f, decayCopies(0.5, 0, 4), mu, st, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.solve(); err != nil {
			t.Fatal(err)
		}
		want, err := EvaluateCopies(ctx, f, Model{Variant: rules.Variant{Copies: 4}}, mu, st)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.result(st); got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 || got.ExpectedLucky.Cmp(want.ExpectedLucky) != 0 {
			t.Errorf("q = 0, %d pairs of four cards, %s: %v turns, %v lucky; perfect memory %v, %v", maxPairs, p, got.ExpectedTurns, got.ExpectedLucky, want.ExpectedTurns, want.ExpectedLucky)
		}
		for _, capacity := range []int{0, 2} {
			m := decayCopies(0.3, capacity, 2)
			st, err := StartCopiesState(maxPairs, 2)
			if err != nil {
				t.Fatal(err)
			}
			got, err := EvaluateCopies(ctx, f, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			m.Variant = rules.Variant{}
			want, err := Evaluate(ctx, f, m, mu, rules.State{N: maxPairs, J: maxPairs})
			if err != nil {
				t.Fatal(err)
			}
			if got.ExpectedTurns.Cmp(want.ExpectedTurns) != 0 || got.ExpectedLucky.Cmp(want.ExpectedLucky) != 0 {
				t.Errorf("two copies, decay(0.3) capacity %d, %d pairs, %s: %v turns, %v lucky; decay model %v, %v", capacity, maxPairs, p, got.ExpectedTurns, got.ExpectedLucky, want.ExpectedTurns, want.ExpectedLucky)
			}
		}
	}
}
