package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cmCard is a card on the table in the card-level reference of the handover-uniform copies model.
type cmCard struct {
	face int
	rem  bool
}

// cmTable is the cards on the table in position order (taken cards dropped: the engine picks
// among positions uniformly, so their places do not matter), with the seat role to move.
type cmTable struct {
	cards []cmCard
	role  int
}

func (t cmTable) key() string {
	b := make([]byte, 0, len(t.cards)+1)
	for _, c := range t.cards {
		x := byte(2 * c.face)
		if c.rem {
			x++
		}
		b = append(b, x)
	}
	return string(append(b, byte(t.role)))
}

// counts returns the state of faces the memory sees: [2i+b] faces with 2(i+1) cards on the
// table, b of them remembered.
func (t cmTable) counts(copies int) []int {
	left, rem := map[int]int{}, map[int]int{}
	for _, c := range t.cards {
		left[c.face]++
		if c.rem {
			rem[c.face]++
		}
	}
	out := make([]int, copies)
	for f, l := range left {
		out[l-2+rem[f]]++
	}
	return out
}

// cmEdge is one outcome of a card-level turn: probability p, the mover's pairs gained now
// (gain), then the value of state to: added (keep) or subtracted (the other seat moves).
type cmEdge struct {
	p    float64
	gain float64
	to   string
	keep bool
	// lucky marks daring's second unknown card matching its first, unknown, card.
	lucky bool
}

// cmRef is the card-level reference: every card-level state a game reaches, its outcomes under
// the role's choice, solved by value iteration.
type cmRef struct {
	capacity, copies int
	choose           func(role int, counts []int) rules.Choice
	// first, when set, is the choice of the first turn from the start states (then the roles'
	// policies).
	edges map[string][]cmEdge
}

// without returns the cards with positions i and j removed.
func without(cards []cmCard, i, j int) []cmCard {
	out := make([]cmCard, 0, len(cards))
	for k, c := range cards {
		if k != i && k != j {
			out = append(out, c)
		}
	}
	return out
}

// turn returns the outcomes of choice ch in t, card by card: the first card uniform among the
// cards not remembered; safe's second card the first remembered card, known-first's first the
// first remembered card of a face with the most cards on the table.
func (r *cmRef) turn(t cmTable, ch rules.Choice) []cmEdge {
	cards := t.cards
	// A pair known whole: the mover takes it first.
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
	// end adds the outcome of a turn ending without a pair after the cards seen (positions),
	// with weight p: forget the excess among the cards remembered before the turn.
	end := func(p float64, seen []int) {
		after := append([]cmCard(nil), cards...)
		for _, i := range seen {
			after[i].rem = true
		}
		x := max(0, len(rem)+len(seen)-r.capacity)
		var forget func(p float64, c []cmCard, x int)
		forget = func(p float64, c []cmCard, x int) {
			if x == 0 {
				out = append(out, cmEdge{p: p, to: cmTable{c, 1 - t.role}.key()})
				return
			}
			var old []int
			for _, i := range rem {
				if c[i].rem {
					old = append(old, i)
				}
			}
			for _, i := range old {
				c2 := append([]cmCard(nil), c...)
				c2[i].rem = false
				forget(p/float64(len(old)), c2, x-1)
			}
		}
		forget(p, after, x)
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

// knownWhole reports whether two remembered cards of t are of one face (the mover takes them
// first, whatever its choice).
func knownWhole(t cmTable) bool {
	seen := map[int]bool{}
	for _, c := range t.cards {
		if c.rem {
			if seen[c.face] {
				return true
			}
			seen[c.face] = true
		}
	}
	return false
}

// explore adds the outcomes of every state reachable from t.
func (r *cmRef) explore(t cmTable, first int) string {
	k := t.key()
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
	return k
}

// solve returns every state's value (the mover's lead) by value iteration.
func (r *cmRef) solve() map[string]float64 {
	v := make(map[string]float64, len(r.edges))
	for it := 0; it < 100000; it++ {
		delta := 0.0
		for k, es := range r.edges {
			x := 0.0
			for _, e := range es {
				if e.keep {
					x += e.p * (e.gain + v[e.to])
				} else {
					x -= e.p * v[e.to]
				}
			}
			delta = max(delta, math.Abs(x-v[k]))
			v[k] = x
		}
		if delta < 1e-14 {
			break
		}
	}
	return v
}

// cmDeals returns the start of every deal of faces faces of copies cards (up to the faces'
// names, each as likely).
func cmDeals(faces, copies int) []cmTable {
	var out []cmTable
	deals(faces, copies, func(deal []int) {
		t := cmTable{}
		for _, f := range deal {
			t.cards = append(t.cards, cmCard{face: f})
		}
		out = append(out, t)
	})
	return out
}

// cmTableOf lays out the state of faces v as cards: each face's remembered card first.
func cmTableOf(v copiesVec) cmTable {
	t := cmTable{}
	face := 0
	for cl, a := range v {
		r, b := cl&^1+2, cl&1
		for range a {
			for i := range r {
				t.cards = append(t.cards, cmCard{face: face, rem: i < b})
			}
			face++
		}
	}
	return t
}

// cmCardLead returns seat 0's expected lead, averaged over the start tables, the game played
// card by card with a shared handover-uniform memory of the given capacity, the roles choosing
// by choose; with first >= 0 seat 0's first turn makes that choice.
func cmCardLead(tables []cmTable, copies, capacity int, choose func(role int, counts []int) rules.Choice, first int) float64 {
	r := &cmRef{capacity: capacity, copies: copies, choose: choose, edges: map[string][]cmEdge{}}
	var starts []string
	for _, t := range tables {
		starts = append(starts, r.explore(t, first))
	}
	v := r.solve()
	sum := 0.0
	for _, k := range starts {
		sum += v[k]
	}
	return sum / float64(len(starts))
}

// cmChooser returns the role's choice in the counts: safe or daring by the fixed policy, or the
// solver's choice read off its solved cells (optimal: the self-play optimum's; best-response:
// role 0's).
func cmChooserOf(t *testing.T, s *copiesMemSolver[float64], pol [2]rules.Policy) func(role int, counts []int) rules.Choice {
	return func(role int, counts []int) rules.Choice {
		p := pol[role]
		if p == rules.PolicyOptimal || p == rules.PolicyBestResponse {
			i, ok := s.at[copiesVec(counts).key()]
			if !ok {
				t.Fatalf("the solver did not reach %v", copiesVec(counts).state())
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

// TestCopiesHandoverMatchesCardPlay checks the handover-uniform copies model's lead and every
// choice's lead from the start against card play over every deal, the forgetting drawn card by
// card among the cards remembered before the turn, for fixed policies, the optimum and a best
// response; and that no choice in a state the optimum reaches, the optimum played afterwards, is
// worth more in card play than the optimum's own.
func TestCopiesHandoverMatchesCardPlay(t *testing.T) {
	type deck struct{ faces, copies, capacity int }
	decks := []deck{{2, 4, 2}, {2, 4, 3}}
	states := 3 // the states with a remembered card whose choices are checked, per lineup
	if !testing.Short() {
		decks = append(decks, deck{2, 6, 2})
		states = 6
	}
	lineups := []Lineup{
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicySafe},
		{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe},
	}
	ctx := context.Background()
	for _, d := range decks {
		for _, mu := range lineups {
			name := fmt.Sprintf("%d faces of %d, handover-uniform(%d), %s", d.faces, d.copies, d.capacity, lineupName(mu))
			m := Model{Memory: rules.Memory{Capacity: d.capacity, Forget: rules.ForgetHandoverUniform}, Variant: rules.Variant{Copies: d.copies}}
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
			pol := [2]rules.Policy{mu.Policy, mu.Opponent}
			choose := cmChooserOf(t, s, pol)
			if got, want := s.cells[0].val[0], cmCardLead(cmDeals(d.faces, d.copies), d.copies, d.capacity, choose, -1); math.Abs(got-want) > 1e-9 {
				t.Errorf("%s: lead %.12f, card play %.12f", name, got, want)
			}
			// Every choice's lead from every state the game reaches with a remembered card.
			selfPlay := mu.Policy == rules.PolicyOptimal && mu.Opponent == rules.PolicyOptimal
			checked := 0
			for _, c := range s.cells {
				if c.h == 0 || c.pairs == 0 || (checked == states && !selfPlay) {
					continue
				}
				checked++
				cst := c.v.state()
				cs, err := CopiesChoiceValues(ctx, field.Float{}, m, mu, cst)
				if err != nil {
					t.Fatal(err)
				}
				own := cmCardLead([]cmTable{cmTableOf(c.v)}, d.copies, d.capacity, choose, -1)
				for _, cv := range cs.Values {
					want := cmCardLead([]cmTable{cmTableOf(c.v)}, d.copies, d.capacity, choose, int(cv.Choice))
					if math.Abs(cv.Lead-want) > 1e-9 {
						t.Errorf("%s, from %v: %s first: lead %.12f, card play %.12f", name, cst, cv.Choice, cv.Lead, want)
					}
					// The optimum: no choice, the optimum played afterwards, is worth more in card play.
					if selfPlay && want > own+1e-9 {
						t.Errorf("%s, from %v: %s first is worth %.12f in card play, more than optimal's %.12f", name, cst, cv.Choice, want, own)
					}
				}
			}
		}
	}
}
