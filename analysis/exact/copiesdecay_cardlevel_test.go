package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cdRef is the card-level reference of the copies model under a shared decay memory: every
// card-level state a game reaches and its outcomes under the role's choice, the hand-over's
// forgetting enumerated card by card (each remembered card forgotten with probability q, then,
// beyond the capacity, one at a time uniformly among the surviving cards remembered before the
// turn), solved by value iteration.
type cdRef struct {
	q                float64
	capacity, copies int
	choose           func(role int, counts []int) rules.Choice
	edges            map[string][]cmEdge
	order            []string // the states, each after those it leads to first (post-order)
}

// turn returns the outcomes of choice ch in t, card by card, as cmRef.turn, with decay forgetting
// at the hand-over.
func (r *cdRef) turn(t cmTable, ch rules.Choice) []cmEdge {
	cards := t.cards
	for i := range cards {
		for j := i + 1; j < len(cards); j++ {
			if cards[i].rem && cards[j].rem && cards[i].face == cards[j].face {
				return []cmEdge{{p: 1, gain: 1, keep: true, to: cmTable{without(cards, i, j), t.role}.key()}}
			}
		}
	}
	var unk, rem []int
	for i, c := range cards {
		if c.rem {
			rem = append(rem, i)
		} else {
			unk = append(unk, i)
		}
	}
	var out []cmEdge
	// end adds the outcomes of a turn ending without a pair after the cards seen (positions),
	// with weight p.
	end := func(p float64, seen []int) {
		after := append([]cmCard(nil), cards...)
		for _, i := range seen {
			after[i].rem = true
		}
		var all []int // every remembered card, this turn's included
		for i, c := range after {
			if c.rem {
				all = append(all, i)
			}
		}
		old := map[int]bool{}
		for _, i := range rem {
			old[i] = true
		}
		var overflow func(p float64, c []cmCard)
		overflow = func(p float64, c []cmCard) {
			n := 0
			var olds []int
			for i, x := range c {
				if x.rem {
					n++
					if old[i] {
						olds = append(olds, i)
					}
				}
			}
			if r.capacity == 0 || n <= r.capacity {
				out = append(out, cmEdge{p: p, to: cmTable{c, 1 - t.role}.key()})
				return
			}
			for _, i := range olds {
				c2 := append([]cmCard(nil), c...)
				c2[i].rem = false
				overflow(p/float64(len(olds)), c2)
			}
		}
		for mask := 0; mask < 1<<len(all); mask++ { // the bits of the cards forgotten
			c := append([]cmCard(nil), after...)
			pm := p
			for b, i := range all {
				if mask&(1<<b) != 0 {
					c[i].rem = false
					pm *= r.q
				} else {
					pm *= 1 - r.q
				}
			}
			if pm > 0 {
				overflow(pm, c)
			}
		}
	}
	pu := 1 / float64(len(unk))
	if ch == rules.KnownFirst {
		most, k := 0, -1
		for _, i := range rem {
			n := 0
			for _, c := range cards {
				if c.face == cards[i].face {
					n++
				}
			}
			if n > most {
				most, k = n, i
			}
		}
		for _, y := range unk {
			if cards[y].face == cards[k].face {
				out = append(out, cmEdge{p: pu, gain: 1, keep: true, to: cmTable{without(cards, k, y), t.role}.key()})
				continue
			}
			end(pu, []int{y})
		}
		return out
	}
	for _, x := range unk {
		partner := -1
		for _, i := range rem {
			if cards[i].face == cards[x].face {
				partner = i
			}
		}
		if partner >= 0 {
			out = append(out, cmEdge{p: pu, gain: 1, keep: true, to: cmTable{without(cards, x, partner), t.role}.key()})
			continue
		}
		if ch == rules.Safe {
			end(pu, []int{x})
			continue
		}
		pv := pu / float64(len(unk)-1)
		for _, y := range unk {
			if y == x {
				continue
			}
			if cards[y].face == cards[x].face {
				out = append(out, cmEdge{p: pv, gain: 1, keep: true, lucky: true, to: cmTable{without(cards, x, y), t.role}.key()})
				continue
			}
			end(pv, []int{x, y})
		}
	}
	return out
}

// explore adds the outcomes of every state reachable from t; with first >= 0 the mover's first
// turn makes that choice.
func (r *cdRef) explore(t cmTable, first int) string {
	k := t.key()
	if first >= 0 {
		k = "first:" + k
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
		c = r.choose(t.role, t.counts(r.copies))
	}
	es := r.turn(t, c)
	r.edges[k] = es
	for _, e := range es {
		kb := []byte(e.to)
		next := cmTable{role: int(kb[len(kb)-1])}
		for _, x := range kb[:len(kb)-1] {
			next.cards = append(next.cards, cmCard{face: int(x) / 2, rem: x%2 == 1})
		}
		r.explore(next, -1)
	}
	r.order = append(r.order, k)
	return k
}

// cdCardLead returns seat 0's expected lead, averaged over the start tables, played card by card
// with a shared decay(q) memory of the given capacity (0: none).
func cdCardLead(tables []cmTable, copies, capacity int, q float64, choose func(role int, counts []int) rules.Choice, first int) float64 {
	r := &cdRef{q: q, capacity: capacity, copies: copies, choose: choose, edges: map[string][]cmEdge{}}
	var starts []string
	for _, t := range tables {
		starts = append(starts, r.explore(t, first))
	}
	v := solveEdges(r.edges, r.order)
	sum := 0.0
	for _, k := range starts {
		sum += v[k]
	}
	return sum / float64(len(starts))
}

// solveEdges returns every state's value (the mover's lead) by Gauss-Seidel value iteration on
// the states numbered in the given order (successors first converges fastest), as cmRef.solve
// does on the map.
func solveEdges(edges map[string][]cmEdge, order []string) map[string]float64 {
	at := make(map[string]int, len(edges))
	for _, k := range order {
		at[k] = len(at)
	}
	type edge struct {
		p, gain float64
		to      int
		keep    bool
	}
	es := make([][]edge, len(at))
	for k, list := range edges {
		for _, e := range list {
			es[at[k]] = append(es[at[k]], edge{e.p, e.gain, at[e.to], e.keep})
		}
	}
	v := make([]float64, len(at))
	for it := 0; it < 100000; it++ {
		delta := 0.0
		for i, list := range es {
			x := 0.0
			for _, e := range list {
				if e.keep {
					x += e.p * (e.gain + v[e.to])
				} else {
					x -= e.p * v[e.to]
				}
			}
			delta = max(delta, math.Abs(x-v[i]))
			v[i] = x
		}
		if delta < 1e-14 {
			break
		}
	}
	out := make(map[string]float64, len(at))
	for k, i := range at {
		out[k] = v[i]
	}
	return out
}

// TestCopiesDecayMatchesCardPlay checks the decay copies model's lead and every choice's lead
// against card play over every deal, the forgetting enumerated card by card, for fixed
// policies, the optimum and a best response; and that no choice in a state the optimum reaches,
// the optimum played afterwards, is worth more in card play than the optimum's own.
func TestCopiesDecayMatchesCardPlay(t *testing.T) {
	type deck struct {
		faces, copies, capacity int
		q                       string
	}
	decks := []deck{{2, 4, 0, "0.5"}, {2, 4, 2, "0.25"}}
	states, allOptimal := 1, false // with allOptimal, every state the optimum reaches
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
	}
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 0, "0.25"}, deck{2, 6, 0, "0.5"}, deck{2, 6, 2, "0.25"})
		lineups = append(lineups,
			Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicySafe},
			Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicySafe})
		states, allOptimal = 6, true
	}
	ctx := context.Background()
	for _, d := range decks {
		var q float64
		fmt.Sscan(d.q, &q)
		for _, mu := range lineups {
			name := fmt.Sprintf("%d faces of %d, decay(%s) capacity %d, %s", d.faces, d.copies, d.q, d.capacity, lineupName(mu))
			m := Model{Memory: rules.Memory{Capacity: d.capacity, Forget: rules.ForgetDecay, Decay: q}, Variant: rules.Variant{Copies: d.copies}}
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
			choose := cmChooserOf(t, s.copiesMemSolver, [2]rules.Policy{mu.Policy, mu.Opponent})
			if got, want := s.cells[0].val[0], cdCardLead(cmDeals(d.faces, d.copies), d.copies, d.capacity, q, choose, -1); math.Abs(got-want) > 1e-9 {
				t.Errorf("%s: lead %.12f, card play %.12f", name, got, want)
			}
			selfPlay := mu.Policy == rules.PolicyOptimal && mu.Opponent == rules.PolicyOptimal
			checked := 0
			for _, c := range s.cells {
				if c.h == 0 || c.pairs == 0 || (checked == states && !(selfPlay && allOptimal)) {
					continue
				}
				checked++
				cst := c.v.state()
				cs, err := CopiesChoiceValues(ctx, field.Float{}, m, mu, cst)
				if err != nil {
					t.Fatal(err)
				}
				own := cdCardLead([]cmTable{cmTableOf(c.v)}, d.copies, d.capacity, q, choose, -1)
				for _, cv := range cs.Values {
					want := cdCardLead([]cmTable{cmTableOf(c.v)}, d.copies, d.capacity, q, choose, int(cv.Choice))
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
