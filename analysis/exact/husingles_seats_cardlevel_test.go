package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of singletons under a shared handover-uniform memory at three or more
// seats: the deals, turns and card-by-card forgetting of husingles_cardlevel_test.go (husDeal.turn),
// with p seats, a pass streak (a pass shows no card, forgets nothing and hands the same table to
// the next seat; the p-th pass in a row ends the game, every seat taking an equal share of the
// pairs left) and every seat's expected pairs (by seat, not from the mover) found by value
// iteration over each deal's chain of (pairs on the table, remembered positions, streak, seat to
// move). It reads count states only to ask a policy for its choice.

// husSeatsCard is one deal's values: v[t][l][st] is every seat's expected pairs (seat 0 first)
// with seat t to move at streak l in st (no pair known whole).
type husSeatsCard struct {
	d        *husDeal
	p, lv    int
	capacity int
	v        [][]map[husCardState][]float64
	choose   func(t, l int, st rules.State) rules.Choice
	singles  int
	pass     rules.PassRule
}

func (cv *husSeatsCard) pairsLeft(st husCardState) int { return bitsOf(st.present) }

// start returns every seat's pairs with seat t to move at streak 0 in st, a pair known whole taken
// first by seat t.
func (cv *husSeatsCard) start(t int, st husCardState) []float64 {
	if f := cv.d.fullPair(st); f >= 0 {
		out := append([]float64(nil), cv.v[t][0][cv.d.take(st, f)]...)
		out[t]++
		return out
	}
	return cv.v[t][0][st]
}

// choiceValue returns every seat's pairs when seat t makes ch at streak l in st, the lineup after.
func (cv *husSeatsCard) choiceValue(t, l int, st husCardState, ch rules.Choice) []float64 {
	out := make([]float64, cv.p)
	next := (t + 1) % cv.p
	if ch == rules.Pass {
		if l == cv.p-1 {
			for s := range out {
				out[s] = float64(cv.pairsLeft(st)) / float64(cv.p)
			}
			return out
		}
		return append(out[:0], cv.v[next][l+1][st]...)
	}
	for _, e := range cv.d.turn(st, ch, cv.capacity) {
		var x []float64
		if e.keep {
			x = cv.start(t, e.to)
			out[t] += e.p * float64(e.gain)
		} else {
			x = cv.start(next, e.to)
		}
		for s := range out {
			out[s] += e.p * x[s]
		}
	}
	return out
}

func husSeatsCardSolve(d *husDeal, p, singles, capacity int, pass rules.PassRule, choose func(t, l int, st rules.State) rules.Choice) *husSeatsCard {
	lv := 1
	if pass != rules.PassNever {
		lv = p
	}
	cv := &husSeatsCard{d: d, p: p, lv: lv, capacity: capacity, choose: choose, singles: singles, pass: pass}
	var states []husCardState
	for present := uint32(0); present < 1<<d.pairs; present++ {
		for mem := uint32(0); mem < 1<<d.cards; mem++ {
			st := husCardState{present, mem}
			ok := bitsOf(mem) <= capacity && d.fullPair(st) < 0
			for pos := range d.cards {
				if mem&(1<<pos) != 0 && !d.onTable(st, pos) {
					ok = false
				}
			}
			if ok {
				states = append(states, st)
			}
		}
	}
	cv.v = make([][]map[husCardState][]float64, p)
	for t := range p {
		cv.v[t] = make([]map[husCardState][]float64, lv)
		for l := range lv {
			cv.v[t][l] = map[husCardState][]float64{}
			for _, st := range states {
				cv.v[t][l][st] = make([]float64, p)
			}
		}
	}
	for sweep := 0; ; sweep++ {
		delta := 0.0
		for t := range p {
			for l := range lv {
				for _, st := range states {
					if st.present == 0 {
						continue
					}
					x := cv.choiceValue(t, l, st, choose(t, l, d.counts(st, singles)))
					for s := range x {
						delta = math.Max(delta, math.Abs(x[s]-cv.v[t][l][st][s]))
					}
					cv.v[t][l][st] = x
				}
			}
		}
		if delta < 1e-14 || sweep > 100000 {
			return cv
		}
	}
}

// husSeatsCardAvg holds the card-level averages of a count state: every seat's pairs (from the
// mover) with seat t to move at streak l, and at streak l each legal choice of seat t made once.
type husSeatsCardAvg struct {
	val    map[[2]int][]float64
	choice map[[2]int]map[rules.Choice][]float64
	count  float64
}

// husSeatsCardLevel averages the card-level values over every deal and every placement of the
// remembered cards each count state describes, turned to start from the mover.
func husSeatsCardLevel(pairs, singles, capacity, p int, pass rules.PassRule, choose func(t, l int, st rules.State) rules.Choice) map[rules.State]*husSeatsCardAvg {
	out := map[rules.State]*husSeatsCardAvg{}
	add := func(dst []float64, x []float64, t int) []float64 {
		if dst == nil {
			dst = make([]float64, p)
		}
		for s := range p {
			dst[s] += x[(t+s)%p]
		}
		return dst
	}
	for _, d := range husDeals(pairs, singles) {
		cv := husSeatsCardSolve(&d, p, singles, capacity, pass, choose)
		for st := range cv.v[0][0] {
			cs := d.counts(st, singles)
			a := out[cs]
			if a == nil {
				a = &husSeatsCardAvg{val: map[[2]int][]float64{}, choice: map[[2]int]map[rules.Choice][]float64{}}
				out[cs] = a
			}
			a.count++
			for t := range p {
				for l := range cv.lv {
					key := [2]int{t, l}
					a.val[key] = add(a.val[key], cv.v[t][l][st], t)
					if cs.N == 0 {
						continue
					}
					if a.choice[key] == nil {
						a.choice[key] = map[rules.Choice][]float64{}
					}
					for _, ch := range rules.Choices() {
						if rules.Legal(cs, ch, pass) {
							a.choice[key][ch] = add(a.choice[key][ch], cv.choiceValue(t, l, st, ch), t)
						}
					}
				}
			}
		}
	}
	for _, a := range out {
		for _, v := range a.val {
			for s := range v {
				v[s] /= a.count
			}
		}
		for _, m := range a.choice {
			for _, v := range m {
				for s := range v {
					v[s] /= a.count
				}
			}
		}
	}
	return out
}

// TestHandoverSingletonsSeatsMatchCardPlay compares the solver's vectors at three and four seats
// (every seat to move, every pass streak) and seat 0's choice values with the card-level
// reference playing the solver's choices, and checks card by card that no mover of the optimum
// of every seat for itself (or a best-response seat) gains by another choice made once.
func TestHandoverSingletonsSeatsMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity, players int
		pass                              rules.PassRule
		seats                             []rules.Policy
		short                             bool
	}
	opt3 := []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}
	cases := []tc{
		{2, 1, 2, 3, rules.PassNever, opt3, true},
		{2, 1, 2, 3, rules.PassAlways, opt3, false},
		{2, 2, 3, 3, rules.PassNever, opt3, false},
		{2, 2, 2, 3, rules.PassTwoKnown, opt3, false},
		{3, 1, 3, 3, rules.PassNever, opt3, false},
		{2, 1, 2, 4, rules.PassAlways, []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}, false},
		{2, 1, 2, 3, rules.PassNever, []rules.Policy{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyDaring}, true},
		{2, 2, 3, 3, rules.PassAlways, []rules.Policy{rules.PolicyBestResponse, rules.PolicyDaring, rules.PolicyOptimal}, false},
		{2, 1, 2, 3, rules.PassTwoKnown, []rules.Policy{rules.PolicyParity, rules.PolicyBestResponse, rules.PolicySafe}, false},
		{2, 1, 2, 3, rules.PassAlways, []rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyOptimal}, false},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		name := fmt.Sprintf("%d+%ds/m%d/p%d/%s/%v", c.pairs, c.singles, c.capacity, c.players, c.pass, c.seats)
		t.Run(name, func(t *testing.T) {
			m := husModel(c.singles, c.capacity)
			m.Pass = c.pass
			mu := SeatLineup(c.seats...)
			s, err := newHUSSolver(context.Background(), field.Float{}, m, mu, c.pairs)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.solve(); err != nil {
				t.Fatal(err)
			}
			selfish := isSelfish(mu)
			vec := func(cell *husCell[float64], t, l int) []float64 {
				if selfish {
					return cell.seats.self[l]
				}
				return cell.seats.seats[l][t]
			}
			choose := func(t, l int, st rules.State) rules.Choice {
				cell := s.cells[s.at[st]]
				if selfish {
					return cell.seats.selfCh[l]
				}
				return cell.seats.seatCh[l][t]
			}
			card := husSeatsCardLevel(c.pairs, c.singles, c.capacity, c.players, c.pass, choose)
			reply := mu.replySeat()
			for _, cell := range s.cells {
				a, ok := card[cell.st]
				if !ok {
					t.Fatalf("%v: no card-level placement", cell.st)
				}
				for key, want := range a.val {
					got := vec(cell, key[0], key[1])
					for i := range want {
						if math.Abs(got[i]-want[i]) > 1e-9 {
							t.Errorf("%v seat %d to move, streak %d: solver %v, card level %v", cell.st, key[0], key[1], got, want)
							break
						}
					}
					// A seat maximising its own pairs gains nothing by another choice, card by card.
					if !selfish && key[0] != reply {
						continue
					}
					for ch, w := range a.choice[key] {
						if w[0] > want[0]+1e-9 {
							t.Errorf("%v seat %d, streak %d: %s gives the mover %.12f card by card, more than %.12f", cell.st, key[0], key[1], ch, w[0], want[0])
						}
					}
				}
				if cell.st.N == 0 {
					continue
				}
				for ch, w := range a.choice[[2]int{0, 0}] {
					got := cell.seats.dev[ch]
					if got == nil {
						t.Errorf("%v: %s legal card by card, not in the solver", cell.st, ch)
						continue
					}
					for i := range w {
						if math.Abs(got[i]-w[i]) > 1e-9 {
							t.Errorf("%v %s: solver %v, card level %v", cell.st, ch, got, w)
							break
						}
					}
				}
			}
		})
	}
}
