package exact_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A check of every seat's score distribution at three seats under a fluctuating capacity against
// play card by card, on the cards of fluct_cardlevel_test.go (flGame): the play of
// fluctselfishpass_cardlevel_test.go (fspPlayer) with, in place of every seat's expected pairs,
// every seat's distribution of the pairs it takes, summed over every card a flip can show, every
// capacity a turn can draw and every pass; the games that can last for ever are cut after a
// number of turns, their probability kept apart.

// seatsDist is every seat's distribution of its pairs in p-ths of a pair, seat s's block of width w
// from s*w, followed by the probability that the game is unfinished.
type seatsDist []float64

// fsdPlayer plays card by card at p seats under any pass rule, as fspPlayer, for distributions.
type fsdPlayer struct {
	lru      bool
	m, sigma int
	p, top   int
	w        int
	choose   []fspChooser
	memo     map[string]seatsDist
	// limited ends the game after top turns, the pairs left counting for nobody (a turn limit),
	// in place of counting the game unfinished; left is the turns left (this one included) when a
	// chooser is asked, for choosers that read a turn limit's layers.
	limited bool
	left    int
}

func (p *fsdPlayer) zero() seatsDist { return make(seatsDist, p.p*p.w+1) }

// over returns the distribution of a finished game: every seat takes nothing more.
func (p *fsdPlayer) over() seatsDist {
	out := p.zero()
	for s := range p.p {
		out[s*p.w] = 1
	}
	return out
}

func (out seatsDist) add(q float64, v seatsDist) {
	for i := range out {
		out[i] += q * v[i]
	}
}

// gain returns v with one pair more for seat t.
func (p *fsdPlayer) gain(v seatsDist, t int) seatsDist {
	out := slices.Clone(v)
	lo := t * p.w
	for i := lo + p.w - 1; i >= lo; i-- {
		out[i] = 0
		if i-p.p >= lo {
			out[i] = v[i-p.p]
		}
	}
	return out
}

func (p *fsdPlayer) store(g *flGame, x, c int) {
	g.mem = append(g.mem, x)
	if p.lru && len(g.mem) > c {
		g.mem = g.mem[1:]
	}
}

func (p *fsdPlayer) second(g *flGame, y, c int) {
	if p.lru && slices.Contains(g.mem, y^1) {
		g.drop(y ^ 1)
		g.pending = []int{y ^ 1, y}
		return
	}
	p.store(g, y, c)
}

func (p *fsdPlayer) value(g *flGame, mover, streak, depth int) seatsDist {
	if !slices.Contains(g.present, true) {
		return p.over()
	}
	out := p.zero()
	if depth == 0 && p.limited {
		return p.over()
	}
	if depth == 0 {
		out[p.p*p.w] = 1
		return out
	}
	k := g.key(mover, depth) + string(rune('0'+streak))
	if v, ok := p.memo[k]; ok {
		return v
	}
	w := 1 / float64(2*p.sigma+1)
	for d := -p.sigma; d <= p.sigma; d++ {
		out.add(w, p.turn(g.clone(), mover, streak, depth, max(2, p.m+d)))
	}
	p.memo[k] = out
	return out
}

func (p *fsdPlayer) turn(g *flGame, mover, streak, depth, c int) seatsDist {
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
		return p.gain(p.value(g, mover, 0, depth-1), mover)
	}
	for _, a := range g.mem {
		if slices.Contains(g.mem, a^1) {
			g.take(a, a^1)
			return p.gain(p.value(g, mover, 0, depth-1), mover)
		}
	}
	n := 0
	for i := 0; i < len(g.present); i += 2 {
		if g.present[i] {
			n++
		}
	}
	p.left = depth
	ch := p.choose[mover](rules.State{N: n, J: n - len(g.mem)}, c, streak, depth == p.top)
	out := p.zero()
	switch ch {
	case rules.Pass:
		if streak == p.p-1 {
			// The stalemate: n/p pairs, n p-ths, to every seat.
			for s := range p.p {
				out[s*p.w+n] = 1
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
			out.add(q, p.gain(p.value(h, mover, 0, depth-1), mover))
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

func (p *fsdPlayer) afterSecond(g *flGame, a, y, mover, depth, c int) seatsDist {
	if y == a^1 {
		g.take(a, y)
		return p.gain(p.value(g, mover, 0, depth-1), mover)
	}
	p.second(g, y, c)
	return p.handOver(g, mover, 0, depth, c)
}

func (p *fsdPlayer) handOver(g *flGame, mover, streak, depth, c int) seatsDist {
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

// TestFluctSeatsDistributionMatchesCardPlay plays deals of three pairs card by card at three
// seats under a fluctuating capacity, every pass rule, and compares every seat's whole
// distribution of its pairs with SeatsScoreDistribution's: every seat for itself (its choices read
// from FluctSelfishTable's layer of the capacity drawn at the pass streak), policies per seat and
// best-response at one seat (its choices read from FluctSeatsReplyTable), from the full deal and
// with cards known.
func TestFluctSeatsDistributionMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	par := rules.PolicyParity
	type tcase struct {
		forget      rules.Forgetting
		m, sigma    int
		pass        rules.PassRule
		known       []int
		seats       [][]rules.Policy
		replyTo     rules.Policy // the others' policy when a seat is best-response
		n, depth    int
		needsStreak bool
	}
	cases := []tcase{
		{rules.ForgetLRU, 2, 1, rules.PassNever, []int{0, 2}, [][]rules.Policy{{o, o, o}, {o, s, d}, {s, b, s}}, s, 3, 14, false},
		{rules.ForgetHandoverUniform, 2, 1, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {d, o, s}}, s, 3, 14, true},
		// parity beside others and best-response to parity at every other seat.
		{rules.ForgetLRU, 2, 1, rules.PassNever, []int{0, 2}, [][]rules.Policy{{par, par, b}}, par, 3, 14, false},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{rules.ForgetHandoverUniform, 2, 1, rules.PassNever, nil, [][]rules.Policy{{o, o, o}, {s, d, o}, {b, d, d}}, d, 3, 16, false},
			tcase{rules.ForgetLRU, 2, 1, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {o, s, d}, {o, o, b}}, o, 3, 14, true},
			tcase{rules.ForgetLRU, 3, 2, rules.PassTwoKnown, []int{0, 2}, [][]rules.Policy{{o, o, o}, {d, s, o}}, s, 3, 14, false},
			tcase{rules.ForgetHandoverUniform, 3, 1, rules.PassTwoKnown, []int{0, 2}, [][]rules.Policy{{o, o, o}, {s, s, b}}, s, 3, 14, false},
			tcase{rules.ForgetHandoverUniform, 2, 1, rules.PassAlways, []int{0}, [][]rules.Policy{{par, o, s}, {b, par, par}}, par, 3, 14, false})
	}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem, Pass: tc.pass}
		tab, err := exact.FluctSelfishTable(ctx, field.Float{}, m, 3, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		reply, err := exact.FluctSeatsReplyTable(ctx, field.Float{}, m, 3, tc.replyTo, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		passed := false
		onPass := func(streak int) { passed = passed || streak == 2 }
		fromTable := func(tab *rules.ChoiceTable) fspChooser {
			return fspFromTable(t, fmt.Sprintf("%s %s", tc.pass, mem), tc.pass, tab, onPass)
		}
		pols := map[rules.Policy]fspChooser{o: fromTable(tab), s: fspFixed(s), d: fspFixed(d), par: fspFixed(par), b: fromTable(reply)}
		start := rules.State{N: tc.n, J: tc.n - len(tc.known)}
		for _, seats := range tc.seats {
			name := fmt.Sprintf("%s %s/%v/%v", tc.pass, mem, seats, start)
			w := 3*tc.n + 1
			pl := &fsdPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, p: 3, top: tc.depth, w: w,
				choose: []fspChooser{pols[seats[0]], pols[seats[1]], pols[seats[2]]}, memo: map[string]seatsDist{}}
			got := pl.value(newFlDeal(tc.n, tc.known), 0, 0, tc.depth)
			mu := exact.SeatLineup(seats...)
			checkReplySeats(t, name, seats, tc.replyTo)
			want, err := exact.SeatsScoreDistribution(ctx, field.Float{}, m, mu, start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			compareSeatsCardPlay(t, name, got, want, w, tc.depth, 1e-3)
		}
		if tc.needsStreak && !passed {
			t.Errorf("%s %s: no game ends in a stalemate: the check does not reach one", tc.pass, mem)
		}
	}
}

// TestFluctSeatsDistributionIdentities checks every seat's distribution against the lineup's
// values (each seat's mean its expected pairs, exact rationals), that each adds up to 1, and that
// float64 agrees, at three and four seats under every pass rule.
func TestFluctSeatsDistributionIdentities(t *testing.T) {
	ctx := context.Background()
	o, s, d, b := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyBestResponse
	type tcase struct {
		mem   rules.Memory
		pass  rules.PassRule
		seats []rules.Policy
		st    rules.State
	}
	lru := rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}
	hu := rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform, Fluctuation: 1}
	cases := []tcase{
		{lru, rules.PassNever, []rules.Policy{o, o, o}, rules.State{N: 4, J: 4}},
		{hu, rules.PassAlways, []rules.Policy{o, s, d}, rules.State{N: 4, J: 3}},
		{lru, rules.PassTwoKnown, []rules.Policy{s, b, s}, rules.State{N: 4, J: 2}},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{lru, rules.PassAlways, []rules.Policy{o, o, o, o}, rules.State{N: 5, J: 5}},
			tcase{hu, rules.PassTwoKnown, []rules.Policy{o, o, o}, rules.State{N: 6, J: 5}},
			tcase{hu, rules.PassNever, []rules.Policy{d, d, b, d}, rules.State{N: 6, J: 6}})
	}
	for _, tc := range cases {
		m := exact.Model{Memory: tc.mem, Pass: tc.pass}
		mu := exact.SeatLineup(tc.seats...)
		name := fmt.Sprintf("%s %s/%v/%v", tc.pass, tc.mem, tc.seats, tc.st)
		checkSeatsDistIdentities(t, ctx, name, m, mu, tc.st, len(tc.seats))
	}
}
