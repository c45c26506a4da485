package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// solveDist returns every card-level state's distribution of the mover's lead in the pairs left
// (index lead + maxPairs), by value iteration over the reference's outcomes: a state without
// outcomes (the table cleared, or the stalemate) ends with lead 0.
func (r *cmRef) solveDist(maxPairs int) map[string][]float64 {
	size := 2*maxPairs + 1
	d := make(map[string][]float64, len(r.edges))
	for k, es := range r.edges {
		d[k] = make([]float64, size)
		if es == nil {
			d[k][maxPairs] = 1
		}
	}
	for it := 0; it < 1000000; it++ {
		delta := 0.0
		for k, es := range r.edges {
			if es == nil {
				continue
			}
			x := make([]float64, size)
			for _, e := range es {
				next := d[e.to]
				for j, p := range next {
					if p == 0 {
						continue
					}
					if e.keep {
						x[j+int(e.gain)] += e.p * p // the mover's lead gains the pair
						continue
					}
					x[size-1-j] += e.p * p // the other seat's lead, mirrored
				}
			}
			for j := range x {
				delta = max(delta, math.Abs(x[j]-d[k][j]))
			}
			d[k] = x
		}
		if delta < 1e-14 {
			break
		}
	}
	return d
}

// solveTurns returns every card-level state's probability of ending in exactly t turns, t = 0 ..
// maxTurns, in solitaire: each outcome a turn (a pair known whole taken by a turn of its own).
func (r *cmRef) solveTurns(maxTurns int) map[string][]float64 {
	d := make(map[string][]float64, len(r.edges))
	for k, es := range r.edges {
		d[k] = make([]float64, maxTurns+1)
		if es == nil {
			d[k][0] = 1
		}
	}
	for t := 1; t <= maxTurns; t++ {
		for k, es := range r.edges {
			for _, e := range es {
				d[k][t] += e.p * d[e.to][t-1]
			}
		}
	}
	return d
}

// averageOver returns the mean of the distributions of the keys.
func averageOver(d map[string][]float64, keys []string) []float64 {
	out := make([]float64, len(d[keys[0]]))
	for _, k := range keys {
		for j, p := range d[k] {
			out[j] += p / float64(len(keys))
		}
	}
	return out
}

// TestCopiesHandoverDistributionMatchesCardPlay checks seat 0's score distribution in the
// handover-uniform copies model, under pass rules never, two-known and always, against card play
// over every deal (the forgetting drawn card by card, the pass and the stalemate played at card
// level), for fixed policies, the optimum and a best response.
func TestCopiesHandoverDistributionMatchesCardPlay(t *testing.T) {
	type deck struct{ faces, copies, capacity int }
	decks := []deck{{2, 4, 3}}
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
	}
	passes := []rules.PassRule{rules.PassNever, rules.PassAlways}
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 2})
		lineups = append(lineups, Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
			Lineup{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyOptimal})
		passes = append(passes, rules.PassTwoKnown)
	}
	ctx := context.Background()
	for _, pass := range passes {
		for _, d := range decks {
			for _, mu := range lineups {
				name := fmt.Sprintf("pass %s, %d faces of %d, handover-uniform(%d), %s", pass, d.faces, d.copies, d.capacity, lineupName(mu))
				m := handoverCopies(d.capacity, d.copies)
				m.Pass = pass
				pairs := d.faces * d.copies / 2
				st, err := StartCopiesState(pairs, d.copies)
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
				choose := cmPassChooserOf(t, s, [2]rules.Policy{mu.Policy, mu.Opponent})
				r := &cmPassRef{cmRef: cmRef{capacity: d.capacity, copies: d.copies, edges: map[string][]cmEdge{}}, pass: pass, choose: choose}
				r.edges[cmPassStalemate] = nil
				var starts []string
				for _, tab := range cmDeals(d.faces, d.copies) {
					starts = append(starts, r.explore(tab, false, -1))
				}
				want := averageOver(r.solveDist(pairs), starts)
				got, err := CopiesDistribution(ctx, field.Float{}, m, mu, st)
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
}

// TestCopiesHandoverSolitaireTurnsMatchCardPlay checks solitaire's distribution of the number of
// turns under a shared handover-uniform memory with copies against card play over every deal,
// for safe, daring and the optimum (its choices read off the solver's states).
func TestCopiesHandoverSolitaireTurnsMatchCardPlay(t *testing.T) {
	type deck struct{ faces, copies, capacity int }
	decks := []deck{{2, 4, 3}}
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 2})
	}
	ctx := context.Background()
	for _, d := range decks {
		for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
			name := fmt.Sprintf("%d faces of %d, handover-uniform(%d), solitaire %s", d.faces, d.copies, d.capacity, p)
			m := handoverCopies(d.capacity, d.copies)
			mu := Lineup{Players: 1, Policy: p, Opponent: p}
			pairs := d.faces * d.copies / 2
			st, err := StartCopiesState(pairs, d.copies)
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
			r := &cmRef{capacity: d.capacity, copies: d.copies, choose: choose, edges: map[string][]cmEdge{}}
			var starts []string
			for _, tab := range cmDeals(d.faces, d.copies) {
				starts = append(starts, r.explore(tab, -1))
			}
			maxTurns := DefaultMaxTurns(pairs, 0)
			want := averageOver(r.solveTurns(maxTurns), starts)
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
