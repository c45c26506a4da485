package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cmPassRef is the card-level reference of the handover-uniform copies model under a pass rule: a
// card-level state is the cards on the table, the role to move and whether the other seat has
// just passed. A pass turns up nothing and forgets nothing; a pass just after a pass is a
// stalemate (lead 0). Every other turn is played card by card by cmRef.turn.
type cmPassRef struct {
	cmRef
	pass   rules.PassRule
	choose func(role int, counts []int, after bool) rules.Choice
}

const cmPassStalemate = "stalemate"

// passKey returns the key of t just after a pass or not.
func passKey(t cmTable, after bool) string {
	if after {
		return t.key() + "p"
	}
	return t.key() + "-"
}

// tableOfKey reads back a cmTable key (without the pass byte).
func tableOfKey(k string) cmTable {
	kb := []byte(k)
	t := cmTable{role: int(kb[len(kb)-1])}
	for _, x := range kb[:len(kb)-1] {
		t.cards = append(t.cards, cmCard{face: int(x) / 2, rem: x%2 == 1})
	}
	return t
}

// passLegal reports whether the mover in t may pass, counted card by card: always, or under
// two-known with two remembered cards on the table (no pair known whole: the mover takes it).
func (r *cmPassRef) passLegal(t cmTable) bool {
	if knownWhole(t) || len(t.cards) == 0 {
		return false
	}
	if r.pass == rules.PassAlways {
		return true
	}
	rem := 0
	for _, c := range t.cards {
		if c.rem {
			rem++
		}
	}
	return r.pass == rules.PassTwoKnown && rem >= 2
}

// explore adds the outcomes of every state reachable from t (just after a pass or not); with
// first >= 0 the mover in t makes that choice.
func (r *cmPassRef) explore(t cmTable, after bool, first int) string {
	k := passKey(t, after)
	if first >= 0 {
		k = "first:" + k
	}
	if _, ok := r.edges[k]; ok {
		return k
	}
	r.edges[k] = nil
	if len(t.cards) == 0 {
		return k
	}
	c := rules.Choice(first)
	if first < 0 && !knownWhole(t) {
		c = r.choose(t.role, t.counts(r.copies), after)
	}
	if c == rules.Pass {
		if !r.passLegal(t) {
			panic(fmt.Sprintf("a pass where it is not legal: %v", t))
		}
		to := cmPassStalemate
		if !after {
			to = r.explore(cmTable{cards: t.cards, role: 1 - t.role}, true, -1)
		}
		r.edges[k] = []cmEdge{{p: 1, to: to}}
		return k
	}
	es := r.turn(t, c)
	for i := range es {
		es[i].to = r.explore(tableOfKey(es[i].to), false, -1)
	}
	r.edges[k] = es
	return k
}

// cmPassCardLead returns seat 0's expected lead, averaged over the start tables (no pass just
// made), the game played card by card under the pass rule.
func cmPassCardLead(tables []cmTable, copies, capacity int, pass rules.PassRule, choose func(role int, counts []int, after bool) rules.Choice, first int) float64 {
	r := &cmPassRef{cmRef: cmRef{capacity: capacity, copies: copies, edges: map[string][]cmEdge{}}, pass: pass, choose: choose}
	r.edges[cmPassStalemate] = nil
	var starts []string
	for _, t := range tables {
		starts = append(starts, r.explore(t, false, first))
	}
	v := r.solve()
	sum := 0.0
	for _, k := range starts {
		sum += v[k]
	}
	return sum / float64(len(starts))
}

// cmPassChooserOf returns the role's choice in the counts, just after a pass or not: safe or
// daring by the fixed policy (which never passes), or the solver's choice read off its solved
// cells.
func cmPassChooserOf(t *testing.T, s *copiesMemSolver[float64], pol [2]rules.Policy) func(role int, counts []int, after bool) rules.Choice {
	return func(role int, counts []int, after bool) rules.Choice {
		p := pol[role]
		if p == rules.PolicyOptimal || p == rules.PolicyBestResponse {
			i, ok := s.at[cmKey(copiesVec(counts), after)]
			if !ok {
				t.Fatalf("the solver did not reach %v (after a pass: %v)", copiesVec(counts).state(), after)
			}
			if p == rules.PolicyOptimal {
				return s.cells[i].optChoice
			}
			return s.cells[i].ch[role]
		}
		if p == rules.PolicySafe && remembered(copiesVec(counts)) > 0 {
			return rules.Safe
		}
		return rules.Daring
	}
}

// TestCopiesHandoverPassMatchesCardPlay checks the handover-uniform copies model under pass rules
// two-known and always against card play over every deal (the forgetting drawn card by card, the
// pass and the stalemate played at card level): the lead from the start for fixed policies, the
// optimum and best responses, every choice's lead from the start and from states with remembered
// cards, and that no choice there, the optimum played afterwards, is worth more in card play than
// the optimum's own.
func TestCopiesHandoverPassMatchesCardPlay(t *testing.T) {
	type deck struct{ faces, copies, capacity int }
	decks := []deck{{2, 4, 3}}
	states, optStates := 1, 1 // the states whose choices are checked, per lineup and for the optimum
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 2})
		states, optStates = 3, 6
	}
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring},
	}
	ctx := context.Background()
	for _, pass := range copiesMemPassRules {
		for _, d := range decks {
			for _, mu := range lineups {
				name := fmt.Sprintf("pass %s, %d faces of %d, handover-uniform(%d), %s", pass, d.faces, d.copies, d.capacity, lineupName(mu))
				m := handoverCopies(d.capacity, d.copies)
				m.Pass = pass
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
				choose := cmPassChooserOf(t, s, [2]rules.Policy{mu.Policy, mu.Opponent})
				if got, want := s.cells[0].val[0], cmPassCardLead(cmDeals(d.faces, d.copies), d.copies, d.capacity, pass, choose, -1); math.Abs(got-want) > 1e-9 {
					t.Errorf("%s: lead %.12f, card play %.12f", name, got, want)
				}
				selfPlay := mu.Policy == rules.PolicyOptimal && mu.Opponent == rules.PolicyOptimal
				checked := 0
				for i, c := range s.cells {
					if c.stalemate || c.after() || c.pairs == 0 || c.h == 0 && (i > 0 || testing.Short()) || (checked == states && !selfPlay) || checked == optStates {
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
					own := cmPassCardLead(tables, d.copies, d.capacity, pass, choose, -1)
					for _, cv := range cs.Values {
						want := cmPassCardLead(tables, d.copies, d.capacity, pass, choose, int(cv.Choice))
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
