package exact

import (
	"context"
	"fmt"
	"math"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The card-level reference of singletons under a shared handover-uniform memory: every deal of n
// pairs and s singletons (up to relabelling the faces), positions on the table, the remembered
// positions, each unknown card flipped uniformly among the positions the memory does not hold,
// and the hand-over's forgetting drawn card by card among the cards remembered before the turn,
// as docs/models.md §2.2 and §5.2 describe the engine's play. It knows nothing of count states
// except to read a policy's choice; a deal's values are found by value iteration over its chain
// of (pairs on the table, remembered positions).

// husDeal is one deal: face[pos] < pairs is a pair's face, above it a singleton's.
type husDeal struct {
	face         []int
	pairs, cards int
	partner      []int // partner[pos]: the other card of pos's pair, or -1
}

// husDeals returns every deal of pairs pairs and singles singletons up to relabelling the faces:
// pair faces appear in increasing order of their first card, singletons likewise.
func husDeals(pairs, singles int) []husDeal {
	cards := 2*pairs + singles
	var out []husDeal
	face := make([]int, cards)
	var rec func(pos, nextPair, nextSingle int, used []int)
	rec = func(pos, nextPair, nextSingle int, used []int) {
		if pos == cards {
			d := husDeal{face: append([]int(nil), face...), pairs: pairs, cards: cards, partner: make([]int, cards)}
			for i := range d.partner {
				d.partner[i] = -1
				for k := range cards {
					if k != i && face[k] == face[i] && face[i] < pairs {
						d.partner[i] = k
					}
				}
			}
			out = append(out, d)
			return
		}
		for f := 0; f < nextPair; f++ { // the second card of a pair already begun
			if used[f] == 1 {
				face[pos] = f
				used[f]++
				rec(pos+1, nextPair, nextSingle, used)
				used[f]--
			}
		}
		if nextPair < pairs {
			face[pos] = nextPair
			used[nextPair]++
			rec(pos+1, nextPair+1, nextSingle, used)
			used[nextPair]--
		}
		if nextSingle < singles {
			face[pos] = pairs + nextSingle
			rec(pos+1, nextPair, nextSingle+1, used)
		}
	}
	rec(0, 0, 0, make([]int, pairs))
	return out
}

// husCardState is the table at the start of a turn: the pairs present (bit per face) and the
// remembered positions (bit per position).
type husCardState struct{ present, mem uint32 }

// husEdge is one end of a turn: with probability p, gain pairs to the mover and, when keep, the
// mover moves again in to; otherwise the other seat moves in to (after taking a pair known whole,
// counted in the next state's value).
type husEdge struct {
	p    float64
	gain int
	keep bool
	to   husCardState
}

// onTable reports whether pos is on the table in st.
func (d *husDeal) onTable(st husCardState, pos int) bool {
	return d.face[pos] >= d.pairs || st.present&(1<<d.face[pos]) != 0
}

// counts returns the count state the memory sees in st (no pair known whole).
func (d *husDeal) counts(st husCardState, singles int) rules.State {
	n, half, seen := 0, 0, 0
	for f := range d.pairs {
		if st.present&(1<<f) != 0 {
			n++
		}
	}
	for pos := range d.cards {
		if st.mem&(1<<pos) == 0 || !d.onTable(st, pos) {
			continue
		}
		if d.face[pos] >= d.pairs {
			seen++
		} else if st.mem&(1<<d.partner[pos]) == 0 {
			half++
		}
	}
	return rules.State{N: n, J: n - half, S: singles, F: singles - seen}
}

// fullPair returns a pair face both of whose cards are remembered, or -1.
func (d *husDeal) fullPair(st husCardState) int {
	for pos := range d.cards {
		if p := d.partner[pos]; p > pos && st.mem&(1<<pos) != 0 && st.mem&(1<<p) != 0 {
			return d.face[pos]
		}
	}
	return -1
}

func (d *husDeal) take(st husCardState, f int) husCardState {
	st.present &^= 1 << f
	for pos := range d.cards {
		if d.face[pos] == f {
			st.mem &^= 1 << pos
		}
	}
	return st
}

func bitsOf(x uint32) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// turn returns the ends of a turn begun in st (no pair known whole) with choice ch.
func (d *husDeal) turn(st husCardState, ch rules.Choice, capacity int) []husEdge {
	var unk []int
	for pos := range d.cards {
		if d.onTable(st, pos) && st.mem&(1<<pos) == 0 {
			unk = append(unk, pos)
		}
	}
	old := st.mem
	var out []husEdge
	// handOver adds the hand-over after the turn with memory mem, forgetting card by card.
	var handOver func(p float64, mem uint32)
	handOver = func(p float64, mem uint32) {
		if bitsOf(mem) <= capacity {
			out = append(out, husEdge{p: p, to: husCardState{present: st.present, mem: mem}})
			return
		}
		pool := mem & old
		c := float64(bitsOf(pool))
		for pos := range d.cards {
			if pool&(1<<pos) != 0 {
				handOver(p/c, mem&^(1<<pos))
			}
		}
	}
	u := float64(len(unk))
	known := -1 // the card known-first and safe flip: a half-known pair's card first
	for pos := range d.cards {
		if old&(1<<pos) != 0 && d.face[pos] < d.pairs {
			known = pos
			break
		}
	}
	if known < 0 {
		for pos := range d.cards {
			if old&(1<<pos) != 0 {
				known = pos
				break
			}
		}
	}
	if ch == rules.KnownFirst {
		for _, y := range unk {
			if d.partner[y] == known {
				out = append(out, husEdge{p: 1 / u, gain: 1, keep: true, to: d.take(st, d.face[y])})
				continue
			}
			handOver(1/u, old|1<<y)
		}
		return out
	}
	for _, x := range unk {
		if p := d.partner[x]; p >= 0 && old&(1<<p) != 0 {
			out = append(out, husEdge{p: 1 / u, gain: 1, keep: true, to: d.take(st, d.face[x])})
			continue
		}
		if (d.face[x] >= d.pairs || ch == rules.Safe) && old != 0 {
			handOver(1/u, old|1<<x)
			continue
		}
		for _, y := range unk {
			if y == x {
				continue
			}
			p := 1 / (u * (u - 1))
			if d.partner[x] == y {
				out = append(out, husEdge{p: p, gain: 1, keep: true, to: d.take(st, d.face[x])})
				continue
			}
			handOver(p, old|1<<x|1<<y)
		}
	}
	return out
}

// husCardValues solves one deal's chain for the lineup whose role r chooses choose(r, st): the
// mover's expected lead at the start of each turn (after any pair known whole is taken), for each
// role to move.
type husCardValues struct {
	d     *husDeal
	v     [2]map[husCardState]float64
	edges [2]map[husCardState][]husEdge
}

func (d *husDeal) solve(singles, capacity int, choose func(r int, st rules.State) rules.Choice) *husCardValues {
	cv := &husCardValues{d: d}
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
	for r := range 2 {
		cv.v[r] = map[husCardState]float64{}
		cv.edges[r] = map[husCardState][]husEdge{}
		for _, st := range states {
			cv.v[r][st] = 0
			if st.present != 0 {
				cv.edges[r][st] = d.turn(st, choose(r, d.counts(st, singles)), capacity)
			}
		}
	}
	for sweep := 0; ; sweep++ {
		delta := 0.0
		for r := range 2 {
			for _, st := range states {
				if st.present == 0 {
					continue
				}
				x := cv.value(r, cv.edges[r][st])
				delta = math.Max(delta, math.Abs(x-cv.v[r][st]))
				cv.v[r][st] = x
			}
		}
		if delta < 1e-14 || sweep > 100000 {
			return cv
		}
	}
}

// start returns role r's lead from a state that may hold a pair known whole (taken first).
func (cv *husCardValues) start(r int, st husCardState) float64 {
	if f := cv.d.fullPair(st); f >= 0 {
		return 1 + cv.v[r][cv.d.take(st, f)]
	}
	return cv.v[r][st]
}

// value returns role r's lead from the ends of a turn.
func (cv *husCardValues) value(r int, edges []husEdge) float64 {
	x := 0.0
	for _, e := range edges {
		if e.keep {
			x += e.p * (float64(e.gain) + cv.start(r, e.to))
			continue
		}
		x -= e.p * cv.start(1-r, e.to)
	}
	return x
}

// husCardLevel returns, for every count state of at most pairs pairs, the card-level lead of
// seat 0's role (and of each legal choice of its first turn, the lineup's choices after it),
// averaged over every deal and every placement of the remembered cards that the count state
// describes.
func husCardLevel(pairs, singles, capacity int, choose func(r int, st rules.State) rules.Choice) (map[rules.State]float64, map[rules.State]map[rules.Choice]float64) {
	sum := map[rules.State]float64{}
	cnt := map[rules.State]float64{}
	csum := map[rules.State]map[rules.Choice]float64{}
	for _, d := range husDeals(pairs, singles) {
		cv := d.solve(singles, capacity, choose)
		for st, x := range cv.v[0] {
			cs := d.counts(st, singles)
			sum[cs] += x
			cnt[cs]++
			if cs.N == 0 {
				continue
			}
			if csum[cs] == nil {
				csum[cs] = map[rules.Choice]float64{}
			}
			for _, ch := range rules.Choices() {
				if rules.Legal(cs, ch, rules.PassNever) {
					csum[cs][ch] += cv.value(0, d.turn(st, ch, capacity))
				}
			}
		}
	}
	for st := range sum {
		sum[st] /= cnt[st]
		for ch := range csum[st] {
			csum[st][ch] /= cnt[st]
		}
	}
	return sum, csum
}

func husModel(singles, capacity int) Model {
	return Model{Singletons: singles, Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetHandoverUniform}}
}

// TestHandoverSingletonsMatchCardPlay compares the solver's leads (and each choice's lead) in
// every count state with the card-level reference's, for the fixed policies, the optimum and a
// best reply, the latter two playing the solver's own choices card by card.
func TestHandoverSingletonsMatchCardPlay(t *testing.T) {
	type tc struct {
		pairs, singles, capacity int
		short                    bool // in the short form
		lineups                  int  // the first lineups played
	}
	cases := []tc{{2, 1, 2, true, 5}, {2, 2, 3, true, 2}, {1, 2, 2, false, 5}, {2, 2, 3, false, 5},
		{3, 1, 2, false, 5}, {3, 1, 3, false, 5}, {3, 2, 3, false, 1}}
	lineups := [][2]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyBestResponse, rules.PolicyDaring},
		{rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyParity, rules.PolicySafe},
		{rules.PolicyBestResponse, rules.PolicyOptimal},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if c.short != testing.Short() && testing.Short() {
			continue
		}
		for i, pol := range lineups {
			if i >= c.lineups {
				continue
			}
			name := fmt.Sprintf("%d+%ds/m%d/%s-%s", c.pairs, c.singles, c.capacity, pol[0], pol[1])
			if seen[name] {
				continue
			}
			seen[name] = true
			t.Run(name, func(t *testing.T) {
				m := husModel(c.singles, c.capacity)
				mu := Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
				s, err := newHUSSolver(context.Background(), field.Float{}, m, mu, c.pairs)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.solve(); err != nil {
					t.Fatal(err)
				}
				choose := func(r int, st rules.State) rules.Choice { return s.cells[s.at[st]].ch[r] }
				lead, choice := husCardLevel(c.pairs, c.singles, c.capacity, choose)
				for _, cell := range s.cells {
					want, ok := lead[cell.st]
					if !ok {
						t.Fatalf("%v: no card-level placement", cell.st)
					}
					if math.Abs(cell.val[0]-want) > 1e-9 {
						t.Errorf("%v: solver lead %.12f, card level %.12f", cell.st, cell.val[0], want)
					}
					for ch, w := range choice[cell.st] {
						if !cell.legal[ch] {
							t.Errorf("%v: %s legal card by card, not in the solver", cell.st, ch)
							continue
						}
						if got := s.choiceValue(cell, 0, 2, ch, false); math.Abs(got-w) > 1e-9 {
							t.Errorf("%v %s: solver lead %.12f, card level %.12f", cell.st, ch, got, w)
						}
						// The optimum and a best reply gain nothing by another choice, card by card.
						if (pol[0] == rules.PolicyOptimal || pol[0] == rules.PolicyBestResponse) && w > want+1e-9 {
							t.Errorf("%v: %s is worth %.12f card by card, more than %s's %.12f", cell.st, ch, w, pol[0], want)
						}
					}
				}
			})
		}
	}
}
