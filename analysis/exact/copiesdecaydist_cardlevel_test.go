package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// indexEdges numbers the states in the given order and returns each state's edges by number.
func indexEdges(edges map[string][]cmEdge, order []string) (map[string]int, [][]cmEdge, []int) {
	at := make(map[string]int, len(order))
	for _, k := range order {
		at[k] = len(at)
	}
	es, to := make([][]cmEdge, len(at)), make([]int, 0)
	for k, list := range edges {
		i, ok := at[k]
		if !ok {
			panic(fmt.Sprintf("state %q is not in the order", k))
		}
		es[i] = list
	}
	for _, list := range es {
		for _, e := range list {
			to = append(to, at[e.to])
		}
	}
	return at, es, to
}

// distEdges returns every card-level state's distribution of the mover's lead in the pairs left
// (index lead + maxPairs), as cmRef.solveDist, by Gauss-Seidel value iteration over the states
// numbered in the given order (successors first): a state without outcomes ends with lead 0.
func distEdges(edges map[string][]cmEdge, order []string, maxPairs int) map[string][]float64 {
	at, es, to := indexEdges(edges, order)
	size := 2*maxPairs + 1
	d := make([][]float64, len(es))
	for i, list := range es {
		d[i] = make([]float64, size)
		if list == nil {
			d[i][maxPairs] = 1
		}
	}
	x := make([]float64, size)
	for it := 0; it < 1000000; it++ {
		delta, n := 0.0, 0
		for i, list := range es {
			if list == nil {
				continue
			}
			clear(x)
			for _, e := range list {
				for j, p := range d[to[n]] {
					if p == 0 {
						continue
					}
					if e.keep {
						x[j+int(e.gain)] += e.p * p // the mover's lead gains the pair
					} else {
						x[size-1-j] += e.p * p // the other seat's lead, mirrored
					}
				}
				n++
			}
			for j := range x {
				delta = max(delta, math.Abs(x[j]-d[i][j]))
			}
			copy(d[i], x)
		}
		if delta < 1e-14 {
			break
		}
	}
	out := make(map[string][]float64, len(at))
	for k, i := range at {
		out[k] = d[i]
	}
	return out
}

// turnsEdges returns every card-level state's probability of ending in exactly t turns, t = 0 ..
// maxTurns, in solitaire, as cmRef.solveTurns: each outcome a turn.
func turnsEdges(edges map[string][]cmEdge, order []string, maxTurns int) map[string][]float64 {
	at, es, to := indexEdges(edges, order)
	d := make([][]float64, len(es))
	for i, list := range es {
		d[i] = make([]float64, maxTurns+1)
		if list == nil {
			d[i][0] = 1
		}
	}
	for t := 1; t <= maxTurns; t++ {
		n := 0
		for i, list := range es {
			for _, e := range list {
				d[i][t] += e.p * d[to[n]][t-1]
				n++
			}
		}
	}
	out := make(map[string][]float64, len(at))
	for k, i := range at {
		out[k] = d[i]
	}
	return out
}

// TestCopiesDecayDistributionMatchesCardPlay checks seat 0's score distribution in the decay
// copies model, under pass rules never, two-known and always, against card play over every deal
// (each card's forgetting enumerated, the capacity's overflow, the pass and the stalemate played
// at card level), the card-level distributions solved by value iteration, for fixed policies,
// the optimum and a best response.
func TestCopiesDecayDistributionMatchesCardPlay(t *testing.T) {
	type deck struct {
		faces, copies, capacity int
		q                       string
	}
	type run struct {
		pass rules.PassRule
		mu   Lineup
	}
	opt := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	brSafe := Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}
	decks := []deck{{2, 4, 2, "0.25"}}
	runs := []run{{rules.PassNever, brSafe}, {rules.PassAlways, opt}}
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 0, "0.5"})
		runs = nil
		for _, pass := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			for _, mu := range []Lineup{opt, brSafe,
				{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
				{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyOptimal}} {
				runs = append(runs, run{pass, mu})
			}
		}
	}
	ctx := context.Background()
	for _, d := range decks {
		var q float64
		fmt.Sscan(d.q, &q)
		for _, r := range runs {
			name := fmt.Sprintf("pass %s, %d faces of %d, decay(%s) capacity %d, %s", r.pass, d.faces, d.copies, d.q, d.capacity, lineupName(r.mu))
			m := decayCopies(q, d.capacity, d.copies)
			m.Pass = r.pass
			pairs := d.faces * d.copies / 2
			st, err := StartCopiesState(pairs, d.copies)
			if err != nil {
				t.Fatal(err)
			}
			s, err := newCopiesDecaySolver(ctx, field.Float{}, m, r.mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solve(); err != nil {
				t.Fatal(err)
			}
			choose := cmPassChooserOf(t, s.copiesMemSolver, [2]rules.Policy{r.mu.Policy, r.mu.Opponent})
			ref := &cdPassRef{cdRef: cdRef{q: q, capacity: d.capacity, copies: d.copies, edges: map[string][]cmEdge{}}, pass: r.pass, choose: choose}
			ref.edges[cmPassStalemate] = nil
			ref.order = append(ref.order, cmPassStalemate)
			var starts []string
			for _, tab := range cmDeals(d.faces, d.copies) {
				starts = append(starts, ref.explore(tab, false, -1))
			}
			want := averageOver(distEdges(ref.edges, ref.order, pairs), starts)
			got, err := CopiesDistribution(ctx, field.Float{}, m, r.mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Prob) != len(want) {
				t.Fatalf("%s: %d shares, card play %d", name, len(got.Prob), len(want))
			}
			for i := range want {
				if math.Abs(got.Prob[i]-want[i]) > 1e-9 {
					t.Errorf("%s: share %d/2: %.12f, card play %.12f", name, i, got.Prob[i], want[i])
				}
			}
		}
	}
}

// TestCopiesDecaySolitaireTurnsMatchCardPlay checks solitaire's distribution of the number of
// turns under a shared decay memory with copies against card play over every deal, each card's
// forgetting enumerated, for the optimum (its choices read off the solver's states), and in the
// long form safe and daring too.
func TestCopiesDecaySolitaireTurnsMatchCardPlay(t *testing.T) {
	type deck struct {
		faces, copies, capacity int
		q                       string
	}
	decks := []deck{{2, 4, 2, "0.25"}}
	policies := []rules.Policy{rules.PolicyOptimal}
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 0, "0.5"})
		policies = append(policies, rules.PolicySafe, rules.PolicyDaring)
	}
	ctx := context.Background()
	for _, d := range decks {
		var q float64
		fmt.Sscan(d.q, &q)
		for _, p := range policies {
			name := fmt.Sprintf("%d faces of %d, decay(%s) capacity %d, solitaire %s", d.faces, d.copies, d.q, d.capacity, p)
			m := decayCopies(q, d.capacity, d.copies)
			mu := Lineup{Players: 1, Policy: p, Opponent: p}
			pairs := d.faces * d.copies / 2
			st, err := StartCopiesState(pairs, d.copies)
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
			choose := func(_ int, counts []int) rules.Choice {
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
			ref := &cdRef{q: q, capacity: d.capacity, copies: d.copies, choose: choose, edges: map[string][]cmEdge{}}
			var starts []string
			for _, tab := range cmDeals(d.faces, d.copies) {
				starts = append(starts, ref.explore(tab, -1))
			}
			maxTurns := DefaultMaxTurns(pairs, 0)
			want := averageOver(turnsEdges(ref.edges, ref.order, maxTurns), starts)
			got, err := SolitaireTurns(ctx, field.Float{}, m, p, rules.State{N: pairs, J: pairs}, maxTurns)
			if err != nil {
				t.Fatal(err)
			}
			tail := 1.0
			for i := range want {
				tail -= want[i]
				if math.Abs(got.Prob[i]-want[i]) > 1e-9 {
					t.Errorf("%s: %d turns: %.12f, card play %.12f", name, i, got.Prob[i], want[i])
				}
			}
			if math.Abs(got.Tail-tail) > 1e-9 {
				t.Errorf("%s: more than %d turns: %.12f, card play %.12f", name, maxTurns, got.Tail, tail)
			}
		}
	}
}
