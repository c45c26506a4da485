package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of singletons under a fluctuating handover-uniform capacity at three
// or more seats: husingles_cardlevel_test.go's deals and turns (husDeal.turn), a capacity drawn
// before every turn, d uniform on -σ .. σ and c = max(2, m + d), each d on its own (no capacities
// merged), with p seats and a pass streak. A pass shows no card; its hand-over forgets the
// memory's excess over the capacity drawn, card by card uniformly among the remembered cards, and
// hands the next seat the table at the next streak; the p-th pass in a row ends the game, every
// seat taking an equal share of the pairs left. Every seat's expected pairs (by seat) are found
// by value iteration over each deal's chain of (pairs on the table, remembered positions, streak,
// seat to move) before the draw. Count states are read only to ask a policy for its choice.

// fssCard is one deal's values: v[t][l][st] every seat's expected pairs (seat 0 first) with seat
// t to move at streak l in st before the draw (no pair known whole).
type fssCard struct {
	d       *husDeal
	p, lv   int
	caps    []int
	singles int
	v       [][]map[husCardState][]float64
}

// start returns every seat's pairs with seat t to move at streak 0 in st, a pair known whole taken
// first by seat t.
func (cv *fssCard) start(t int, st husCardState) []float64 {
	if f := cv.d.fullPair(st); f >= 0 {
		out := append([]float64(nil), cv.v[t][0][cv.d.take(st, f)]...)
		out[t]++
		return out
	}
	return cv.v[t][0][st]
}

// choiceValue returns every seat's pairs when seat t makes ch at streak l in st with capacity c
// drawn, the lineup after.
func (cv *fssCard) choiceValue(t, l int, st husCardState, ch rules.Choice, c int) []float64 {
	out := make([]float64, cv.p)
	next := (t + 1) % cv.p
	if ch == rules.Pass {
		if l == cv.p-1 {
			for s := range out {
				out[s] = float64(bitsOf(st.present)) / float64(cv.p)
			}
			return out
		}
		var forget func(pr float64, mem uint32)
		forget = func(pr float64, mem uint32) {
			if bitsOf(mem) <= c {
				for s, x := range cv.v[next][l+1][husCardState{present: st.present, mem: mem}] {
					out[s] += pr * x
				}
				return
			}
			k := float64(bitsOf(mem))
			for pos := range cv.d.cards {
				if mem&(1<<pos) != 0 {
					forget(pr/k, mem&^(1<<pos))
				}
			}
		}
		forget(1, st.mem)
		return out
	}
	for _, e := range cv.d.turn(st, ch, c) {
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

// fssCardSolve solves one deal by value iteration, choose(t, l, st, c) being seat t's choice at
// streak l in count state st with capacity c drawn.
func fssCardSolve(d *husDeal, p, singles, capacity, sigma int, pass rules.PassRule, choose func(t, l int, st rules.State, c int) rules.Choice) *fssCard {
	lv := 1
	if pass != rules.PassNever {
		lv = p
	}
	cv := &fssCard{d: d, p: p, lv: lv, singles: singles}
	for dd := -sigma; dd <= sigma; dd++ {
		cv.caps = append(cv.caps, max(2, capacity+dd))
	}
	var states []husCardState
	for present := uint32(0); present < 1<<d.pairs; present++ {
		for mem := uint32(0); mem < 1<<d.cards; mem++ {
			st := husCardState{present, mem}
			ok := bitsOf(mem) <= capacity+sigma && d.fullPair(st) < 0
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
	pc := 1 / float64(len(cv.caps))
	for sweep := 0; ; sweep++ {
		delta := 0.0
		for t := range p {
			for l := range lv {
				for _, st := range states {
					if st.present == 0 {
						continue
					}
					cs := d.counts(st, singles)
					x := make([]float64, p)
					for _, c := range cv.caps {
						for s, y := range cv.choiceValue(t, l, st, choose(t, l, cs, c), c) {
							x[s] += pc * y
						}
					}
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

// fssCardAvg holds the card-level averages of a count state: every seat's pairs (from the mover)
// before the draw with seat t to move at streak l, and seat t's legal choices made once at streak
// l with capacity c drawn (key {t, l, c}).
type fssCardAvg struct {
	val    map[[2]int][]float64
	choice map[[3]int]map[rules.Choice][]float64
	count  float64
}

// fssCardLevel averages the card-level values over every deal and every placement of the
// remembered cards each count state describes, turned to start from the mover.
func fssCardLevel(pairs, singles, capacity, sigma, p int, pass rules.PassRule, choose func(t, l int, st rules.State, c int) rules.Choice) map[rules.State]*fssCardAvg {
	out := map[rules.State]*fssCardAvg{}
	add := func(dst []float64, x []float64, t int, w float64) []float64 {
		if dst == nil {
			dst = make([]float64, p)
		}
		for s := range p {
			dst[s] += w * x[(t+s)%p]
		}
		return dst
	}
	for _, d := range husDeals(pairs, singles) {
		cv := fssCardSolve(&d, p, singles, capacity, sigma, pass, choose)
		for st := range cv.v[0][0] {
			cs := d.counts(st, singles)
			a := out[cs]
			if a == nil {
				a = &fssCardAvg{val: map[[2]int][]float64{}, choice: map[[3]int]map[rules.Choice][]float64{}}
				out[cs] = a
			}
			a.count++
			for t := range p {
				for l := range cv.lv {
					key := [2]int{t, l}
					a.val[key] = add(a.val[key], cv.v[t][l][st], t, 1)
					if cs.N == 0 {
						continue
					}
					for _, c := range cv.caps {
						ck := [3]int{t, l, c}
						if a.choice[ck] == nil {
							a.choice[ck] = map[rules.Choice][]float64{}
						}
						// A capacity drawn by several d is counted once.
						times := 0
						for _, c2 := range cv.caps {
							if c2 == c {
								times++
							}
						}
						for _, ch := range rules.Choices() {
							if rules.Legal(cs, ch, pass) {
								a.choice[ck][ch] = add(a.choice[ck][ch], cv.choiceValue(t, l, st, ch, c), t, 1/float64(times))
							}
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

// TestFluctSingletonsSeatsMatchCardPlay compares the solver's vectors before the draw at three and
// four seats (every seat to move, every pass streak) and seat 0's choice values after every
// capacity drawn with the card-level reference playing the solver's choices, checks card by card
// that no mover of the optimum of every seat for itself (or a best-response seat) gains by
// another choice made once, and that the seats' pairs add up to the pairs left.
func TestFluctSingletonsSeatsMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity, sigma, players int
		pass                                     rules.PassRule
		seats                                    []rules.Policy
		short                                    bool
	}
	opt3 := []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}
	cases := []tc{
		{1, 1, 2, 1, 3, rules.PassAlways, opt3, true},
		{2, 1, 2, 1, 3, rules.PassNever, opt3, false},
		{2, 1, 3, 1, 3, rules.PassAlways, opt3, false},
		{2, 1, 3, 2, 4, rules.PassAlways, []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}, false},
		{2, 1, 2, 1, 3, rules.PassNever, []rules.Policy{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyDaring}, false},
		{2, 2, 3, 1, 3, rules.PassAlways, []rules.Policy{rules.PolicyBestResponse, rules.PolicyDaring, rules.PolicyOptimal}, false},
		{2, 1, 3, 1, 3, rules.PassTwoKnown, []rules.Policy{rules.PolicyParity, rules.PolicyBestResponse, rules.PolicySafe}, false},
		{2, 1, 2, 1, 4, rules.PassNever, []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal, rules.PolicyBestResponse}, false},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		name := fmt.Sprintf("%d+%ds/m%d±%d/p%d/%s/%v", c.pairs, c.singles, c.capacity, c.sigma, c.players, c.pass, c.seats)
		t.Run(name, func(t *testing.T) {
			m := fluctSinglesModel(c.singles, c.capacity, c.sigma)
			m.Pass = c.pass
			mu := SeatLineup(c.seats...)
			s, err := newFSSSolver(context.Background(), field.Float{}, m, mu, c.pairs)
			if err != nil {
				t.Fatal(err)
			}
			selfish := isSelfish(mu)
			cellOf := func(st rules.State, cp int) int { return s.at[fsKey{st: st, c: min(cp, fsTop(m, st.N))}] }
			vecAt := func(i, t, l int) []float64 {
				if selfish {
					return s.vals[i].self[l]
				}
				return s.vals[i].seats[l][t]
			}
			choose := func(t, l int, st rules.State, cp int) rules.Choice {
				i := cellOf(st, cp)
				if selfish {
					return s.vals[i].selfCh[l]
				}
				return s.vals[i].seatCh[l][t]
			}
			card := fssCardLevel(c.pairs, c.singles, c.capacity, c.sigma, c.players, c.pass, choose)
			reply := mu.replySeat()
			checked := 0
			for st, ds := range s.draws {
				a, ok := card[st]
				if !ok {
					t.Fatalf("%v: no card-level placement", st)
				}
				for key, want := range a.val {
					got := make([]float64, c.players)
					for _, d := range ds {
						for i, x := range vecAt(d.to, key[0], key[1]) {
							got[i] += d.p * x
						}
					}
					sum := 0.0
					for i := range want {
						sum += got[i]
						if math.Abs(got[i]-want[i]) > 1e-9 {
							t.Errorf("%v seat %d to move, streak %d: solver %v, card level %v", st, key[0], key[1], got, want)
							break
						}
					}
					if math.Abs(sum-float64(st.N)) > 1e-9 {
						t.Errorf("%v seat %d to move, streak %d: the seats' pairs %v add up to %g, not %d", st, key[0], key[1], got, sum, st.N)
					}
					checked++
				}
				if st.N == 0 {
					continue
				}
				for key, byCh := range a.choice {
					i := cellOf(st, key[2])
					// A seat maximising its own pairs gains nothing by another choice, card by card.
					if selfish || key[0] == reply {
						own := vecAt(i, key[0], key[1])[0]
						for ch, w := range byCh {
							if w[0] > own+1e-9 {
								t.Errorf("%v c=%d seat %d, streak %d: %s gives the mover %.12f card by card, more than %.12f", st, key[2], key[0], key[1], ch, w[0], own)
							}
						}
					}
					if key[0] != 0 {
						continue
					}
					for ch, w := range byCh {
						got := s.dev[i][key[1]][ch]
						if got == nil {
							t.Errorf("%v c=%d: %s legal card by card, not in the solver", st, key[2], ch)
							continue
						}
						for j := range w {
							if math.Abs(got[j]-w[j]) > 1e-9 {
								t.Errorf("%v c=%d streak %d %s: solver %v, card level %v", st, key[2], key[1], ch, got, w)
								break
							}
						}
					}
				}
			}
			if checked == 0 {
				t.Fatal("no state checked")
			}
		})
	}
}
