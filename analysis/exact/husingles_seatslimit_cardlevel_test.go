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
// seats under a turn limit: the deals, turns and card-by-card forgetting of
// husingles_cardlevel_test.go (husDeal.turn), p seats, the pass streak of
// husingles_seats_cardlevel_test.go and the turns left. Every turn uses one, a pass too; a pair
// both of whose cards are remembered at the start of a turn is taken by the mover in a turn of its
// own, when one is left; the p-th pass in a row ends the game, every seat taking an equal share of
// the pairs left; with no turn left the pairs left count for nobody. Every seat's pairs (by seat)
// follow by recursion on the turns left. It reads count states only to ask a policy for its
// choice.

// husSeatsLimitKey is a card-level position: the table, the seat to move, the streak, the turns
// left.
type husSeatsLimitKey struct {
	st      husCardState
	seat, l int
	t       int
}

// husSeatsLimitRef is one deal's reference for a lineup whose seat m chooses choose(m, l, counts,
// t).
type husSeatsLimitRef struct {
	d                    *husDeal
	p, singles, capacity int
	choose               func(m, l int, st rules.State, t int) rules.Choice
	memo                 map[husSeatsLimitKey][]float64
}

// start returns every seat's pairs with seat m to move at streak 0 and t turns left on a table
// that may hold a pair known whole, which m takes first in a turn of its own.
func (r *husSeatsLimitRef) start(m int, st husCardState, t int) []float64 {
	if t == 0 {
		return make([]float64, r.p)
	}
	if f := r.d.fullPair(st); f >= 0 {
		out := append([]float64(nil), r.value(m, 0, r.d.take(st, f), t-1, -1)...)
		out[m]++
		return out
	}
	return r.value(m, 0, st, t, -1)
}

// value returns every seat's pairs with seat m to move at streak l and t turns left; with first
// >= 0 the mover makes that choice now.
func (r *husSeatsLimitRef) value(m, l int, st husCardState, t, first int) []float64 {
	out := make([]float64, r.p)
	if t == 0 || st.present == 0 {
		return out
	}
	key := husSeatsLimitKey{st, m, l, t}
	if x, ok := r.memo[key]; ok && first < 0 {
		return x
	}
	ch := rules.Choice(first)
	if first < 0 {
		ch = r.choose(m, l, r.d.counts(st, r.singles), t)
	}
	next := (m + 1) % r.p
	switch {
	case ch == rules.Pass && l == r.p-1:
		for s := range out {
			out[s] = float64(bitsOf(st.present)) / float64(r.p)
		}
	case ch == rules.Pass:
		copy(out, r.value(next, l+1, st, t-1, -1))
	default:
		for _, e := range r.d.turn(st, ch, r.capacity) {
			var x []float64
			if e.keep {
				x = r.start(m, e.to, t-1)
				out[m] += e.p * float64(e.gain)
			} else {
				x = r.start(next, e.to, t-1)
			}
			for s := range out {
				out[s] += e.p * x[s]
			}
		}
	}
	if first < 0 {
		r.memo[key] = out
	}
	return out
}

// husSeatsLimitPos is a count state, the seat to move, the streak and the turns left.
type husSeatsLimitPos struct {
	st      rules.State
	seat, l int
	t       int
}

// husSeatsLimitCardLevel averages, over every deal and every placement of the remembered cards a
// count state describes, every seat's pairs (by seat) in each position of seats 0 .. movers-1 to
// move with 1 .. limit turns left, and each legal choice's made once by the mover.
func husSeatsLimitCardLevel(pairs, singles, capacity, p, movers, levels, limit int, pass rules.PassRule,
	choose func(m, l int, st rules.State, t int) rules.Choice) (map[husSeatsLimitPos][]float64, map[husSeatsLimitPos]map[rules.Choice][]float64) {
	sum := map[husSeatsLimitPos][]float64{}
	csum := map[husSeatsLimitPos]map[rules.Choice][]float64{}
	cnt := map[husSeatsLimitPos]float64{}
	add := func(dst, x []float64) []float64 {
		if dst == nil {
			dst = make([]float64, p)
		}
		for s := range dst {
			dst[s] += x[s]
		}
		return dst
	}
	for _, d := range husDeals(pairs, singles) {
		r := &husSeatsLimitRef{d: &d, p: p, singles: singles, capacity: capacity, choose: choose, memo: map[husSeatsLimitKey][]float64{}}
		for present := uint32(1); present < 1<<d.pairs; present++ {
			for mem := uint32(0); mem < 1<<d.cards; mem++ {
				st := husCardState{present, mem}
				ok := bitsOf(mem) <= capacity && d.fullPair(st) < 0
				for pos := range d.cards {
					if mem&(1<<pos) != 0 && !d.onTable(st, pos) {
						ok = false
					}
				}
				if !ok {
					continue
				}
				cs := d.counts(st, singles)
				for m := range movers {
					for l := range levels {
						for t := 1; t <= limit; t++ {
							key := husSeatsLimitPos{cs, m, l, t}
							sum[key] = add(sum[key], r.value(m, l, st, t, -1))
							cnt[key]++
							if csum[key] == nil {
								csum[key] = map[rules.Choice][]float64{}
							}
							for _, ch := range rules.Choices() {
								if rules.Legal(cs, ch, pass) {
									csum[key][ch] = add(csum[key][ch], r.value(m, l, st, t, int(ch)))
								}
							}
						}
					}
				}
			}
		}
	}
	for key, v := range sum {
		for s := range v {
			v[s] /= cnt[key]
		}
		for _, w := range csum[key] {
			for s := range w {
				w[s] /= cnt[key]
			}
		}
	}
	return sum, csum
}

// husSeatsLimitCase is a case of singletons under a handover-uniform memory at three or more
// seats under a turn limit: the deal, the capacity, the seats, the limit, the pass rule and the
// seats' policies (every seat optimal: every seat for itself), and whether the short form plays it.
type husSeatsLimitCase struct {
	pairs, singles, capacity, players, limit int
	pass                                     rules.PassRule
	seats                                    []rules.Policy
	short                                    bool
}

func (c husSeatsLimitCase) name() string {
	return fmt.Sprintf("%d+%ds/m%d/p%d/T%d/%s/%v", c.pairs, c.singles, c.capacity, c.players, c.limit, c.pass, c.seats)
}

func (c husSeatsLimitCase) model() Model {
	m := husModel(c.singles, c.capacity)
	m.Pass, m.Variant.TurnLimit = c.pass, c.limit
	return m
}

func (c husSeatsLimitCase) lineup() Lineup {
	if isSelfishSeats(c.seats) {
		return Lineup{Players: c.players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	}
	return SeatLineup(c.seats...)
}

// TestHandoverSingletonsSeatsLimitMatchCardPlay compares, at three and four seats under a turn
// limit, the solver's vectors (every seat to move, every pass streak, every number of turns left)
// and each choice's with the card-level reference playing the solver's choices, and checks card by
// card that no mover of the optimum of every seat for itself (or the best-response seat) gains by
// another choice made once.
func TestHandoverSingletonsSeatsLimitMatchCardPlay(t *testing.T) {
	type tc = husSeatsLimitCase
	opt3 := []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}
	opt4 := []rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal}
	cases := []tc{
		{2, 1, 2, 3, 2, rules.PassNever, opt3, true},
		{2, 1, 2, 3, 4, rules.PassNever, opt3, false},
		{2, 1, 2, 3, 5, rules.PassAlways, opt3, false},
		{2, 2, 3, 3, 6, rules.PassNever, opt3, false},
		{2, 2, 2, 3, 5, rules.PassTwoKnown, opt3, false},
		{3, 1, 3, 3, 4, rules.PassNever, opt3, false},
		{2, 1, 2, 4, 6, rules.PassAlways, opt4, false},
		{2, 1, 2, 3, 4, rules.PassNever, []rules.Policy{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyDaring}, false},
		{2, 2, 3, 3, 4, rules.PassAlways, []rules.Policy{rules.PolicyBestResponse, rules.PolicyDaring, rules.PolicyOptimal}, false},
		{2, 1, 2, 3, 5, rules.PassTwoKnown, []rules.Policy{rules.PolicyParity, rules.PolicyBestResponse, rules.PolicySafe}, false},
		{2, 1, 2, 4, 5, rules.PassAlways, []rules.Policy{rules.PolicySafe, rules.PolicyOptimal, rules.PolicyDaring, rules.PolicyBestResponse}, false},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		t.Run(c.name(), func(t *testing.T) {
			ctx := context.Background()
			m, mu := c.model(), c.lineup()
			l, err := prepareHUSSeatsLimit(ctx, field.Float{}, m, mu, c.pairs)
			if err != nil {
				t.Fatal(err)
			}
			l.keep = true
			if err := l.run(ctx); err != nil {
				t.Fatal(err)
			}
			s := l.s
			selfish := isSelfish(mu)
			reply := mu.replySeat()
			choose := func(mv, lv int, st rules.State, u int) rules.Choice {
				x := &l.kept[u-1][s.at[st]]
				switch pol := l.pol[mv]; {
				case selfish || pol == rules.PolicyOptimal:
					return x.selfCh[lv]
				case pol == rules.PolicyBestResponse:
					return x.reply[lv]
				default:
					return pol.Decide(st)
				}
			}
			movers := c.players
			if selfish {
				movers = 1 // every seat plays the same: seat 0 to move stands for all
			}
			vals, choices := husSeatsLimitCardLevel(c.pairs, c.singles, c.capacity, c.players, movers, l.levels, c.limit, c.pass, choose)
			// rot turns a vector by seat into the order from seat mv.
			rot := func(v []float64, mv int) []float64 {
				out := make([]float64, len(v))
				for i := range v {
					out[i] = v[(mv+i)%len(v)]
				}
				return out
			}
			near := func(a, b []float64) bool {
				for i := range a {
					if math.Abs(a[i]-b[i]) > 1e-9 {
						return false
					}
				}
				return true
			}
			for key, want := range vals {
				i := s.at[key.st]
				cell, x := s.cells[i], &l.kept[key.t-1][i]
				if selfish {
					want = rot(want, key.seat)
				}
				var got []float64
				if selfish {
					got = x.self[key.l]
				} else {
					got = x.seats[key.l][key.seat]
				}
				if !near(got, want) {
					t.Errorf("%v seat %d to move, streak %d, t=%d: solver %v, card level %v", key.st, key.seat, key.l, key.t, got, want)
				}
				maximises := selfish || key.seat == reply
				for ch, w := range choices[key] {
					if !cell.legal[ch] {
						t.Errorf("%v: %s legal card by card, not in the solver", key.st, ch)
						continue
					}
					if selfish {
						w = rot(w, key.seat)
						if g := l.selfVector(cell, key.t, key.l, ch); key.t == c.limit && !near(g, w) {
							t.Errorf("%v streak %d, t=%d, %s: solver %v, card level %v", key.st, key.l, key.t, ch, g, w)
						}
					} else if key.t == c.limit {
						if g := l.seatsVector(cell, key.t, key.l, ch, key.seat); !near(g, w) {
							t.Errorf("%v seat %d, streak %d, t=%d, %s: solver %v, card level %v", key.st, key.seat, key.l, key.t, ch, g, w)
						}
					}
					own := key.seat
					if selfish {
						own = 0
					}
					if maximises && w[own] > want[own]+1e-9 {
						t.Errorf("%v seat %d, streak %d, t=%d: %s gives it %.12f card by card, more than %.12f", key.st, key.seat, key.l, key.t, ch, w[own], want[own])
					}
				}
			}
			cells := 0
			for _, cell := range s.cells {
				if cell.st.N > 0 {
					cells++
				}
			}
			if want := cells * movers * l.levels * c.limit; len(vals) != want {
				t.Errorf("%d positions card by card, the solver has %d", len(vals), want)
			}
		})
	}
}

// isSelfishSeats reports whether every seat plays optimal.
func isSelfishSeats(seats []rules.Policy) bool {
	for _, p := range seats {
		if p != rules.PolicyOptimal {
			return false
		}
	}
	return true
}
