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

// A check of a fluctuating capacity under blind flips at three seats (docs/models.md §4.4, §4.7,
// §4.17) against play card by card, independent of the count formulas, on the cards of
// fluct_cardlevel_test.go (flGame): every turn draws its capacity, a pair known whole is taken
// first (one a turn; under blind flips a turn can hand over two), daring and safe name both
// positions before either card is turned up (as flPlayer.playBlind), and every seat's
// distribution of the pairs it takes is summed over every card a flip can show and every capacity
// drawn, the games that can last for ever cut after a number of turns.

// fbPlayer plays card by card at p seats under blind flips: lru or handover-uniform, base capacity
// m, fluctuation sigma, pass rule pass; seat t's choice is choose[t] (the state, the capacity
// drawn, the pass streak, whether this is the game's first turn), except seat reply's (when
// replies), which makes at each of its turns the legal choice worth the most pairs to it within
// the turns left. safe names the most recently seen remembered card when pickNewest is set, the
// least recently seen one otherwise.
type fbPlayer struct {
	lru              bool
	m, sigma, p, top int
	unit, width      int
	pass             rules.PassRule
	pickNewest       bool
	choose           []fspChooser
	replies          bool
	reply            int
	memo             map[string][]float64
}

// A value is every seat's distribution of its pairs from here on, seat s's probability of i/unit
// pairs at s*width + i, then the probability that the game is unfinished.
func (p *fbPlayer) zero() []float64 { return make([]float64, p.p*p.width+1) }

func (p *fbPlayer) done(units int) []float64 {
	v := p.zero()
	for s := range p.p {
		v[s*p.width+units] = 1
	}
	return v
}

func addTo(out []float64, q float64, v []float64) {
	for i := range out {
		out[i] += q * v[i]
	}
}

// gain returns v with seat t's distribution shifted by a pair.
func (p *fbPlayer) gain(v []float64, t int) []float64 {
	out := slices.Clone(v)
	lo := t * p.width
	for i := range p.width {
		out[lo+i] = 0
	}
	for i := p.width - 1 - p.unit; i >= 0; i-- {
		out[lo+i+p.unit] = v[lo+i]
	}
	return out
}

// mean returns seat s's expected pairs in v.
func (p *fbPlayer) mean(v []float64, s int) float64 {
	sum := 0.0
	for i := range p.width {
		sum += float64(i) * v[s*p.width+i]
	}
	return sum / float64(p.unit)
}

func (p *fbPlayer) value(g *flGame, mover, streak, depth int) []float64 {
	if !slices.Contains(g.present, true) {
		return p.done(0)
	}
	if depth == 0 {
		v := p.zero()
		v[p.p*p.width] = 1
		return v
	}
	k := g.key(mover, depth) + string(rune('0'+streak))
	if v, ok := p.memo[k]; ok && depth < p.top {
		return v
	}
	out := p.zero()
	w := 1 / float64(2*p.sigma+1)
	for d := -p.sigma; d <= p.sigma; d++ {
		addTo(out, w, p.turn(g.clone(), mover, streak, depth, max(2, p.m+d)))
	}
	p.memo[k] = out
	return out
}

// turn plays a turn with capacity c drawn.
func (p *fbPlayer) turn(g *flGame, mover, streak, depth, c int) []float64 {
	if p.lru {
		for len(g.mem) > c {
			g.mem = g.mem[1:]
		}
	}
	for i := range g.old {
		g.old[i] = slices.Contains(g.mem, i)
	}
	if len(g.pending) >= 2 {
		rest := slices.Clone(g.pending[2:])
		g.take(g.pending[0], g.pending[1])
		g.pending = rest
		return p.gain(p.value(g, mover, 0, depth-1), mover)
	}
	for _, a := range g.mem {
		if slices.Contains(g.mem, a^1) {
			g.take(a, a^1)
			return p.gain(p.value(g, mover, 0, depth-1), mover)
		}
	}
	if p.replies && mover == p.reply {
		return p.best(g, mover, streak, depth, c)
	}
	ch := p.choose[mover](g.state(), c, streak, depth == p.top)
	return p.play(g, ch, mover, streak, depth, c)
}

// best plays the legal choice worth the most pairs to the mover (the first in the order of
// rules.Choices among equals), with the largest probability of an unfinished game among the
// choices.
func (p *fbPlayer) best(g *flGame, mover, streak, depth, c int) []float64 {
	var out []float64
	unfinished := 0.0
	for _, ch := range rules.Choices() {
		if !rules.Legal(g.state(), ch, p.pass) {
			continue
		}
		v := p.play(g.clone(), ch, mover, streak, depth, c)
		unfinished = max(unfinished, v[p.p*p.width])
		if out == nil || p.mean(v, mover) > p.mean(out, mover)+1e-12 {
			out = v
		}
	}
	out = slices.Clone(out)
	out[p.p*p.width] = unfinished
	return out
}

// play plays choice ch in a turn with capacity c drawn, the capacity's forgetting done.
func (p *fbPlayer) play(g *flGame, ch rules.Choice, mover, streak, depth, c int) []float64 {
	out := p.zero()
	switch ch {
	case rules.Pass:
		if streak == p.p-1 {
			return p.done(g.pairs()) // a stalemate: n/p pairs each, n units of 1/p
		}
		return p.handOver(g, mover, streak+1, depth, c)
	case rules.KnownFirst:
		a := g.mem[0]
		g.touch(a)
		ys := g.unremembered(-1)
		for _, y := range ys {
			h := g.clone()
			if y == a^1 {
				h.take(a, y)
				addTo(out, 1/float64(len(ys)), p.gain(p.value(h, mover, 0, depth-1), mover))
				continue
			}
			if p.lru && slices.Contains(h.mem, y^1) {
				h.drop(y ^ 1)
				h.pending = []int{y ^ 1, y}
			} else {
				p.store(h, y, c)
			}
			addTo(out, 1/float64(len(ys)), p.handOver(h, mover, 0, depth, c))
		}
		return out
	}
	xs := g.unremembered(-1)
	for _, a := range xs {
		var seconds []int
		if ch == rules.Daring {
			seconds = g.unremembered(a)
		}
		if len(seconds) == 0 {
			named := g.mem[0]
			if p.pickNewest {
				named = g.mem[len(g.mem)-1]
			}
			seconds = []int{named}
		}
		for _, b := range seconds {
			q := 1 / float64(len(xs)) / float64(len(seconds))
			h := g.clone()
			p.see(h, a, c)
			if b == a^1 {
				h.take(a, b)
				addTo(out, q, p.gain(p.value(h, mover, 0, depth-1), mover))
				continue
			}
			p.see(h, b, c)
			addTo(out, q, p.handOver(h, mover, 0, depth, c))
		}
	}
	return out
}

// see turns up card x under blind flips, as flPlayer.blindSee.
func (p *fbPlayer) see(g *flGame, x, c int) {
	switch {
	case slices.Contains(g.mem, x):
		g.touch(x)
	case p.lru && slices.Contains(g.mem, x^1):
		g.drop(x ^ 1)
		g.pending = append(g.pending, x^1, x)
	default:
		p.store(g, x, c)
	}
}

func (p *fbPlayer) store(g *flGame, x, c int) {
	g.mem = append(g.mem, x)
	if p.lru && len(g.mem) > c {
		g.mem = g.mem[1:]
	}
}

// handOver passes the turn to the next seat at pass streak streak: handover-uniform forgets old
// cards uniformly, one at a time, until c remain.
func (p *fbPlayer) handOver(g *flGame, mover, streak, depth, c int) []float64 {
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
			addTo(out, 1/float64(len(olds)), p.handOver(h, mover, streak, depth, c))
		}
		return out
	}
	return p.value(g, (mover+1)%p.p, streak, depth-1)
}

// TestFluctBlindSeatsMatchesCardPlay plays deals of three pairs card by card at three seats under
// a fluctuating capacity and blind flips and compares every seat's expected pairs and whole
// score distribution with the exact model's: every seat for itself (its choices read from
// FluctSelfishTable's layer of the capacity drawn, at the pass streak), policies per seat, a best
// reply found card by card (against FluctSeatsReplyTable's and the model's values), both ways of
// naming safe's remembered card; and each choice's value at the first turn with each capacity
// drawn (FluctSeatsChoiceValues), the lineup played afterwards.
func TestFluctBlindSeatsMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	o, s, d, par, br := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity, rules.PolicyBestResponse
	type tcase struct {
		forget             rules.Forgetting
		m, sigma, n, depth int
		pass               rules.PassRule
		known              []int
		seats              [][]rules.Policy
		reply              rules.Policy // the others' policy against a best reply at seat 0 (0: none)
	}
	cases := []tcase{
		{rules.ForgetLRU, 2, 1, 3, 10, rules.PassNever, []int{0, 2}, [][]rules.Policy{{o, s, d}}, 0},
	}
	if !testing.Short() {
		cases = append(cases,
			tcase{rules.ForgetLRU, 2, 1, 3, 14, rules.PassNever, nil, [][]rules.Policy{{o, o, o}, {o, s, d}, {par, d, o}}, s},
			tcase{rules.ForgetHandoverUniform, 2, 1, 3, 14, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}, {d, o, s}}, 0},
			tcase{rules.ForgetHandoverUniform, 3, 1, 3, 14, rules.PassNever, []int{0, 2}, [][]rules.Policy{{o, o, o}, {s, o, d}}, d},
			tcase{rules.ForgetLRU, 2, 1, 3, 14, rules.PassTwoKnown, []int{0, 2}, [][]rules.Policy{{o, o, o}, {o, d, s}}, o},
			tcase{rules.ForgetLRU, 3, 2, 3, 14, rules.PassAlways, []int{0}, [][]rules.Policy{{o, o, o}}, 0})
	}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem, Pass: tc.pass, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		name := fmt.Sprintf("%s %s", tc.pass, mem)
		tab, err := exact.FluctSelfishTable(ctx, field.Float{}, m, 3, tc.n)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		opt := fspFromTable(t, name, tc.pass, tab, nil)
		pols := map[rules.Policy]fspChooser{o: opt, s: fspFixed(s), d: fspFixed(d), par: fspFixed(par)}
		start := rules.State{N: tc.n, J: tc.n - len(tc.known)}
		unit := 1
		if tc.pass != rules.PassNever {
			unit = 3
		}
		newPlayer := func(pickNewest bool, choose ...fspChooser) *fbPlayer {
			return &fbPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, p: 3, top: tc.depth,
				unit: unit, width: unit*tc.n + 1, pass: tc.pass, pickNewest: pickNewest, choose: choose, memo: map[string][]float64{}}
		}
		// check compares the card play's every seat's distribution with the model's for lineup mu.
		check := func(what string, pl *fbPlayer, got []float64, mu exact.Lineup) {
			unfinished := got[3*pl.width]
			tol := float64(tc.n)*unfinished + 1e-9
			want, err := exact.Evaluate(ctx, field.Float{}, m, mu, start)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			dist, err := exact.SeatsScoreDistribution(ctx, field.Float{}, m, mu, start)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if dist.Unit != unit {
				t.Fatalf("%s: unit %d, want %d", what, dist.Unit, unit)
			}
			for i := range 3 {
				if g := pl.mean(got, i); math.Abs(g-want.PairsBySeat[i]) > tol {
					t.Errorf("%s: seat %d: card play %.12f (unfinished %.2g), exact %.12f", what, i, g, unfinished, want.PairsBySeat[i])
				}
				for u, q := range dist.Prob[i] {
					if g := got[i*pl.width+u]; math.Abs(g-q) > unfinished+1e-9 {
						t.Errorf("%s: seat %d takes %d/%d pairs: card play %.12f (unfinished %.2g), exact %.12f", what, i, u, unit, g, unfinished, q)
					}
				}
			}
		}
		picks := []bool{false}
		if tc.forget == rules.ForgetLRU {
			picks = append(picks, true) // under lru safe's named card may be the one a new card evicts
		}
		for _, pick := range picks {
			for _, seats := range tc.seats {
				what := fmt.Sprintf("%s/%v/newest=%t", name, seats, pick)
				pl := newPlayer(pick, pols[seats[0]], pols[seats[1]], pols[seats[2]])
				check(what, pl, pl.value(newFlDeal(tc.n, tc.known), 0, 0, tc.depth), exact.SeatLineup(seats...))
			}
		}
		if tc.reply != 0 {
			what := fmt.Sprintf("%s/best-response to %s", name, tc.reply)
			pl := newPlayer(false, nil, pols[tc.reply], pols[tc.reply])
			pl.replies, pl.reply = true, 0
			mu := exact.Lineup{Players: 3, Policy: br, Opponent: tc.reply}
			check(what, pl, pl.value(newFlDeal(tc.n, tc.known), 0, 0, tc.depth), mu)
			rt, err := exact.FluctSeatsReplyTable(ctx, field.Float{}, m, 3, tc.reply, tc.n)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			pl = newPlayer(false, fspFromTable(t, what, tc.pass, rt, nil), pols[tc.reply], pols[tc.reply])
			check(what+" (table)", pl, pl.value(newFlDeal(tc.n, tc.known), 0, 0, tc.depth), mu)
		}
		// Each choice made once at the first turn with each capacity drawn, the lineup of every
		// seat for itself afterwards.
		for c0 := max(2, tc.m-tc.sigma); c0 <= tc.m+tc.sigma; c0++ {
			mu := exact.SeatLineup(o, o, o)
			vals, err := exact.FluctSeatsChoiceValues(ctx, field.Float{}, m, mu, start, c0, 0)
			if err != nil {
				t.Fatalf("%s: capacity %d: %v", name, c0, err)
			}
			for _, v := range vals.Values {
				once := func(st rules.State, c, streak int, first bool) rules.Choice {
					if first {
						return v.Choice
					}
					return opt(st, c, streak, first)
				}
				pl := newPlayer(false, once, opt, opt)
				got := pl.turn(newFlDeal(tc.n, tc.known), 0, 0, tc.depth, c0)
				unfinished := got[3*pl.width]
				for i := range 3 {
					if g := pl.mean(got, i); math.Abs(g-v.PairsBySeat[i]) > float64(tc.n)*unfinished+1e-9 {
						t.Errorf("%s: %s once with capacity %d: seat %d: card play %.12f (unfinished %.2g), exact %.12f", name, v.Choice, c0, i, g, unfinished, v.PairsBySeat[i])
					}
				}
			}
		}
	}
}
