package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of singletons under a fluctuating handover-uniform capacity under the
// pass rules two-known and always: fsCardLevel's deals, turns and draws, with a flag at the start
// of a turn saying that the other seat has just passed. A pass shows no card; its hand-over
// forgets the memory's excess over the capacity drawn for the pass turn, card by card uniformly
// among the remembered cards, and the other seat moves just after a pass; a pass just after a
// pass ends the game, the pairs left shared (lead 0). Whether the mover may pass is read off the
// remembered positions (two-known: at least two), not the count state.

// fsPassCardValues is one deal's leads before the draw for each role to move, just after a pass
// or not.
type fsPassCardValues struct {
	d    *husDeal
	pass rules.PassRule
	v    [2]map[husPassState]float64
}

// flagged returns the state the other seat moves in after a pass leaves st: with the flag where it
// may pass there, without it where it may not (the flag then changes nothing).
func (pv *fsPassCardValues) flagged(st husCardState) husPassState {
	return husPassState{st: st, after: husPassLegal(st, pv.pass)}
}

// start returns role r's lead from a state that may hold a pair known whole (taken first, which
// clears the flag).
func (pv *fsPassCardValues) start(r int, st husCardState) float64 {
	if f := pv.d.fullPair(st); f >= 0 {
		return 1 + pv.v[r][husPassState{st: pv.d.take(st, f)}]
	}
	return pv.v[r][husPassState{st: st}]
}

// choiceValue returns role r's lead making ch in ps with capacity c drawn, the lineup's choices
// afterwards.
func (pv *fsPassCardValues) choiceValue(r int, ps husPassState, ch rules.Choice, c int) float64 {
	if ch == rules.Pass {
		if ps.after {
			return 0
		}
		// The hand-over forgets down to c, card by card uniformly among the remembered cards.
		var forget func(p float64, mem uint32) float64
		forget = func(p float64, mem uint32) float64 {
			if bitsOf(mem) <= c {
				return -p * pv.v[1-r][pv.flagged(husCardState{present: ps.st.present, mem: mem})]
			}
			x, k := 0.0, float64(bitsOf(mem))
			for pos := range pv.d.cards {
				if mem&(1<<pos) != 0 {
					x += forget(p/k, mem&^(1<<pos))
				}
			}
			return x
		}
		return forget(1, ps.st.mem)
	}
	x := 0.0
	for _, e := range pv.d.turn(ps.st, ch, c) {
		if e.keep {
			x += e.p * (float64(e.gain) + pv.start(r, e.to))
			continue
		}
		x -= e.p * pv.start(1-r, e.to)
	}
	return x
}

// fsPassKey is a count state after the draw of capacity c, with the flag.
type fsPassKey struct {
	st    rules.State
	c     int
	after bool
}

// fsPassCardLevel returns seat 0's role's card-level lead before the draw in every count state,
// just after a pass or not, and each legal choice's lead after every capacity drawn, averaged over
// every deal and placement of the remembered cards the count state describes. choose(r, st, c,
// after) is role r's choice.
func fsPassCardLevel(pairs, singles, capacity, sigma int, pass rules.PassRule, choose func(r int, st rules.State, c int, after bool) rules.Choice) (map[husPassKey]float64, map[fsPassKey]map[rules.Choice]float64) {
	var caps []int
	for d := -sigma; d <= sigma; d++ {
		caps = append(caps, max(2, capacity+d))
	}
	pc := 1 / float64(len(caps))
	maxK := capacity + sigma
	sum := map[husPassKey]float64{}
	cnt := map[husPassKey]float64{}
	csum := map[fsPassKey]map[rules.Choice]float64{}
	for _, d := range husDeals(pairs, singles) {
		pv := &fsPassCardValues{d: &d, pass: pass}
		var states []husPassState
		for present := uint32(0); present < 1<<d.pairs; present++ {
			for mem := uint32(0); mem < 1<<d.cards; mem++ {
				st := husCardState{present, mem}
				ok := bitsOf(mem) <= maxK && d.fullPair(st) < 0
				for pos := range d.cards {
					if mem&(1<<pos) != 0 && !d.onTable(st, pos) {
						ok = false
					}
				}
				if !ok {
					continue
				}
				states = append(states, husPassState{st: st})
				if present != 0 && husPassLegal(st, pass) {
					states = append(states, husPassState{st: st, after: true})
				}
			}
		}
		for r := range 2 {
			pv.v[r] = map[husPassState]float64{}
			for _, ps := range states {
				pv.v[r][ps] = 0
			}
		}
		for sweep := 0; ; sweep++ {
			delta := 0.0
			for r := range 2 {
				for _, ps := range states {
					if ps.st.present == 0 {
						continue
					}
					cs := d.counts(ps.st, singles)
					x := 0.0
					for _, c := range caps {
						x += pc * pv.choiceValue(r, ps, choose(r, cs, c, ps.after), c)
					}
					delta = math.Max(delta, math.Abs(x-pv.v[r][ps]))
					pv.v[r][ps] = x
				}
			}
			if delta < 1e-14 || sweep > 100000 {
				break
			}
		}
		for _, ps := range states {
			cs := d.counts(ps.st, singles)
			key := husPassKey{cs, ps.after}
			sum[key] += pv.v[0][ps]
			cnt[key]++
			if cs.N == 0 {
				continue
			}
			for _, c := range caps {
				k := fsPassKey{cs, c, ps.after}
				if csum[k] == nil {
					csum[k] = map[rules.Choice]float64{}
				}
				for _, ch := range rules.Choices() {
					legal := ch == rules.Daring || ch != rules.Pass && bitsOf(ps.st.mem) >= 1
					if ch == rules.Pass {
						legal = husPassLegal(ps.st, pass)
					}
					if legal {
						csum[k][ch] += pc * pv.choiceValue(0, ps, ch, c) // weighed by the draws of c
					}
				}
			}
		}
	}
	for key := range sum {
		sum[key] /= cnt[key]
	}
	for k := range csum {
		times := 0
		for _, c := range caps {
			if c == k.c {
				times++
			}
		}
		for ch := range csum[k] {
			csum[k][ch] /= cnt[husPassKey{k.st, k.after}] * pc * float64(times)
		}
	}
	return sum, csum
}

// TestFluctSingletonsPassMatchCardPlay compares the solver's leads before the draw in every count
// state, just after a pass or not, and each choice's lead after every capacity drawn, with the
// card-level reference's under the pass rules two-known and always, for fixed policies, the
// optimum and best replies (playing the solver's own choices card by card, read at the capacity
// drawn and the flag); the optimum and a best reply gain nothing by another choice card by card.
func TestFluctSingletonsPassMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity, sigma int
		pass                            rules.PassRule
		short                           bool // in the short form
		lineups                         int  // the first lineups played
	}
	cases := []tc{{2, 1, 2, 1, rules.PassAlways, true, 2}, {2, 1, 2, 1, rules.PassTwoKnown, false, 4},
		{2, 1, 2, 1, rules.PassAlways, false, 4}, {2, 1, 3, 2, rules.PassTwoKnown, false, 1}}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicySafe},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyBestResponse, rules.PolicyOptimal},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if !c.short && testing.Short() {
			continue
		}
		for _, pol := range lineups[:c.lineups] {
			name := fmt.Sprintf("%d+%ds/m%d±%d/%s/%s-%s", c.pairs, c.singles, c.capacity, c.sigma, c.pass, pol[0], pol[1])
			if seen[name] {
				continue
			}
			seen[name] = true
			t.Run(name, func(t *testing.T) {
				m := fluctSinglesModel(c.singles, c.capacity, c.sigma)
				m.Pass = c.pass
				mu := Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
				s, err := newFSSolver(context.Background(), field.Float{}, m, mu, c.pairs)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.solve(); err != nil {
					t.Fatal(err)
				}
				cellAt := func(st rules.State, c int, after bool) *fsCell[float64] {
					key := fsKey{st: st, c: min(c, fsTop(m, st.N)), after: after}
					if _, ok := s.drawsPass[st]; !ok {
						key.after = false
					}
					i, ok := s.at[key]
					if !ok {
						t.Fatalf("%v with capacity %d after pass %v: no cell", st, c, after)
					}
					return s.cells[i]
				}
				choose := func(r int, st rules.State, c int, after bool) rules.Choice { return cellAt(st, c, after).ch[r] }
				lead, choice := fsPassCardLevel(c.pairs, c.singles, c.capacity, c.sigma, c.pass, choose)
				for key, want := range lead {
					if _, ok := s.drawsPass[key.st]; key.after && key.st.N > 0 && !ok {
						t.Fatalf("%v: a pass is legal card by card, not in the solver", key.st)
					}
					got := s.before(key.st, 0, false)
					if key.after {
						got = s.beforePass(key.st, 0, false)
					}
					if math.Abs(got-want) > 1e-9 {
						t.Errorf("%v after pass %v: solver lead %.12f, card level %.12f", key.st, key.after, got, want)
					}
				}
				if want := len(s.draws) + len(s.drawsPass); len(lead) != want {
					t.Errorf("%d count states card by card, %d in the solver", len(lead), want)
				}
				for k, byChoice := range choice {
					cell := cellAt(k.st, k.c, k.after)
					for ch, w := range byChoice {
						if !cell.legal[ch] {
							t.Errorf("%v c=%d after pass %v: %s legal card by card, not in the solver", k.st, k.c, k.after, ch)
							continue
						}
						if got := s.choiceValue(cell, 0, 2, ch, false); math.Abs(got-w) > 1e-9 {
							t.Errorf("%v c=%d after pass %v %s: solver lead %.12f, card level %.12f", k.st, k.c, k.after, ch, got, w)
						}
						if pol[0] == rules.PolicyOptimal || pol[0] == rules.PolicyBestResponse {
							if own := byChoice[cell.ch[0]]; w > own+1e-9 {
								t.Errorf("%v c=%d after pass %v: %s is worth %.12f card by card, more than %s's choice %s's %.12f", k.st, k.c, k.after, ch, w, pol[0], cell.ch[0], own)
							}
						}
					}
				}
			})
		}
	}
}
