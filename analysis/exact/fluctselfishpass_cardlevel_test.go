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

// A check of the fluctuating capacity at three seats under the pass rules two-known and always
// against play card by card, on the cards of fluct_cardlevel_test.go (flGame): every seat's
// expected pairs are summed over every card a flip can show, every capacity a turn can draw (a
// pass turn included) and every pass, the pass streak counted as the engine counts it; the games
// that can last for ever are cut after a number of turns.

// fspChooser returns a seat's choice in (n, j) with capacity c drawn after streak seats passed in a
// row; first says that this is the game's first turn.
type fspChooser func(st rules.State, c, streak int, first bool) rules.Choice

// fspPlayer plays card by card at p seats under a pass rule: lru or handover-uniform, base
// capacity m, fluctuation sigma. When replies, seat reply does not follow choose but replies to
// the others by value iteration over the card-level positions (fspPlayer.best): at each of its
// turns it makes the choice legal under pass whose value to it, within the turns left, is the
// largest; seen, when not nil, is shown every legal choice's values at each such turn.
type fspPlayer struct {
	lru      bool
	m, sigma int
	p, top   int
	choose   []fspChooser
	memo     map[string]vec
	replies  bool
	reply    int
	pass     rules.PassRule
	seen     func(st rules.State, c, streak int, vals map[rules.Choice]vec)
	// everyBest makes every seat play as the replying seat does (every seat for itself within the
	// turns left, fluctlimitseats_cardlevel_test.go), a choice better only by more than 1e-12;
	// left is the turns left of the turn being chosen, this one included, for choosers to read.
	everyBest bool
	left      int
}

func (p *fspPlayer) zero() vec { return make(vec, p.p+1) }

func (p *fspPlayer) store(g *flGame, x, c int) {
	g.mem = append(g.mem, x)
	if p.lru && len(g.mem) > c {
		g.mem = g.mem[1:]
	}
}

func (p *fspPlayer) second(g *flGame, y, c int) {
	if p.lru && slices.Contains(g.mem, y^1) {
		g.drop(y ^ 1)
		g.pending = []int{y ^ 1, y}
		return
	}
	p.store(g, y, c)
}

// value returns the values from g with seat mover to move at the start of a turn after streak
// seats passed in a row, within depth turns.
func (p *fspPlayer) value(g *flGame, mover, streak, depth int) vec {
	out := p.zero()
	if !slices.Contains(g.present, true) {
		return out
	}
	if depth == 0 {
		out[p.p] = 1
		return out
	}
	// The first turn is not kept: a chooser may read it (first), so that plays that differ only
	// there share the rest.
	k := g.key(mover, depth) + string(rune('0'+streak))
	if v, ok := p.memo[k]; ok && depth < p.top {
		return v
	}
	w := 1 / float64(2*p.sigma+1)
	for d := -p.sigma; d <= p.sigma; d++ {
		out.add(w, p.turn(g.clone(), mover, streak, depth, max(2, p.m+d)))
	}
	p.memo[k] = out
	return out
}

// turn plays a turn with capacity c drawn: a pair known whole is taken first; a pass at the last
// streak ends the game in a stalemate, the pairs left shared equally.
func (p *fspPlayer) turn(g *flGame, mover, streak, depth, c int) vec {
	if v, taken := p.startTurn(g, mover, depth, c); taken {
		return v
	}
	if p.everyBest || (p.replies && mover == p.reply) {
		return p.best(g, mover, streak, depth, c)
	}
	p.left = depth
	ch := p.choose[mover](g.state(), c, streak, depth == p.top)
	return p.play(g, ch, mover, streak, depth, c)
}

// startTurn starts a turn with capacity c drawn (lru forgets down to c) and takes a pair known
// whole, returning the values from there and true when it does.
func (p *fspPlayer) startTurn(g *flGame, mover, depth, c int) (vec, bool) {
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
		return p.value(g, mover, 0, depth-1).gain(mover), true
	}
	for _, a := range g.mem {
		if slices.Contains(g.mem, a^1) {
			g.take(a, a^1)
			return p.value(g, mover, 0, depth-1).gain(mover), true
		}
	}
	return nil, false
}

// choiceValues returns the values of every choice legal under p.pass for mover in g, its turn
// started (startTurn) with no pair known whole.
func (p *fspPlayer) choiceValues(g *flGame, mover, streak, depth, c int) map[rules.Choice]vec {
	out := map[rules.Choice]vec{}
	for _, ch := range rules.Choices() {
		if rules.Legal(g.state(), ch, p.pass) {
			out[ch] = p.play(g.clone(), ch, mover, streak, depth, c)
		}
	}
	return out
}

// best is the replying seat's turn, its turn started: the values of the legal choice that gives
// it the most (the first in the order of rules.Choices among equals), with the largest
// probability of an unfinished game among the choices, which bounds the truncation's error of
// every policy of the replying seat.
func (p *fspPlayer) best(g *flGame, mover, streak, depth, c int) vec {
	vals := p.choiceValues(g, mover, streak, depth, c)
	if p.seen != nil {
		p.seen(g.state(), c, streak, vals)
	}
	var out vec
	unfinished := 0.0
	for _, ch := range rules.Choices() {
		v, ok := vals[ch]
		if !ok {
			continue
		}
		unfinished = max(unfinished, v[p.p])
		if out == nil || (!p.everyBest && v[mover] > out[mover]) || (p.everyBest && v[mover] > out[mover]+1e-12) {
			out = v
		}
	}
	out = slices.Clone(out)
	out[p.p] = unfinished
	return out
}

// play plays choice ch in g, its turn started.
func (p *fspPlayer) play(g *flGame, ch rules.Choice, mover, streak, depth, c int) vec {
	n := g.pairs()
	out := p.zero()
	switch ch {
	case rules.Pass:
		if streak == p.p-1 {
			for i := range p.p {
				out[i] = float64(n) / float64(p.p)
			}
			return out
		}
		return p.handOver(g, mover, streak+1, depth, c)
	case rules.KnownFirst:
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
			out.add(q, p.value(h, mover, 0, depth-1).gain(mover))
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
			out.add(q, p.handOver(h, mover, 0, depth, c))
			continue
		}
		ys := h.unremembered(x)
		for _, y := range ys {
			out.add(q/float64(len(ys)), p.afterSecond(h.clone(), x, y, mover, depth, c))
		}
	}
	return out
}

func (p *fspPlayer) afterSecond(g *flGame, a, y, mover, depth, c int) vec {
	if y == a^1 {
		g.take(a, y)
		return p.value(g, mover, 0, depth-1).gain(mover)
	}
	p.second(g, y, c)
	return p.handOver(g, mover, 0, depth, c)
}

// handOver passes the turn to the next seat at pass streak streak: handover-uniform forgets old
// cards uniformly, one at a time, until c remain.
func (p *fspPlayer) handOver(g *flGame, mover, streak, depth, c int) vec {
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
			out.add(1/float64(len(olds)), p.handOver(h, mover, streak, depth, c))
		}
		return out
	}
	return p.value(g, (mover+1)%p.p, streak, depth-1)
}

// TestFluctSeatsPassMatchesCardPlay plays deals of three and four pairs card by card at three seats under a
// fluctuating capacity and a pass rule and compares every seat's expected pairs with the exact
// model's: every seat for itself (its choices read from FluctSelfishTable's layer of the capacity
// drawn at the pass streak) and policies per seat, at every starting streak; it checks that no
// choice of the first turn, made with one capacity drawn at one streak and the optimum played
// afterwards, gives the mover more than the optimum's (the start has no gap), and that the
// optimum passes somewhere in these games; and each choice's value to the mover at the first turn
// with each capacity drawn at each streak against the model's.
func TestFluctSeatsPassMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring
	all := [][]rules.Policy{{o, o, o}, {o, o, s}, {o, s, d}, {d, o, s}, {s, o, o}}
	type tcase struct {
		forget             rules.Forgetting
		m, sigma, n, depth int
		pass               rules.PassRule
		known              []int // the cards known at the start, of different pairs
		seats              [][]rules.Policy
	}
	// Under always the optimum passes from three pairs with one card known, under two-known
	// from four pairs with two known (at the last streak with lru(2) and σ = 1). Three cards
	// known under handover-uniform(2) with σ = 1 are more than a capacity of 2 drawn holds.
	one, two, three := []int{0}, []int{0, 2}, []int{0, 2, 4}
	cases := []tcase{
		{rules.ForgetLRU, 2, 1, 3, 14, rules.PassAlways, one, all},
		{rules.ForgetHandoverUniform, 2, 1, 3, 14, rules.PassAlways, one, all},
		{rules.ForgetLRU, 2, 1, 4, 12, rules.PassTwoKnown, two, all[:2]},
		{rules.ForgetHandoverUniform, 2, 1, 4, 12, rules.PassTwoKnown, three, all[:1]},
	}
	if testing.Short() {
		// The short form plays each lineup under one of the forgetting rules at three pairs.
		cases[0].seats, cases[1].seats = all[:3], [][]rules.Policy{all[0], all[3], all[4]}
	} else {
		cases = append(cases,
			tcase{rules.ForgetHandoverUniform, 2, 1, 4, 12, rules.PassTwoKnown, two, all[:2]},
			tcase{rules.ForgetLRU, 3, 2, 3, 14, rules.PassAlways, two, all[:2]},
			tcase{rules.ForgetHandoverUniform, 3, 2, 3, 14, rules.PassTwoKnown, two, all[:2]},
			tcase{rules.ForgetHandoverUniform, 3, 1, 4, 12, rules.PassTwoKnown, three, all[:2]},
			tcase{rules.ForgetLRU, 3, 1, 4, 12, rules.PassAlways, two, all[:2]})
	}
	passed := map[rules.PassRule]bool{}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem, Pass: tc.pass}
		tab, err := exact.FluctSelfishTable(ctx, field.Float{}, m, 3, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		gaps, err := exact.FluctSelfishGaps(ctx, field.Float{}, m, 3, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		known := tc.known
		start := rules.State{N: tc.n, J: tc.n - len(known)}
		for _, g := range gaps {
			if g.State == start {
				t.Fatalf("%s %s: the start has a gap, %v", tc.pass, mem, g)
			}
		}
		opt := fspFromTable(t, fmt.Sprintf("%s %s", tc.pass, mem), tc.pass, tab, func(int) { passed[tc.pass] = true })
		pols := map[rules.Policy]fspChooser{o: opt, s: fspFixed(s), d: fspFixed(d)}
		// The game starts with the known cards known (of different pairs): two under two-known,
		// so that the first turn has every choice, one under always.
		// play plays from the start at streak streak, with capacity c drawn for the first turn
		// (0: every capacity); memo is shared by plays whose choosers agree after the first turn.
		playAt := func(streak, c int, memo map[string]vec, choose ...fspChooser) vec {
			pl := &fspPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, p: 3, top: tc.depth,
				choose: choose, memo: memo}
			g := newFlDeal(tc.n, known)
			if c > 0 {
				return pl.turn(g, 0, streak, tc.depth, c)
			}
			return pl.value(g, 0, streak, tc.depth)
		}
		play := func(streak int, memo map[string]vec, choose ...fspChooser) vec {
			return playAt(streak, 0, memo, choose...)
		}
		near := func(got vec, want float64) bool { return math.Abs(got[0]-want) <= float64(tc.n)*got[3]+1e-9 }
		for _, seats := range tc.seats {
			name := fmt.Sprintf("%s %s/%v/n=%d", tc.pass, mem, seats, tc.n)
			memo := map[string]vec{}
			got := play(0, memo, pols[seats[0]], pols[seats[1]], pols[seats[2]])
			want, err := exact.Evaluate(ctx, field.Float{}, m, exact.SeatLineup(seats...), start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i := range 3 {
				if !near(vec{got[i], 0, 0, got[3]}, want.PairsBySeat[i]) {
					t.Errorf("%s: seat %d: card play %.12f (unfinished %.2g), exact %.12f", name, i, got[i], got[3], want.PairsBySeat[i])
				}
			}
			if !slices.Contains(seats, s) && !slices.Contains(seats, d) {
				continue
			}
			// Every streak, for a lineup with a fixed policy.
			byStreak, err := exact.FluctSeatsStreakLineupValues(ctx, m, exact.SeatLineup(seats...), start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for l := 1; l < 3; l++ {
				got := play(l, memo, pols[seats[0]], pols[seats[1]], pols[seats[2]])
				for i := range 3 {
					if !near(vec{got[i], 0, 0, got[3]}, byStreak[l][i]) {
						t.Errorf("%s: streak %d: seat %d: card play %.12f (unfinished %.2g), exact %.12f", name, l, i, got[i], got[3], byStreak[l][i])
					}
				}
			}
		}
		streaks, err := exact.FluctSeatsStreakValues(ctx, m, 3, start)
		if err != nil {
			t.Fatal(err)
		}
		memo := map[string]vec{}
		for l := range 3 {
			best := play(l, memo, opt, opt, opt)
			for i := range 3 {
				if math.Abs(best[i]-streaks[l][i]) > float64(tc.n)*best[3]+1e-9 {
					t.Errorf("%s %s: streak %d: seat %d: card play %.12f (unfinished %.2g), exact %.12f", tc.pass, mem, l, i, best[i], best[3], streaks[l][i])
				}
			}
			for d := -tc.sigma; d <= tc.sigma; d++ {
				c0 := max(2, tc.m+d)
				if d > -tc.sigma && c0 == max(2, tc.m+d-1) {
					continue // the same capacity as the draw before
				}
				for _, ch := range rules.Choices() {
					if !rules.Legal(start, ch, tc.pass) {
						continue
					}
					once := func(st rules.State, c, streak int, first bool) rules.Choice {
						if first && c == c0 {
							return ch
						}
						return opt(st, c, streak, first)
					}
					dev := play(l, memo, once, opt, opt)
					if dev[0] > best[0]+float64(tc.n)*(dev[3]+best[3])+1e-9 {
						t.Errorf("%s %s: %s at the first turn with capacity %d at streak %d gives the mover %.12f, the optimum %.12f", tc.pass, mem, ch, c0, l, dev[0], best[0])
					}
					after := playAt(l, c0, memo, once, opt, opt)
					vals, err := exact.FluctSeatsPassChoiceValues(ctx, m, 3, start, c0, l)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(after[0]-vals[ch]) > float64(tc.n)*after[3]+1e-9 {
						t.Errorf("%s %s: %s with capacity %d at streak %d: card play %.12f (unfinished %.2g), exact %.12f", tc.pass, mem, ch, c0, l, after[0], after[3], vals[ch])
					}
				}
			}
		}
	}
	for _, pass := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		if !passed[pass] {
			t.Errorf("%s: the optimum never passes in these games: the check does not reach a pass", pass)
		}
	}
}
