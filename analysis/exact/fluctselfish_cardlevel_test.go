package exact_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A check of the fluctuating capacity at three seats against play card by card, on the cards of
// fluct_cardlevel_test.go (flGame): every seat's expected pairs are summed over every card a flip
// can show and every capacity a turn can draw, the games that can last for ever cut after a
// number of turns.

// fsPlayer plays card by card at p seats: lru or handover-uniform, base capacity m, fluctuation
// sigma; seat t's choice in (n, j) with capacity c drawn is choose[t](st, c, first), first saying
// that this is the game's first turn.
type fsPlayer struct {
	lru      bool
	m, sigma int
	p, top   int
	choose   []func(st rules.State, c int, first bool) rules.Choice
	memo     map[string][]float64
}

// vec is every seat's expected pairs followed by the probability that the game is unfinished.
type vec []float64

func (p *fsPlayer) zero() vec { return make(vec, p.p+1) }

// add adds q times v to out.
func (out vec) add(q float64, v vec) {
	for i := range out {
		out[i] += q * v[i]
	}
}

// gain returns v with one pair more for seat t.
func (v vec) gain(t int) vec {
	out := slices.Clone(v)
	out[t]++
	return out
}

func (p *fsPlayer) store(g *flGame, x, c int) {
	g.mem = append(g.mem, x)
	if p.lru && len(g.mem) > c {
		g.mem = g.mem[1:]
	}
}

func (p *fsPlayer) second(g *flGame, y, c int) {
	if p.lru && slices.Contains(g.mem, y^1) {
		g.drop(y ^ 1)
		g.pending = []int{y ^ 1, y}
		return
	}
	p.store(g, y, c)
}

// value returns the values from g with seat mover to move at the start of a turn, within depth
// turns.
func (p *fsPlayer) value(g *flGame, mover, depth int) vec {
	out := p.zero()
	if !slices.Contains(g.present, true) {
		return out
	}
	if depth == 0 {
		out[p.p] = 1
		return out
	}
	k := g.key(mover, depth)
	if v, ok := p.memo[k]; ok {
		return v
	}
	w := 1 / float64(2*p.sigma+1)
	for d := -p.sigma; d <= p.sigma; d++ {
		out.add(w, p.turn(g.clone(), mover, depth, max(2, p.m+d)))
	}
	p.memo[k] = out
	return out
}

// turn plays a turn with capacity c drawn.
func (p *fsPlayer) turn(g *flGame, mover, depth, c int) vec {
	if p.lru {
		for len(g.mem) > c {
			g.mem = g.mem[1:]
		}
	}
	for i := range g.old {
		g.old[i] = slices.Contains(g.mem, i)
	}
	if len(g.pending) == 2 {
		g.take(g.pending[0], g.pending[1])
		return p.value(g, mover, depth-1).gain(mover)
	}
	for _, a := range g.mem {
		if slices.Contains(g.mem, a^1) {
			g.take(a, a^1)
			return p.value(g, mover, depth-1).gain(mover)
		}
	}
	n := 0
	for i := 0; i < len(g.present); i += 2 {
		if g.present[i] {
			n++
		}
	}
	ch := p.choose[mover](rules.State{N: n, J: n - len(g.mem)}, c, depth == p.top)
	out := p.zero()
	if ch == rules.KnownFirst {
		a := g.mem[0]
		g.touch(a)
		ys := g.unremembered(-1)
		for _, y := range ys {
			out.add(1/float64(len(ys)), p.afterSecond(g.clone(), a, y, mover, depth, c))
		}
		return out
	}
	xs := g.unremembered(-1)
	for _, x := range xs {
		q := 1 / float64(len(xs))
		h := g.clone()
		if slices.Contains(h.mem, x^1) {
			h.take(x, x^1)
			out.add(q, p.value(h, mover, depth-1).gain(mover))
			continue
		}
		p.store(h, x, c)
		if ch == rules.Safe && len(h.mem) >= 2 {
			for _, o := range h.mem {
				if o != x {
					h.touch(o)
					break
				}
			}
			out.add(q, p.handOver(h, mover, depth, c))
			continue
		}
		ys := h.unremembered(x)
		for _, y := range ys {
			out.add(q/float64(len(ys)), p.afterSecond(h.clone(), x, y, mover, depth, c))
		}
	}
	return out
}

func (p *fsPlayer) afterSecond(g *flGame, a, y, mover, depth, c int) vec {
	if y == a^1 {
		g.take(a, y)
		return p.value(g, mover, depth-1).gain(mover)
	}
	p.second(g, y, c)
	return p.handOver(g, mover, depth, c)
}

// handOver passes the turn to the next seat: handover-uniform forgets old cards uniformly, one at
// a time, until c remain.
func (p *fsPlayer) handOver(g *flGame, mover, depth, c int) vec {
	if !p.lru && len(g.mem) > c {
		var olds []int
		for _, x := range g.mem {
			if g.old[x] {
				olds = append(olds, x)
			}
		}
		out := p.zero()
		for _, x := range olds {
			h := g.clone()
			h.drop(x)
			h.old[x] = false
			out.add(1/float64(len(olds)), p.handOver(h, mover, depth, c))
		}
		return out
	}
	return p.value(g, (mover+1)%p.p, depth-1)
}

// TestFluctSeatsMatchesCardPlay plays small deals card by card at three seats under a fluctuating
// capacity and compares every seat's expected pairs with the exact model's, for every seat for
// itself (its choices read from FluctSelfishTable's layer of the capacity drawn) and policies per
// seat (parity among them); and checks that no choice of the first turn, the optimum played
// afterwards, gives the mover more than the optimum's (the start has no gap). The deals start
// with two cards known.
func TestFluctSeatsMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	par := rules.PolicyParity
	all := [][]rules.Policy{{o, o, o}, {o, s, d}, {d, o, s}, {s, d, o}}
	type scase struct {
		forget             rules.Forgetting
		m, sigma, n, depth int
		seats              [][]rules.Policy
	}
	cases := []scase{
		{rules.ForgetLRU, 2, 1, 3, 16, append(all, []rules.Policy{par, o, s})},
		{rules.ForgetHandoverUniform, 2, 1, 3, 16, all},
		{rules.ForgetLRU, 3, 2, 3, 16, all[:2]},
		{rules.ForgetHandoverUniform, 3, 2, 3, 16, all[:2]},
	}
	if !testing.Short() {
		cases = append(cases, scase{rules.ForgetHandoverUniform, 3, 2, 3, 16, [][]rules.Policy{{o, par, par}, {d, s, par}}})
	}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem}
		tab, err := exact.FluctSelfishTable(ctx, field.Float{}, m, 3, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		gaps, err := exact.FluctSelfishGaps(ctx, field.Float{}, m, 3, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		opt := func(st rules.State, c int, _ bool) rules.Choice {
			ch, ok := tab.LookupCapacity(st, false, c)
			if !ok {
				t.Fatalf("%s: no choice in %v with capacity %d", mem, st, c)
			}
			return ch
		}
		fixed := func(p rules.Policy) func(rules.State, int, bool) rules.Choice {
			return func(st rules.State, _ int, _ bool) rules.Choice { return p.Decide(st) }
		}
		pols := map[rules.Policy]func(rules.State, int, bool) rules.Choice{o: opt, s: fixed(s), d: fixed(d), par: fixed(par)}
		// The game starts with known cards 0 and 2 (of two pairs), so that the first turn has
		// every choice.
		start := rules.State{N: tc.n, J: tc.n - 2}
		play := func(choose ...func(rules.State, int, bool) rules.Choice) vec {
			pl := &fsPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, p: 3, top: tc.depth,
				choose: choose, memo: map[string][]float64{}}
			g := &flGame{present: make([]bool, 2*tc.n), old: make([]bool, 2*tc.n), mem: []int{0, 2}}
			for i := range g.present {
				g.present[i] = true
			}
			return pl.value(g, 0, tc.depth)
		}
		for _, seats := range tc.seats {
			name := fmt.Sprintf("%s/%v/n=%d", mem, seats, tc.n)
			got := play(pols[seats[0]], pols[seats[1]], pols[seats[2]])
			want, err := exact.Evaluate(ctx, field.Float{}, m, exact.SeatLineup(seats...), start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i := range 3 {
				if diff := math.Abs(got[i] - want.PairsBySeat[i]); diff > float64(tc.n)*got[3]+1e-9 {
					t.Errorf("%s: seat %d: card play %.12f (unfinished %.2g), exact %.12f", name, i, got[i], got[3], want.PairsBySeat[i])
				}
			}
		}
		for _, g := range gaps {
			if g.State == start {
				t.Fatalf("%s: the start has a gap, %v", mem, g)
			}
		}
		best := play(opt, opt, opt)
		for _, ch := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
			once := func(st rules.State, c int, first bool) rules.Choice {
				if first {
					return ch
				}
				return opt(st, c, first)
			}
			dev := play(once, opt, opt)
			if dev[0] > best[0]+float64(tc.n)*(dev[3]+best[3])+1e-9 {
				t.Errorf("%s: %s at the first turn gives the mover %.12f, the optimum %.12f", mem, ch, dev[0], best[0])
			}
		}
	}
}
