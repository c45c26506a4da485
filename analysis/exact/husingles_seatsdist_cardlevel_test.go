package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of every seat's score distribution at three or more seats for
// singletons under a shared handover-uniform memory: the deals, turns and card-by-card forgetting
// of husingles_cardlevel_test.go (husDeal.turn) with p seats and a pass streak, as
// husingles_seats_cardlevel_test.go plays them, and value iteration over each deal's chain of
// (pairs on the table, remembered positions, streak, seat to move) on every seat's distribution
// of the pairs it takes (seat b's block b, by seat), in 1/unit pairs. It reads count states only
// to ask the lineup for its choice.

// husSeatsDistCard is one deal's distributions: x[t][l][st] with seat t to move at streak l in st
// (no pair known whole).
type husSeatsDistCard struct {
	d                  *husDeal
	p, lv, unit, width int
	capacity           int
	x                  [][]map[husCardState][]float64
	edges              map[husCardState]map[rules.Choice][]husEdge
}

// turn returns husDeal.turn's outcomes of ch in st, computed once.
func (cv *husSeatsDistCard) turn(st husCardState, ch rules.Choice) []husEdge {
	m := cv.edges[st]
	if m == nil {
		m = map[rules.Choice][]husEdge{}
		cv.edges[st] = m
	}
	e, ok := m[ch]
	if !ok {
		e = cv.d.turn(st, ch, cv.capacity)
		m[ch] = e
	}
	return e
}

// shifted returns v with seat b's block shifted by k units.
func (cv *husSeatsDistCard) shifted(v []float64, b, k int) []float64 {
	out := append([]float64(nil), v...)
	lo := b * cv.width
	for i := range cv.width {
		out[lo+i] = 0
	}
	for i := range cv.width - k {
		out[lo+i+k] = v[lo+i]
	}
	return out
}

// start returns the distributions with seat t to move at streak 0 in st, a pair known whole taken
// first by seat t.
func (cv *husSeatsDistCard) start(t int, st husCardState) []float64 {
	if f := cv.d.fullPair(st); f >= 0 {
		return cv.shifted(cv.x[t][0][cv.d.take(st, f)], t, cv.unit)
	}
	return cv.x[t][0][st]
}

// choiceDist returns the distributions when seat t makes ch at streak l in st.
func (cv *husSeatsDistCard) choiceDist(t, l int, st husCardState, ch rules.Choice) []float64 {
	out := make([]float64, cv.p*cv.width)
	next := (t + 1) % cv.p
	if ch == rules.Pass {
		if l == cv.p-1 {
			n := bitsOf(st.present)
			for b := range cv.p {
				out[b*cv.width+n*cv.unit/cv.p] = 1
			}
			return out
		}
		return append(out[:0], cv.x[next][l+1][st]...)
	}
	for _, e := range cv.turn(st, ch) {
		var y []float64
		if e.keep {
			y = cv.shifted(cv.start(t, e.to), t, e.gain*cv.unit)
		} else {
			y = cv.start(next, e.to)
		}
		for i := range out {
			out[i] += e.p * y[i]
		}
	}
	return out
}

// husSeatsDistCardLevel averages, over every deal and every placement of the remembered cards a
// count state describes, every seat's distribution with seat 0 to move at streak 0.
func husSeatsDistCardLevel(pairs, singles, capacity, p int, pass rules.PassRule, choose func(t, l int, st rules.State) rules.Choice) (map[rules.State][]float64, int) {
	lv, unit := 1, 1
	if pass != rules.PassNever {
		lv, unit = p, p
	}
	width := unit*pairs + 1
	sum := map[rules.State][]float64{}
	count := map[rules.State]float64{}
	for _, d := range husDeals(pairs, singles) {
		cv := &husSeatsDistCard{d: &d, p: p, lv: lv, unit: unit, width: width, capacity: capacity, edges: map[husCardState]map[rules.Choice][]husEdge{}}
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
		cv.x = make([][]map[husCardState][]float64, p)
		for t := range p {
			cv.x[t] = make([]map[husCardState][]float64, lv)
			for l := range lv {
				cv.x[t][l] = map[husCardState][]float64{}
				for _, st := range states {
					v := make([]float64, p*width)
					for b := range p {
						v[b*width] = 1 // no pairs left: every seat takes none
					}
					cv.x[t][l][st] = v
				}
			}
		}
		chosen := map[[3]int]rules.Choice{}
		for t := range p {
			for l := range lv {
				for k, st := range states {
					if st.present != 0 {
						chosen[[3]int{t, l, k}] = choose(t, l, d.counts(st, singles))
					}
				}
			}
		}
		for sweep := 0; ; sweep++ {
			delta := 0.0
			for t := range p {
				for l := range lv {
					for k, st := range states {
						if st.present == 0 {
							continue
						}
						y := cv.choiceDist(t, l, st, chosen[[3]int{t, l, k}])
						for i := range y {
							delta = math.Max(delta, math.Abs(y[i]-cv.x[t][l][st][i]))
						}
						cv.x[t][l][st] = y
					}
				}
			}
			if delta < 1e-13 || sweep > 100000 {
				break
			}
		}
		for _, st := range states {
			cs := d.counts(st, singles)
			if sum[cs] == nil {
				sum[cs] = make([]float64, p*width)
			}
			for i, v := range cv.x[0][0][st] {
				sum[cs][i] += v
			}
			count[cs]++
		}
	}
	for cs, v := range sum {
		for i := range v {
			v[i] /= count[cs]
		}
	}
	return sum, width
}

// TestHandoverSingletonsSeatsDistributionMatchesCardPlay compares every seat's distribution in
// every count state (seat 0 to move, streak 0) with the card-level reference's over every deal and
// every hand-over's forgetting draw, the lineup playing the solver's choices.
func TestHandoverSingletonsSeatsDistributionMatchesCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity, players int
		pass                              rules.PassRule
		seats                             []rules.Policy
		short                             bool
	}
	opt3 := []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}
	cases := []tc{
		{1, 2, 2, 3, rules.PassNever, opt3, true},
		{2, 1, 2, 3, rules.PassNever, opt3, false},
		{2, 1, 2, 3, rules.PassAlways, opt3, false},
		{2, 1, 2, 3, rules.PassTwoKnown, opt3, false},
		{2, 1, 2, 4, rules.PassAlways, []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}, false},
		{2, 1, 2, 3, rules.PassNever, []rules.Policy{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyDaring}, false},
		{2, 2, 3, 3, rules.PassAlways, []rules.Policy{rules.PolicyBestResponse, rules.PolicyDaring, rules.PolicyOptimal}, false},
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
			dists, _, width, err := s.husSeatsDists(c.pairs)
			if err != nil {
				t.Fatal(err)
			}
			choose := func(t, l int, st rules.State) rules.Choice { return s.seatsDistChoice(s.cells[s.at[st]], t, l) }
			card, cw := husSeatsDistCardLevel(c.pairs, c.singles, c.capacity, c.players, c.pass, choose)
			if cw != width {
				t.Fatalf("width %d, card level %d", width, cw)
			}
			for _, cell := range s.cells {
				want, ok := card[cell.st]
				if !ok {
					t.Fatalf("%v: no card-level placement", cell.st)
				}
				got := dists[s.at[cell.st]][0]
				for i := range want {
					if math.Abs(got[i]-want[i]) > 1e-9 {
						t.Errorf("%v seat %d share %d/%d: solver %.12f, card level %.12f", cell.st, i/width, i%width, width, got[i], want[i])
					}
				}
			}
		})
	}
}
