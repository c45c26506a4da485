package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cdPassRef is the card-level reference of the decay copies model under a pass rule: a
// card-level state is the cards on the table, the role to move and whether the other seat has
// just passed. A pass turns up nothing and hands the turn over, each remembered card forgotten
// with probability q; a pass just after a pass is a stalemate (lead 0). Every other turn is
// played card by card by cdRef.turn.
type cdPassRef struct {
	cdRef
	pass   rules.PassRule
	choose func(role int, counts []int, after bool) rules.Choice
}

// passTurn returns the outcomes of a pass in t (not just after a pass): every subset of the
// remembered cards forgotten, the other seat to move just after the pass.
func (r *cdPassRef) passTurn(t cmTable) []cmEdge {
	var rem []int
	for i, c := range t.cards {
		if c.rem {
			rem = append(rem, i)
		}
	}
	var out []cmEdge
	for mask := 0; mask < 1<<len(rem); mask++ {
		c := append([]cmCard(nil), t.cards...)
		p := 1.0
		for b, i := range rem {
			if mask&(1<<b) != 0 {
				c[i].rem = false
				p *= r.q
			} else {
				p *= 1 - r.q
			}
		}
		if p > 0 {
			out = append(out, cmEdge{p: p, to: cmTable{c, 1 - t.role}.key()})
		}
	}
	return out
}

// explore adds the outcomes of every state reachable from t (just after a pass or not), in
// post-order; with first >= 0 the mover in t makes that choice.
func (r *cdPassRef) explore(t cmTable, after bool, first int) string {
	k := passKey(t, after)
	if first >= 0 {
		k = fmt.Sprintf("first %d:", first) + k // one start per first choice
	}
	if _, ok := r.edges[k]; ok {
		return k
	}
	r.edges[k] = nil
	if len(t.cards) == 0 {
		r.order = append(r.order, k)
		return k
	}
	c := rules.Choice(first)
	if first < 0 && !knownWhole(t) {
		c = r.choose(t.role, t.counts(r.copies), after)
	}
	var es []cmEdge
	switch {
	case c == rules.Pass && !(&cmPassRef{pass: r.pass}).passLegal(t):
		panic(fmt.Sprintf("a pass where it is not legal: %v", t))
	case c == rules.Pass && after:
		es = []cmEdge{{p: 1, to: cmPassStalemate}}
	case c == rules.Pass:
		es = r.passTurn(t)
		for i := range es {
			es[i].to = r.explore(tableOfKey(es[i].to), true, -1)
		}
	default:
		es = r.turn(t, c)
		for i := range es {
			es[i].to = r.explore(tableOfKey(es[i].to), false, -1)
		}
	}
	r.edges[k] = es
	r.order = append(r.order, k)
	return k
}

// cdPassCardLeads returns seat 0's expected lead, averaged over the start tables (no pass just
// made), the game played card by card with a shared decay(q) memory of the given capacity (0:
// none) under the pass rule, for each of firsts: with first >= 0 seat 0's first turn makes that
// choice. The games share one card-level solve.
func cdPassCardLeads(tables []cmTable, copies, capacity int, q float64, pass rules.PassRule, choose func(role int, counts []int, after bool) rules.Choice, firsts ...int) []float64 {
	r := &cdPassRef{cdRef: cdRef{q: q, capacity: capacity, copies: copies, edges: map[string][]cmEdge{}}, pass: pass, choose: choose}
	r.edges[cmPassStalemate] = nil
	r.order = append(r.order, cmPassStalemate)
	starts := make([][]string, len(firsts))
	for i, first := range firsts {
		for _, t := range tables {
			starts[i] = append(starts[i], r.explore(t, false, first))
		}
	}
	v := solveEdges(r.edges, r.order)
	out := make([]float64, len(firsts))
	for i := range firsts {
		for _, k := range starts[i] {
			out[i] += v[k]
		}
		out[i] /= float64(len(tables))
	}
	return out
}

// TestCopiesDecayPassMatchesCardPlay checks the decay copies model under pass rules two-known and
// always against card play over every deal (each card's forgetting enumerated, the pass's
// hand-over and the stalemate played at card level): the lead from the start for fixed policies,
// the optimum and best responses, every choice's lead from the start and from states with
// remembered cards, and that no choice there, the optimum played afterwards, is worth more in
// card play than the optimum's own.
func TestCopiesDecayPassMatchesCardPlay(t *testing.T) {
	type deck struct {
		faces, copies, capacity int
		q                       string
	}
	decks := []deck{{2, 4, 0, "0.25"}}
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
	}
	// The states whose choices are checked, per lineup and for the optimum; in the short form
	// one lineup per rule, the optimum's from the start and one state with a remembered card.
	states, optStates := 1, 2
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 2, "0.5"}, deck{2, 4, 3, "0.1"})
		lineups = append(lineups,
			Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
			Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicySafe},
			Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring})
		states, optStates = 3, 8
	}
	ctx := context.Background()
	for _, pass := range copiesMemPassRules {
		for _, d := range decks {
			var q float64
			fmt.Sscan(d.q, &q)
			for _, mu := range lineups {
				if testing.Short() && (pass == rules.PassAlways) != (mu.Policy == rules.PolicyOptimal) {
					continue // short: the optimum under always, the best response under two-known
				}
				name := fmt.Sprintf("pass %s, %d faces of %d, decay(%s) capacity %d, %s", pass, d.faces, d.copies, d.q, d.capacity, lineupName(mu))
				m := decayCopies(q, d.capacity, d.copies)
				m.Pass = pass
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
				choose := cmPassChooserOf(t, s.copiesMemSolver, [2]rules.Policy{mu.Policy, mu.Opponent})

				selfPlay := mu.Policy == rules.PolicyOptimal && mu.Opponent == rules.PolicyOptimal
				checked := 0
				for i, c := range s.cells {
					if c.stalemate || c.after() || c.pairs == 0 || c.h == 0 && i > 0 || (checked == states && !selfPlay) || checked == optStates {
						continue
					}
					checked++
					cst := c.v.state()
					cs, err := CopiesChoiceValues(ctx, field.Float{}, m, mu, cst)
					if err != nil {
						t.Fatal(err)
					}
					tables := []cmTable{cmTableOf(c.v)}
					if i == 0 {
						tables = cmDeals(d.faces, d.copies)
					}
					firsts := []int{-1}
					for _, cv := range cs.Values {
						firsts = append(firsts, int(cv.Choice))
					}
					leads := cdPassCardLeads(tables, d.copies, d.capacity, q, pass, choose, firsts...)
					own := leads[0]
					if i == 0 {
						if got := s.cells[0].val[0]; math.Abs(got-own) > 1e-9 {
							t.Errorf("%s: lead %.12f, card play %.12f", name, got, own)
						}
					}
					for j, cv := range cs.Values {
						want := leads[j+1]
						if math.Abs(cv.Lead-want) > 1e-9 {
							t.Errorf("%s, from %v: %s first: lead %.12f, card play %.12f", name, cst, cv.Choice, cv.Lead, want)
						}
						if selfPlay && want > own+1e-9 {
							t.Errorf("%s, from %v: %s first is worth %.12f in card play, more than optimal's %.12f", name, cst, cv.Choice, want, own)
						}
					}
				}
			}
		}
	}
}
