package exact_test

// An independent check of the unequal-memory model: the game played card by card from the rules
// of docs/models.md §2.2 and §5.2, two private lru memories with recency stamps, every card the
// mover can flip enumerated on its own (no classes, no count formulas), and the values found by
// iterating to a fixed point over every table the game can reach.

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// bfMemory is an lru memory: stored cards with the time each was last seen, and recognised pairs
// (the two cards seen while the other was stored), in the order they were recognised; or a
// perfect memory (docs/models.md §2.1), which stores every card it sees, both cards of a pair
// included, and flips the least recently seen one where a remembered card is open (§5.2).
type bfMemory struct {
	capacity int
	perfect  bool
	stamp    map[int]int
	pairs    [][2]int
}

// bfTable is a position at card level: pair i owns cards 2i and 2i+1.
type bfTable struct {
	on     []bool
	mem    [2]bfMemory
	clock  int
	mover  int
	passes int
	gain   [2]int // pairs taken so far
}

func (b *bfTable) clone() *bfTable {
	c := &bfTable{on: append([]bool(nil), b.on...), clock: b.clock, mover: b.mover, passes: b.passes, gain: b.gain}
	for i, m := range b.mem {
		c.mem[i] = bfMemory{capacity: m.capacity, perfect: m.perfect, stamp: map[int]int{}, pairs: append([][2]int(nil), m.pairs...)}
		for k, v := range m.stamp {
			c.mem[i].stamp[k] = v
		}
	}
	return c
}

func (m *bfMemory) recognised(c int) bool {
	for _, p := range m.pairs {
		if p[0] == c || p[1] == c {
			return true
		}
	}
	return false
}

func (m *bfMemory) holds(c int) bool {
	_, ok := m.stamp[c]
	return ok || m.recognised(c)
}

// partnerKnown reports whether the memory, having seen c, knows c's partner: it recognised the
// pair (lru) or stores the partner (perfect memory).
func (m *bfMemory) partnerKnown(c int) bool {
	_, ok := m.stamp[c^1]
	return m.recognised(c) || m.perfect && ok
}

// knownPair returns a card of a pair the memory knows whole: the last recognised pair's (lru),
// the lowest card stored with its partner (perfect memory).
func (m *bfMemory) knownPair() (int, bool) {
	if !m.perfect {
		if len(m.pairs) == 0 {
			return 0, false
		}
		return m.pairs[len(m.pairs)-1][0], true
	}
	best := -1
	for c := range m.stamp {
		if _, ok := m.stamp[c^1]; ok && (best < 0 || c < best) {
			best = c
		}
	}
	return best, best >= 0
}

// oldest returns the stored card seen least recently, other than x, or -1.
func (m *bfMemory) oldest(x int) int {
	best := -1
	for c, s := range m.stamp {
		if c != x && (best < 0 || s < m.stamp[best]) {
			best = c
		}
	}
	return best
}

func (b *bfTable) see(c int) {
	b.clock++
	for i := range b.mem {
		m := &b.mem[i]
		switch _, stored := m.stamp[c]; {
		case stored, m.perfect:
			m.stamp[c] = b.clock
		case m.recognised(c):
		default:
			if _, ok := m.stamp[c^1]; ok {
				delete(m.stamp, c^1)
				m.pairs = append(m.pairs, [2]int{c ^ 1, c})
				continue
			}
			m.stamp[c] = b.clock
			if len(m.stamp) > m.capacity {
				delete(m.stamp, m.oldest(-1))
			}
		}
	}
}

func (b *bfTable) take(c, seat int) {
	for _, x := range [2]int{c, c ^ 1} {
		b.on[x] = false
		for i := range b.mem {
			m := &b.mem[i]
			delete(m.stamp, x)
			for k, p := range m.pairs {
				if p[0] == x || p[1] == x {
					m.pairs = append(m.pairs[:k:k], m.pairs[k+1:]...)
					break
				}
			}
		}
	}
	b.gain[seat]++
}

// state returns the count state seat s's memory sees: pairs on the table, and the pairs of which
// it holds no card.
func (b *bfTable) state(s int) rules.State {
	n, j := 0, 0
	for c := 0; c < len(b.on); c += 2 {
		if !b.on[c] {
			continue
		}
		n++
		if !b.mem[s].holds(c) && !b.mem[s].holds(c+1) {
			j++
		}
	}
	return rules.State{N: n, J: j}
}

// key describes the position up to the pairs taken so far: the cards on the table, each memory's
// stored cards from the least recent and its recognised pairs, the mover and the passes.
func (b *bfTable) key() string {
	var sb strings.Builder
	for _, on := range b.on {
		fmt.Fprint(&sb, map[bool]int{false: 0, true: 1}[on])
	}
	for _, m := range b.mem {
		cs := make([]int, 0, len(m.stamp))
		for c := range m.stamp {
			cs = append(cs, c)
		}
		sort.Slice(cs, func(i, j int) bool { return m.stamp[cs[i]] < m.stamp[cs[j]] })
		fmt.Fprintf(&sb, "|%v%v", cs, m.pairs)
	}
	fmt.Fprintf(&sb, "|%d|%d", b.mover, b.passes)
	return sb.String()
}

type bfBranch struct {
	p    float64
	next *bfTable
}

// turn returns the ways the mover's turn can end, each with the table after it (and after the
// next mover has taken the pairs it knows whole, as a turn of its own begins).
func (b *bfTable) turn(choose func(seat int, st rules.State, afterPass bool) rules.Choice) []bfBranch {
	t := b.mover
	if c, ok := b.mem[t].knownPair(); ok {
		nb := b.clone()
		nb.see(c)
		nb.see(c ^ 1)
		nb.take(c, t)
		nb.passes = 0
		return []bfBranch{{1, nb}}
	}
	c := choose(t, b.state(t), b.passes > 0)
	end := func(nb *bfTable, passed bool) *bfTable {
		nb.mover = 1 - t
		if passed {
			nb.passes++
		} else {
			nb.passes = 0
		}
		return nb
	}
	if c == rules.Pass {
		return []bfBranch{{1, end(b.clone(), true)}}
	}
	unknown := func(x *bfTable, up int) []int {
		var out []int
		for c, on := range x.on {
			if on && c != up && !x.mem[t].holds(c) {
				out = append(out, c)
			}
		}
		return out
	}
	var out []bfBranch
	first := unknown(b, -1)
	for _, x := range first {
		p := 1 / float64(len(first))
		b1 := b.clone()
		b1.see(x)
		if b1.mem[t].partnerKnown(x) {
			b1.see(x ^ 1)
			b1.take(x, t)
			b1.passes = 0
			out = append(out, bfBranch{p, b1})
			continue
		}
		if c == rules.Safe {
			b1.see(b1.mem[t].oldest(x))
			out = append(out, bfBranch{p, end(b1, false)})
			continue
		}
		second := unknown(b1, x)
		for _, y := range second {
			b2 := b1.clone()
			b2.see(y)
			q := p / float64(len(second))
			if y == x^1 {
				b2.take(x, t)
				b2.passes = 0
				out = append(out, bfBranch{q, b2})
				continue
			}
			out = append(out, bfBranch{q, end(b2, false)})
		}
	}
	return out
}

// bruteLead returns seat 0's expected lead from a deal of n pairs, seat 0 first; a capacity of 0
// is a perfect memory.
func bruteLead(t *testing.T, n int, caps [2]int, pass rules.PassRule, choose func(int, rules.State, bool) rules.Choice) float64 {
	t.Helper()
	start := &bfTable{on: make([]bool, 2*n)}
	for i := range start.on {
		start.on[i] = true
	}
	for i := range start.mem {
		start.mem[i] = bfMemory{capacity: caps[i], perfect: caps[i] == 0, stamp: map[int]int{}}
	}
	// Reach every position, with the lead each branch adds.
	type edge struct {
		p    float64
		gain float64
		to   string
	}
	graph := map[string][]edge{}
	terminal := map[string]bool{}
	queue := []*bfTable{start}
	graph[start.key()] = nil
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		k := b.key()
		if b.passes == 2 || b.state(0).N == 0 {
			terminal[k] = true
			continue
		}
		var es []edge
		for _, br := range b.turn(choose) {
			g := float64(br.next.gain[0] - b.gain[0] - (br.next.gain[1] - b.gain[1]))
			nk := br.next.key()
			es = append(es, edge{br.p, g, nk})
			if _, seen := graph[nk]; !seen {
				graph[nk] = nil
				nb := br.next
				nb.gain = [2]int{}
				queue = append(queue, nb)
			}
		}
		graph[k] = es
	}
	v := map[string]float64{}
	for it := 0; it < 100000; it++ {
		delta := 0.0
		for k, es := range graph {
			if terminal[k] {
				continue
			}
			x := 0.0
			for _, e := range es {
				x += e.p * (e.gain + v[e.to])
			}
			delta = math.Max(delta, math.Abs(x-v[k]))
			v[k] = x
		}
		if delta < 1e-14 {
			return v[start.key()]
		}
	}
	t.Fatalf("no fixed point for %d pairs, capacities %v", n, caps)
	return 0
}

func TestUnequalAgreesWithCardLevelGame(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		n    int
		caps [2]int
		pol  [2]rules.Policy
		cs   rules.ChoiceSet
		pass rules.PassRule
	}
	ds := rules.NewChoiceSet(rules.Daring, rules.Safe)
	dsp := rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)
	opt, safe, daring, parity := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	cases := []tc{
		{3, [2]int{2, 3}, [2]rules.Policy{opt, opt}, ds, rules.PassNever},
		{3, [2]int{3, 2}, [2]rules.Policy{safe, daring}, ds, rules.PassNever},
		{4, [2]int{2, 3}, [2]rules.Policy{daring, safe}, ds, rules.PassNever},
		{4, [2]int{3, 2}, [2]rules.Policy{parity, opt}, ds, rules.PassNever},
		{4, [2]int{2, 4}, [2]rules.Policy{safe, safe}, ds, rules.PassNever},
		{4, [2]int{4, 2}, [2]rules.Policy{daring, daring}, ds, rules.PassNever},
		{4, [2]int{2, 3}, [2]rules.Policy{opt, opt}, dsp, rules.PassTwoKnown},
		{3, [2]int{3, 2}, [2]rules.Policy{safe, opt}, dsp, rules.PassAlways},
	}
	if testing.Short() {
		cases = []tc{cases[0], cases[1], cases[7]}
	}
	for _, c := range cases {
		name := fmt.Sprintf("n%d/lru%d-vs-lru%d/%v/%s/%s", c.n, c.caps[0], c.caps[1], c.pol, c.cs, c.pass)
		t.Run(name, func(t *testing.T) {
			u := exact.Unequal{Pass: c.pass, Choices: c.cs, Capacity: c.caps, Policy: c.pol}
			var tabs [2]*rules.ChoiceTable
			for s := range 2 {
				m := exact.Model{Pass: c.pass, Choices: c.cs, Memory: rules.Memory{Capacity: c.caps[s], Forget: rules.ForgetLRU}}
				tab, err := exact.PolicyTable(ctx, field.Rat{}, m, exact.Lineup{Players: 2, Policy: c.pol[s], Opponent: opt}, c.n)
				if err != nil {
					t.Fatal(err)
				}
				tabs[s] = tab
			}
			choose := func(seat int, st rules.State, afterPass bool) rules.Choice {
				ch, ok := tabs[seat].Lookup(st, afterPass)
				if !ok {
					t.Fatalf("seat %d: no choice in %v", seat, st)
				}
				return ch
			}
			want := bruteLead(t, c.n, c.caps, c.pass, choose)
			got, err := exact.EvaluateUnequal(ctx, field.Float{}, u, c.n)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.ExpectedLead-want) > 1e-9 {
				t.Errorf("lead %.12f, card-level game %.12f", got.ExpectedLead, want)
			}
		})
	}
}
