package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of singletons under a fluctuating handover-uniform capacity under a
// turn limit: husDeals' deals and turns, a capacity max(2, m + d), d uniform on -σ .. σ, drawn
// before every turn (a pass turn included) and kept by that turn's hand-over, card by card
// uniformly among the remembered cards; the flag of a pass just before; the turns left. Every turn
// uses one, a pass too; a pair both of whose cards are remembered at the start of a turn is taken
// by the mover in a turn of its own, when one is left; a pass just after a pass shares the pairs
// left (lead 0); with no turn left the pairs left count for nobody. Values (the mover's lead and
// the pairs both seats take) follow by recursion on the turns left.

// fsLimitCardKey is a card-level position before the draw: the table, the role to move, the flag
// and the turns left.
type fsLimitCardKey struct {
	ps   husPassState
	role int
	t    int
}

// fsLimitCardRef is one deal's reference for a lineup whose role r chooses choose(r, counts, c,
// after, t) with capacity c drawn.
type fsLimitCardRef struct {
	d       *husDeal
	singles int
	caps    []int
	pass    rules.PassRule
	choose  func(r int, st rules.State, c int, after bool, t int) rules.Choice
	memo    map[fsLimitCardKey][2]float64
}

// start returns role r's values from a table that may hold a pair known whole, taken first in a
// turn of its own if one is left.
func (x *fsLimitCardRef) start(r int, st husCardState, t int) [2]float64 {
	if t == 0 {
		return [2]float64{}
	}
	if f := x.d.fullPair(st); f >= 0 {
		y := x.value(r, husPassState{st: x.d.take(st, f)}, t-1)
		return [2]float64{1 + y[0], 1 + y[1]}
	}
	return x.value(r, husPassState{st: st}, t)
}

// value returns role r's values before the draw in ps with t turns left.
func (x *fsLimitCardRef) value(r int, ps husPassState, t int) [2]float64 {
	if t == 0 || ps.st.present == 0 {
		return [2]float64{}
	}
	key := fsLimitCardKey{ps, r, t}
	if v, ok := x.memo[key]; ok {
		return v
	}
	var v [2]float64
	pc := 1 / float64(len(x.caps))
	for _, c := range x.caps {
		y := x.choice(r, ps, t, x.choose(r, x.d.counts(ps.st, x.singles), c, ps.after, t), c)
		v[0] += pc * y[0]
		v[1] += pc * y[1]
	}
	x.memo[key] = v
	return v
}

// choice returns role r's values making ch in ps with capacity c drawn and t turns left.
func (x *fsLimitCardRef) choice(r int, ps husPassState, t int, ch rules.Choice, c int) [2]float64 {
	var v [2]float64
	if ch == rules.Pass {
		if !husPassLegal(ps.st, x.pass) {
			panic(fmt.Sprintf("a pass where it is not legal: %v", ps.st))
		}
		switch {
		case ps.after:
			return [2]float64{0, float64(bitsOf(ps.st.present))}
		case t == 1:
			return v
		}
		var forget func(p float64, mem uint32)
		forget = func(p float64, mem uint32) {
			if bitsOf(mem) <= c {
				st := husCardState{present: ps.st.present, mem: mem}
				y := x.value(1-r, husPassState{st: st, after: husPassLegal(st, x.pass)}, t-1)
				v[0] -= p * y[0]
				v[1] += p * y[1]
				return
			}
			k := float64(bitsOf(mem))
			for pos := range x.d.cards {
				if mem&(1<<pos) != 0 {
					forget(p/k, mem&^(1<<pos))
				}
			}
		}
		forget(1, ps.st.mem)
		return v
	}
	for _, e := range x.d.turn(ps.st, ch, c) {
		if e.keep {
			y := x.start(r, e.to, t-1)
			v[0] += e.p * (float64(e.gain) + y[0])
			v[1] += e.p * (float64(e.gain) + y[1])
			continue
		}
		y := x.start(1-r, e.to, t-1)
		v[0] -= e.p * y[0]
		v[1] += e.p * y[1]
	}
	return v
}

// fsLimitCardPos is a count state with the flag, the capacity drawn (0: before the draw) and the
// turns left.
type fsLimitCardPos struct {
	st    rules.State
	after bool
	c, t  int
}

// fsLimitCardLevel returns seat 0's card-level values before the draw in every count state, just
// after a pass or not, with every number of turns left up to limit, and each legal choice's after
// every capacity drawn, averaged over every deal and placement of the remembered cards the count
// state describes.
func fsLimitCardLevel(pairs, singles, capacity, sigma, limit int, pass rules.PassRule, choose func(r int, st rules.State, c int, after bool, t int) rules.Choice) (map[fsLimitCardPos][2]float64, map[fsLimitCardPos]map[rules.Choice][2]float64) {
	var caps []int
	for d := -sigma; d <= sigma; d++ {
		caps = append(caps, max(2, capacity+d))
	}
	sum := map[fsLimitCardPos][2]float64{}
	cnt := map[fsLimitCardPos]float64{}
	csum := map[fsLimitCardPos]map[rules.Choice][2]float64{}
	for _, d := range husDeals(pairs, singles) {
		x := &fsLimitCardRef{d: &d, singles: singles, caps: caps, pass: pass, choose: choose, memo: map[fsLimitCardKey][2]float64{}}
		for present := uint32(1); present < 1<<d.pairs; present++ {
			for mem := uint32(0); mem < 1<<d.cards; mem++ {
				st := husCardState{present, mem}
				ok := bitsOf(mem) <= capacity+sigma && d.fullPair(st) < 0
				for pos := range d.cards {
					if mem&(1<<pos) != 0 && !d.onTable(st, pos) {
						ok = false
					}
				}
				if !ok {
					continue
				}
				cs := d.counts(st, singles)
				for _, after := range []bool{false, true} {
					if after && !husPassLegal(st, pass) {
						continue
					}
					ps := husPassState{st: st, after: after}
					for t := 1; t <= limit; t++ {
						key := fsLimitCardPos{cs, after, 0, t}
						v, w := sum[key], x.value(0, ps, t)
						sum[key] = [2]float64{v[0] + w[0], v[1] + w[1]}
						cnt[key]++
						for _, c := range caps {
							ck := fsLimitCardPos{cs, after, c, t}
							if csum[ck] == nil {
								csum[ck] = map[rules.Choice][2]float64{}
							}
							cnt[ck]++
							for _, ch := range rules.Choices() {
								legal := bitsOf(mem) >= 1 || ch == rules.Daring
								if ch == rules.Pass {
									legal = husPassLegal(st, pass)
								}
								if legal {
									y, w := csum[ck][ch], x.choice(0, ps, t, ch, c)
									csum[ck][ch] = [2]float64{y[0] + w[0], y[1] + w[1]}
								}
							}
						}
					}
				}
			}
		}
	}
	for key, v := range sum {
		sum[key] = [2]float64{v[0] / cnt[key], v[1] / cnt[key]}
	}
	for key, byChoice := range csum {
		for ch, v := range byChoice {
			byChoice[ch] = [2]float64{v[0] / cnt[key], v[1] / cnt[key]}
		}
	}
	return sum, csum
}

// TestFluctSingletonsLimitMatchCardPlay compares the turn-limited solver's values before the draw
// in every count state (just after a pass or not) with every number of turns left, and each
// choice's after every capacity drawn, with the card-level reference's, under each pass rule: the
// fixed policies, the optimum and best replies, the latter playing the solver's own choices by
// capacity drawn and turns left card by card and gaining nothing by another choice.
func TestFluctSingletonsLimitMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity, sigma, limit int
		pass                                   rules.PassRule
		short                                  bool
		lineups                                int // the first lineups played
	}
	cases := []tc{{1, 1, 2, 1, 3, rules.PassNever, true, 1}, {2, 1, 2, 1, 3, rules.PassNever, false, 1},
		{2, 1, 3, 1, 6, rules.PassAlways, false, 4}, {2, 1, 2, 1, 7, rules.PassTwoKnown, false, 4},
		{2, 2, 3, 2, 5, rules.PassNever, false, 2}, {3, 1, 3, 1, 3, rules.PassTwoKnown, false, 1}}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicySafe},
		{rules.PolicyParity, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicyOptimal},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		for _, pol := range lineups[:c.lineups] {
			name := fmt.Sprintf("%d+%ds/m%d±%d/T%d/%s/%s-%s", c.pairs, c.singles, c.capacity, c.sigma, c.limit, c.pass, pol[0], pol[1])
			t.Run(name, func(t *testing.T) {
				m := fluctSinglesModel(c.singles, c.capacity, c.sigma)
				m.Pass, m.Variant.TurnLimit = c.pass, c.limit
				mu := Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
				l, err := newFSLimit(context.Background(), field.Float{}, m, mu, c.pairs)
				if err != nil {
					t.Fatal(err)
				}
				s := l.s
				cellOf := func(st rules.State, cp int, after bool) int {
					_, flagged := s.drawsPass[st]
					i, ok := s.at[fsKey{st: st, c: min(cp, fsTop(m, st.N)), after: after && flagged}]
					if !ok {
						t.Fatalf("%v with capacity %d after a pass %v: no cell", st, cp, after)
					}
					return i
				}
				choose := func(r int, st rules.State, cp int, after bool, u int) rules.Choice {
					return l.layers[u][cellOf(st, cp, after)].ch[r]
				}
				vals, choices := fsLimitCardLevel(c.pairs, c.singles, c.capacity, c.sigma, c.limit, c.pass, choose)
				for key, want := range vals {
					draws := s.draws[key.st]
					if ds, ok := s.drawsPass[key.st]; ok && key.after {
						draws = ds
					}
					var got [2]float64
					for _, d := range draws {
						x := &l.layers[key.t][d.to]
						got[0] += d.p * x.lead[0]
						got[1] += d.p * x.total[0]
					}
					if !near3([3]float64{got[0], got[1]}, [3]float64{want[0], want[1]}) {
						t.Errorf("%v after pass %v, t=%d: solver %v, card level %v", key.st, key.after, key.t, got, want)
					}
				}
				for key, byChoice := range choices {
					i := cellOf(key.st, key.c, key.after)
					cell := s.cells[i]
					own := byChoice[l.layers[key.t][i].ch[0]]
					for ch, w := range byChoice {
						if !cell.legal[ch] {
							t.Errorf("%v c=%d: %s legal card by card, not in the solver", key.st, key.c, ch)
							continue
						}
						var g [2]float64
						g[0], g[1] = l.choice(cell, key.t, ch, l.readRoles, 0)
						if !near3([3]float64{g[0], g[1]}, [3]float64{w[0], w[1]}) {
							t.Errorf("%v c=%d after pass %v, t=%d, %s: solver %v, card level %v", key.st, key.c, key.after, key.t, ch, g, w)
						}
						if (pol[0] == rules.PolicyOptimal || pol[0] == rules.PolicyBestResponse) && w[0] > own[0]+1e-9 {
							t.Errorf("%v c=%d after pass %v, t=%d: %s is worth lead %.12f card by card, more than %s's %.12f", key.st, key.c, key.after, key.t, ch, w[0], pol[0], own[0])
						}
					}
				}
				states := 0
				for st := range s.draws {
					if st.N > 0 {
						states++
					}
				}
				for st := range s.drawsPass {
					if st.N > 0 {
						states++
					}
				}
				if want := states * c.limit; len(vals) != want {
					t.Errorf("%d positions card by card, the solver has %d", len(vals), want)
				}
			})
		}
	}
}
