package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cspEdge is one outcome of a card-level turn at three or more seats under a pass rule:
// probability p, the pairs each seat takes now (gain, nil for none), then the state to ("" for a
// game over).
type cspEdge struct {
	p    float64
	gain []float64
	to   string
}

// cspRef is the card-level reference of the copies model under a shared limited memory at p
// seats under pass rule two-known or always: a card-level state is the cards on the table,
// remembered or not, the seat to move and the pass streak. A turn that is not a pass is the
// two-seat reference's (cmRef.turn, cdRef.turn), played by the seat to move, its hand-overs
// passed on to the next seat at streak 0; a pass hands the next seat the cards (decay: every
// subset of the remembered cards forgotten, cdPassRef.passTurn) at the next streak, and the
// p-th pass in a row ends the game, every seat taking its share of the pairs left.
type cspRef struct {
	turns interface {
		turn(t cmTable, ch rules.Choice) []cmEdge
	}
	passTurn func(t cmTable) []cmEdge
	pass     rules.PassRule
	copies   int
	p        int
	choose   func(seat, streak int, counts []int) rules.Choice
	edges    map[string][]cspEdge
	order    []string
}

func cspKey(t cmTable, streak int) string { return t.key() + string(rune('0'+streak)) }

// explore adds the outcomes of every state reachable from t (its role the seat to move) at the
// streak, in post-order; with first >= 0 the mover makes that choice.
func (r *cspRef) explore(t cmTable, streak, first int) string {
	k := cspKey(t, streak)
	if first >= 0 {
		k = fmt.Sprintf("first %d:", first) + k
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
		c = r.choose(t.role, streak, t.counts(r.copies))
	}
	var es []cspEdge
	next := (t.role + 1) % r.p
	switch {
	case c == rules.Pass && !(&cmPassRef{pass: r.pass}).passLegal(t):
		panic(fmt.Sprintf("a pass where it is not legal: %v", t))
	case c == rules.Pass && streak == r.p-1:
		share := make([]float64, r.p)
		for i := range share {
			share[i] = float64(len(t.cards)/2) / float64(r.p)
		}
		es = []cspEdge{{p: 1, gain: share}}
	case c == rules.Pass:
		for _, e := range r.passTurn(t) {
			nt := tableOfKey(e.to)
			nt.role = next
			es = append(es, cspEdge{p: e.p, to: r.explore(nt, streak+1, -1)})
		}
	default:
		for _, e := range r.turn(t, c) {
			nt := tableOfKey(e.to)
			var gain []float64
			nt.role = next
			if e.keep {
				nt.role = t.role
				gain = make([]float64, r.p)
				gain[t.role] = e.gain
			}
			es = append(es, cspEdge{p: e.p, gain: gain, to: r.explore(nt, 0, -1)})
		}
	}
	r.edges[k] = es
	r.order = append(r.order, k)
	return k
}

func (r *cspRef) turn(t cmTable, c rules.Choice) []cmEdge {
	if c < 0 {
		c = rules.Daring // a pair known whole: the turn takes it whatever the choice
	}
	return r.turns.turn(t, c)
}

// solve returns every state's vector of every seat's expected pairs by Gauss-Seidel value
// iteration in post-order.
func (r *cspRef) solve() map[string][]float64 {
	v := make(map[string][]float64, len(r.order))
	for _, k := range r.order {
		v[k] = make([]float64, r.p)
	}
	v[""] = make([]float64, r.p)
	for it := 0; it < 100000; it++ {
		delta := 0.0
		for _, k := range r.order {
			x := make([]float64, r.p)
			for _, e := range r.edges[k] {
				for j := range x {
					x[j] += e.p * v[e.to][j]
					if e.gain != nil {
						x[j] += e.p * e.gain[j]
					}
				}
			}
			for j := range x {
				delta = max(delta, math.Abs(x[j]-v[k][j]))
			}
			v[k] = x
		}
		if delta < 1e-14 {
			break
		}
	}
	return v
}

// cspChooser returns each seat's choice in the counts at a streak: the solver's (optimal: every
// seat for itself; best-response: the replying seat's), or the fixed policy's.
func cspChooser(t *testing.T, s *copiesMemSolver[float64], pol []rules.Policy) func(seat, streak int, counts []int) rules.Choice {
	return func(seat, streak int, counts []int) rules.Choice {
		i, ok := s.at[cmKeyAt(copiesVec(counts), streak)]
		if !ok {
			t.Fatalf("the solver did not reach %v at streak %d", copiesVec(counts).state(), streak)
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

// TestCopiesLimitedSeatsPassMatchCardPlay checks the copies model under a shared handover-uniform
// or decay memory at three seats under pass rules two-known and always against card play over
// every deal, every forgetting drawn card by card, and every pass streak: every seat's expected
// pairs from the start and from states with remembered cards, every choice's values there, for
// the optimum of every seat for itself (no mover gains in card play by deviating once beyond the
// gain the solver reports), a policy per seat and a best reply at one seat (its choice the best
// of its choices in card play).
func TestCopiesLimitedSeatsPassMatchCardPlay(t *testing.T) {
	type deck struct {
		faces, copies, capacity int
		q                       float64 // 0: handover-uniform
	}
	decks := []deck{{2, 4, 3, 0}}
	passes := []rules.PassRule{rules.PassAlways}
	lineups := []Lineup{{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}}
	states := 1
	if !testing.Short() {
		decks = append(decks, deck{2, 4, 2, 0.5}, deck{2, 4, 2, 0})
		passes = append(passes, rules.PassTwoKnown)
		lineups = append(lineups,
			Lineup{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicyBestResponse, rules.PolicyOptimal, rules.PolicySafe}},
			Lineup{Players: 3, PerSeat: true, Seats: [rules.MaxPlayers]rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal}})
		states = 2
	}
	ctx := context.Background()
	for _, d := range decks {
		for _, pass := range passes {
			for _, mu := range lineups {
				m := handoverCopies(d.capacity, d.copies)
				var turns interface {
					turn(t cmTable, ch rules.Choice) []cmEdge
				} = &cmRef{capacity: d.capacity, copies: d.copies}
				passTurn := func(t cmTable) []cmEdge { return []cmEdge{{p: 1, to: t.key()}} }
				if d.q > 0 {
					m = decayCopies(d.q, d.capacity, d.copies)
					cd := &cdPassRef{cdRef: cdRef{q: d.q, capacity: d.capacity, copies: d.copies}}
					turns, passTurn = &cd.cdRef, cd.passTurn
				}
				m.Pass = pass
				name := fmt.Sprintf("%d faces of %d, %s, pass %s, %s", d.faces, d.copies, m.Memory, pass, lineupName(mu))
				st, err := StartCopiesState(d.faces*d.copies/2, d.copies)
				if err != nil {
					t.Fatal(err)
				}
				var s *copiesMemSolver[float64]
				if d.q > 0 {
					ds, err := newCopiesDecaySolver(ctx, field.Float{}, m, mu, st)
					if err == nil {
						err = ds.solve()
					}
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					s = ds.copiesMemSolver
				} else {
					if s, err = newCopiesMemSolver(ctx, field.Float{}, m, mu, st); err == nil {
						err = s.solve()
					}
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
				pol := mu.SeatPolicies()
				choose := cspChooser(t, s, pol)
				card := func(tabs []cmTable, first int) []float64 {
					r := &cspRef{turns: turns, passTurn: passTurn, pass: pass, copies: d.copies, p: mu.Players, choose: choose, edges: map[string][]cspEdge{}}
					var starts []string
					for _, tb := range tabs {
						starts = append(starts, r.explore(tb, 0, first))
					}
					v := r.solve()
					sum := make([]float64, mu.Players)
					for _, k := range starts {
						for j := range sum {
							sum[j] += v[k][j] / float64(len(starts))
						}
					}
					return sum
				}
				got := s.seatsResult(st).PairsBySeat
				if want := card(cmDeals(d.faces, d.copies), -1); !closeVec(got, want) {
					t.Errorf("%s: every seat's pairs %v, card play %v", name, got, want)
				}
				selfPlay, reply := s.seatsSelfish(), pol[0] == rules.PolicyBestResponse
				checked := 0
				for _, c := range s.cells {
					if c.stalemate || c.streak > 0 || c.h < 2 || c.pairs == 0 || checked == states {
						continue
					}
					checked++
					cs, err := CopiesChoiceValues(ctx, field.Float{}, m, mu, c.v.state())
					if err != nil {
						t.Fatal(err)
					}
					tab := []cmTable{cmTableOf(c.v)}
					own := card(tab, -1)
					if !closeVec(cs.Value.PairsBySeat, own) {
						t.Errorf("%s, from %v: every seat's pairs %v, card play %v", name, c.v.state(), cs.Value.PairsBySeat, own)
					}
					for _, cv := range cs.Values {
						want := card(tab, int(cv.Choice))
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
				if checked == 0 {
					t.Errorf("%s: no state with two remembered cards checked", name)
				}
			}
		}
	}
}
