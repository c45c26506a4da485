package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of singletons under a shared handover-uniform memory under a turn
// limit: the deals and turns of husingles_cardlevel_test.go (every deal, each unknown card flipped
// uniformly, the hand-over's forgetting drawn card by card), the flag of a pass just before
// (husingles_pass_cardlevel_test.go) and the turns left. Every turn uses one, a pass too; a pair
// both of whose cards are remembered at the start of a turn is taken by the mover in a turn of its
// own, when one is left; a pass just after a pass shares the pairs left (lead 0); with no turn left
// the pairs left count for nobody. Values are found by recursion on the turns left.

// husLimitKey is a card-level position: the table, the role to move, the flag and the turns left.
type husLimitKey struct {
	st    husCardState
	role  int
	after bool
	t     int
}

// husLimitRef is one deal's reference for a lineup whose role r chooses choose(r, counts, after,
// t), or in solitaire (solo) one player's.
type husLimitRef struct {
	d                 *husDeal
	singles, capacity int
	pass              rules.PassRule
	choose            func(r int, st rules.State, after bool, t int) rules.Choice
	memo              map[husLimitKey][3]float64
}

// start returns the values from a table that may hold a pair known whole: its taker moves in a turn
// of its own if one is left. Two seats: the mover's lead and the pairs both take; solitaire: the
// pairs, the turns and the lucky matches.
func (r *husLimitRef) start(role int, st husCardState, t int, solo bool) [3]float64 {
	if t == 0 {
		return [3]float64{}
	}
	if f := r.d.fullPair(st); f >= 0 {
		y := r.value(role, r.d.take(st, f), false, t-1, -1, solo)
		if solo {
			return [3]float64{1 + y[0], 1 + y[1], y[2]}
		}
		return [3]float64{1 + y[0], 1 + y[1]}
	}
	return r.value(role, st, false, t, -1, solo)
}

// value returns the values in a position with t turns left; with first >= 0 the mover makes that
// choice now.
func (r *husLimitRef) value(role int, st husCardState, after bool, t, first int, solo bool) [3]float64 {
	if t == 0 || st.present == 0 {
		return [3]float64{}
	}
	key := husLimitKey{st, role, after, t}
	if x, ok := r.memo[key]; ok && first < 0 {
		return x
	}
	ch := rules.Choice(first)
	if first < 0 {
		ch = r.choose(role, r.d.counts(st, r.singles), after, t)
	}
	var x [3]float64
	if ch == rules.Pass {
		if !husPassLegal(st, r.pass) {
			panic(fmt.Sprintf("a pass where it is not legal: %v", st))
		}
		if after {
			x[1] = float64(bitsOf(st.present))
		} else {
			y := r.value(1-role, st, true, t-1, -1, solo)
			x = [3]float64{-y[0], y[1]}
		}
	} else {
		for _, e := range r.d.turn(st, ch, r.capacity) {
			if solo {
				y := r.start(role, e.to, t-1, true)
				lucky := 0.0
				if e.keep && r.d.mem(st, e.to) {
					lucky = 1
				}
				x[0] += e.p * (float64(e.gain) + y[0])
				x[1] += e.p * (1 + y[1])
				x[2] += e.p * (lucky + y[2])
				continue
			}
			if e.keep {
				y := r.start(role, e.to, t-1, false)
				x[0] += e.p * (1 + y[0])
				x[1] += e.p * (1 + y[1])
				continue
			}
			y := r.start(1-role, e.to, t-1, false)
			x[0] -= e.p * y[0]
			x[1] += e.p * y[1]
		}
	}
	if first < 0 {
		r.memo[key] = x
	}
	return x
}

// mem reports whether the pair taken between st and to was a lucky match: neither of its cards
// remembered when the turn began.
func (d *husDeal) mem(st, to husCardState) bool {
	f := 0
	for ; f < d.pairs; f++ {
		if st.present&(1<<f) != 0 && to.present&(1<<f) == 0 {
			break
		}
	}
	for pos := range d.cards {
		if d.face[pos] == f && st.mem&(1<<pos) != 0 {
			return false
		}
	}
	return true
}

// husLimitCardLevel returns, for every count state (just after a pass or not) and every number of
// turns left from 1 to limit, seat 0's card-level values and each legal choice's (the lineup's
// choices afterwards), averaged over every deal and every placement of the remembered cards the
// count state describes.
func husLimitCardLevel(pairs, singles, capacity, limit int, pass rules.PassRule, solo bool,
	choose func(r int, st rules.State, after bool, t int) rules.Choice) (map[husLimitKey2][3]float64, map[husLimitKey2]map[rules.Choice][3]float64) {
	sum := map[husLimitKey2][3]float64{}
	cnt := map[husLimitKey2]float64{}
	csum := map[husLimitKey2]map[rules.Choice][3]float64{}
	add := func(a *[3]float64, b [3]float64) {
		for i := range a {
			a[i] += b[i]
		}
	}
	for _, d := range husDeals(pairs, singles) {
		r := &husLimitRef{d: &d, singles: singles, capacity: capacity, pass: pass, choose: choose, memo: map[husLimitKey][3]float64{}}
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
				for _, after := range []bool{false, true} {
					if after && !husPassLegal(st, pass) {
						continue
					}
					for t := 1; t <= limit; t++ {
						key := husLimitKey2{d.counts(st, singles), after, t}
						x := sum[key]
						add(&x, r.value(0, st, after, t, -1, solo))
						sum[key] = x
						cnt[key]++
						if csum[key] == nil {
							csum[key] = map[rules.Choice][3]float64{}
						}
						for _, ch := range rules.Choices() {
							legal := bitsOf(mem) >= 1 || ch == rules.Daring
							if ch == rules.Pass {
								legal = husPassLegal(st, pass)
							}
							if legal {
								y := csum[key][ch]
								add(&y, r.value(0, st, after, t, int(ch), solo))
								csum[key][ch] = y
							}
						}
					}
				}
			}
		}
	}
	for key := range sum {
		x := sum[key]
		for i := range x {
			x[i] /= cnt[key]
		}
		sum[key] = x
		for ch, y := range csum[key] {
			for i := range y {
				y[i] /= cnt[key]
			}
			csum[key][ch] = y
		}
	}
	return sum, csum
}

// husLimitKey2 is a count state, the flag and the turns left.
type husLimitKey2 struct {
	st    rules.State
	after bool
	t     int
}

// TestHandoverSingletonsLimitMatchCardPlay compares the turn-limited solver's values (and each
// choice's) in every count state, just after a pass or not, with every number of turns left, with
// the card-level reference's: two seats under each pass rule (fixed policies, the optimum and best
// replies, the latter playing the solver's own choices by turns left card by card and gaining
// nothing by another choice), and solitaire (pairs, turns and lucky matches; optimal takes no
// fewer pairs by another choice, nor, among those that take as many, fewer turns).
func TestHandoverSingletonsLimitMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity, limit int
		pass                            rules.PassRule
		players                         int
		short                           bool
		lineups                         int // the first lineups played
	}
	cases := []tc{{2, 1, 2, 5, rules.PassNever, 2, true, 2}, {2, 1, 2, 4, rules.PassAlways, 2, true, 1}, {2, 1, 2, 6, rules.PassNever, 1, true, 1},
		{2, 1, 2, 7, rules.PassTwoKnown, 2, false, 4}, {2, 2, 3, 6, rules.PassAlways, 2, false, 4}, {2, 2, 3, 6, rules.PassNever, 2, false, 4},
		{3, 1, 2, 5, rules.PassNever, 2, false, 2}, {3, 1, 3, 4, rules.PassTwoKnown, 2, false, 1},
		{2, 2, 3, 8, rules.PassNever, 1, false, 3}, {3, 1, 2, 6, rules.PassNever, 1, false, 3}}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicySafe},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicyOptimal},
	}
	soloLineups := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyParity}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		for i := range c.lineups {
			pol := lineups[i]
			if c.players == 1 {
				pol = [2]rules.Policy{soloLineups[i], soloLineups[i]}
			}
			name := fmt.Sprintf("%d+%ds/m%d/T%d/%s/p%d/%s-%s", c.pairs, c.singles, c.capacity, c.limit, c.pass, c.players, pol[0], pol[1])
			t.Run(name, func(t *testing.T) {
				m := husModel(c.singles, c.capacity)
				m.Pass, m.Variant.TurnLimit = c.pass, c.limit
				mu := Lineup{Players: c.players, Policy: pol[0], Opponent: pol[1]}
				l, err := newHUSLimit(context.Background(), field.Float{}, m, mu, c.pairs)
				if err != nil {
					t.Fatal(err)
				}
				s := l.s
				cellOf := func(st rules.State, after bool) int {
					if after {
						i, ok := s.atPass[st]
						if !ok {
							t.Fatalf("%v: a pass is legal card by card, not in the solver", st)
						}
						return i
					}
					return s.at[st]
				}
				choose := func(r int, st rules.State, after bool, u int) rules.Choice {
					return l.layers[u][cellOf(st, after)].ch[r]
				}
				vals, choices := husLimitCardLevel(c.pairs, c.singles, c.capacity, c.limit, c.pass, c.players == 1, choose)
				read := func(j, u, r int) (float64, float64) {
					y := &l.layers[u][j]
					return y.lead[r], y.total[r]
				}
				for key, want := range vals {
					i := cellOf(key.st, key.after)
					cell, x := s.cells[i], &l.layers[key.t][i]
					got := [3]float64{x.lead[0], x.total[0]}
					if c.players == 1 {
						got = x.solo
					}
					if !near3(got, want) {
						t.Errorf("%v after pass %v, t=%d: solver %v, card level %v", key.st, key.after, key.t, got, want)
					}
					for ch, w := range choices[key] {
						if !cell.legal[ch] {
							t.Errorf("%v: %s legal card by card, not in the solver", key.st, ch)
							continue
						}
						var g [3]float64
						if c.players == 1 {
							g = l.soloChoice(cell, key.t, ch)
						} else {
							g[0], g[1] = l.choice(cell, key.t, ch, read, 0)
						}
						if !near3(g, w) {
							t.Errorf("%v after pass %v, t=%d, %s: solver %v, card level %v", key.st, key.after, key.t, ch, g, w)
						}
						switch {
						case c.players == 2 && (pol[0] == rules.PolicyOptimal || pol[0] == rules.PolicyBestResponse) && w[0] > want[0]+1e-9:
							t.Errorf("%v after pass %v, t=%d: %s is worth lead %.12f card by card, more than %s's %.12f", key.st, key.after, key.t, ch, w[0], pol[0], want[0])
						case c.players == 1 && pol[0] == rules.PolicyOptimal && (w[0] > want[0]+1e-9 || (w[0] > want[0]-1e-9 && w[1] < want[1]-1e-9)):
							t.Errorf("t=%d %v: %s takes %v card by card, better than optimal's %v", key.t, key.st, ch, w, want)
						}
					}
				}
				cells := 0
				for _, cell := range s.cells {
					if cell.st.N > 0 {
						cells++
					}
				}
				if want := cells * c.limit; len(vals) != want {
					t.Errorf("%d positions card by card, the solver has %d", len(vals), want)
				}
			})
		}
	}
}

func near3(a, b [3]float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9 {
			return false
		}
	}
	return true
}
