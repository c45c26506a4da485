package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cmSeatsEdge is one outcome of a card-level turn at three or more seats: probability p, a pair
// to seat gainer (-1: none), then the next state (its key holds the seat to move).
type cmSeatsEdge struct {
	p      float64
	gainer int
	to     string
}

// cmSeatsRef is the card-level reference of the copies model under a shared limited memory at p
// seats: every card-level state a game reaches (the cards on the table, remembered or not, and
// the seat to move), its outcomes under the seats' choices, every seat's expected pairs by value
// iteration. A turn is the two-seat reference's (cmRef.turn under a handover-uniform memory,
// cdRef.turn under a decay memory), played by role 0, its hand-overs passed on to the next seat.
type cmSeatsRef struct {
	turns interface {
		turn(t cmTable, ch rules.Choice) []cmEdge
	}
	copies int
	p      int
	choose func(seat int, counts []int) rules.Choice
	edges  map[string][]cmSeatsEdge
	order  []string // the states, each after those it leads to first (post-order)
}

func cmSeatsKey(cards []cmCard, seat int) string { return cmTable{cards: cards, role: seat}.key() }

func cmCardsOfKey(k string) []cmCard {
	var cards []cmCard
	for _, x := range []byte(k[:len(k)-1]) {
		cards = append(cards, cmCard{face: int(x) / 2, rem: x%2 == 1})
	}
	return cards
}

// explore adds the outcomes of every state reachable from the cards with seat to move; with
// first >= 0 that seat's first turn makes that choice.
func (r *cmSeatsRef) explore(cards []cmCard, seat, first int) string {
	k := cmSeatsKey(cards, seat)
	if first >= 0 {
		k = "first:" + k
	}
	if _, ok := r.edges[k]; ok {
		return k
	}
	r.edges[k] = nil
	if len(cards) == 0 {
		r.order = append(r.order, k)
		return k
	}
	t := cmTable{cards: cards}
	c := rules.Choice(first)
	if first < 0 && !knownWhole(t) {
		c = r.choose(seat, t.counts(r.copies))
	}
	var es []cmSeatsEdge
	for _, e := range r.turns.turn(t, c) {
		next, gainer := (seat+1)%r.p, -1
		if e.keep {
			next, gainer = seat, seat
		}
		nc := cmCardsOfKey(e.to)
		es = append(es, cmSeatsEdge{p: e.p, gainer: gainer, to: cmSeatsKey(nc, next)})
	}
	r.edges[k] = es
	for _, e := range es {
		kb := []byte(e.to)
		r.explore(cmCardsOfKey(e.to), int(kb[len(kb)-1]), -1)
	}
	r.order = append(r.order, k)
	return k
}

// solve returns every state's vector of every seat's expected pairs (seat 0 first), by
// Gauss-Seidel value iteration on the states in post-order (successors first), as solveEdges.
func (r *cmSeatsRef) solve() map[string][]float64 {
	at := make(map[string]int, len(r.order))
	for _, k := range r.order {
		at[k] = len(at)
	}
	type edge struct {
		p      float64
		gainer int
		to     int
	}
	es := make([][]edge, len(at))
	for k, list := range r.edges {
		for _, e := range list {
			es[at[k]] = append(es[at[k]], edge{e.p, e.gainer, at[e.to]})
		}
	}
	v := make([][]float64, len(at))
	for i := range v {
		v[i] = make([]float64, r.p)
	}
	x := make([]float64, r.p)
	for it := 0; it < 100000; it++ {
		delta := 0.0
		for i, list := range es {
			clear(x)
			for _, e := range list {
				for j := range x {
					x[j] += e.p * v[e.to][j]
				}
				if e.gainer >= 0 {
					x[e.gainer] += e.p
				}
			}
			for j := range x {
				delta = max(delta, math.Abs(x[j]-v[i][j]))
				v[i][j] = x[j]
			}
		}
		if delta < 1e-14 {
			break
		}
	}
	out := make(map[string][]float64, len(at))
	for k, i := range at {
		out[k] = v[i]
	}
	return out
}

// cmSeatsCard returns every seat's expected pairs, averaged over the start tables, the game
// played card by card at p seats under a shared handover-uniform memory, seat 0 first (making
// first on its first turn when first >= 0).
func cmSeatsCard(tables []cmTable, p, copies, capacity int, choose func(seat int, counts []int) rules.Choice, first int) []float64 {
	r := &cmSeatsRef{turns: &cmRef{capacity: capacity, copies: copies}, copies: copies, p: p, choose: choose, edges: map[string][]cmSeatsEdge{}}
	return r.average(tables, first)
}

// average returns every seat's expected pairs averaged over the start tables, seat 0 first
// (making first on its first turn when first >= 0).
func (r *cmSeatsRef) average(tables []cmTable, first int) []float64 {
	p := r.p
	var starts []string
	for _, t := range tables {
		starts = append(starts, r.explore(t.cards, 0, first))
	}
	v := r.solve()
	sum := make([]float64, p)
	for _, k := range starts {
		for j := range sum {
			sum[j] += v[k][j] / float64(len(starts))
		}
	}
	return sum
}

// cmSeatsChooser returns each seat's choice in the counts: the solver's (optimal: every seat for
// itself; best-response: the replying seat's), or the fixed policy's.
func cmSeatsChooser(t *testing.T, s *copiesMemSolver[float64], pol []rules.Policy) func(seat int, counts []int) rules.Choice {
	return func(seat int, counts []int) rules.Choice {
		i, ok := s.at[copiesVec(counts).key()]
		if !ok {
			t.Fatalf("the solver did not reach %v", copiesVec(counts).state())
		}
		c := s.cells[i]
		switch pol[seat] {
		case rules.PolicyOptimal:
			return c.mseats.selfChoice
		case rules.PolicyBestResponse:
			return c.mseats.reply
		}
		return fixedChoiceOf(c, pol[seat])
	}
}

func closeVec(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9 {
			return false
		}
	}
	return len(a) == len(b)
}

// TestCopiesHandoverSeatsMatchCardPlay checks the handover-uniform copies model at three and four
// seats against card play over every deal, the forgetting drawn card by card among the cards
// remembered before the turn: every seat's expected pairs from the start for the optimum of every
// seat for itself, fixed policies per seat and a best reply at one seat; every choice's values
// from states the game reaches; that no mover gains in card play by deviating once from the
// optimum (at an equilibrium the solver reports no gain), and that the replying seat's choice is
// the best of its choices in card play.
func TestCopiesHandoverSeatsMatchCardPlay(t *testing.T) {
	type deck struct{ faces, copies, capacity int }
	decks := []deck{{2, 4, 3}}
	states := 2 // the states with a remembered card whose choices are checked, per lineup
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 2})
		states = 6
	}
	lineups := []Lineup{
		{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 4, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal}},
		{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicySafe}},
	}
	ctx := context.Background()
	for _, d := range decks {
		for _, mu := range lineups {
			name := fmt.Sprintf("%d faces of %d, handover-uniform(%d), %s", d.faces, d.copies, d.capacity, lineupName(mu))
			m := handoverCopies(d.capacity, d.copies)
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
			pol := mu.SeatPolicies()
			choose := cmSeatsChooser(t, s, pol)
			got := s.seatsResult(st).PairsBySeat
			if want := cmSeatsCard(cmDeals(d.faces, d.copies), mu.Players, d.copies, d.capacity, choose, -1); !closeVec(got, want) {
				t.Errorf("%s: every seat's pairs %v, card play %v", name, got, want)
			}
			selfPlay, reply := s.seatsSelfish(), pol[0] == rules.PolicyBestResponse
			checked := 0
			for _, c := range s.cells {
				if c.h == 0 || c.pairs == 0 || (checked == states && !selfPlay) {
					continue
				}
				checked++
				cs, err := CopiesChoiceValues(ctx, field.Float{}, m, mu, c.v.state())
				if err != nil {
					t.Fatal(err)
				}
				tab := []cmTable{cmTableOf(c.v)}
				own := cmSeatsCard(tab, mu.Players, d.copies, d.capacity, choose, -1)
				if !closeVec(cs.Value.PairsBySeat, own) {
					t.Errorf("%s, from %v: every seat's pairs %v, card play %v", name, c.v.state(), cs.Value.PairsBySeat, own)
				}
				for _, cv := range cs.Values {
					want := cmSeatsCard(tab, mu.Players, d.copies, d.capacity, choose, int(cv.Choice))
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
		}
	}
}
