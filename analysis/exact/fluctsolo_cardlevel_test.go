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

// Solitaire under a fluctuating capacity played card by card (flGame, fluct_cardlevel_test.go):
// every turn draws its capacity max(2, m + d) for every d in -σ .. σ, a turn that only takes a
// pair known whole included; a turn costs one; a lucky match is a turn whose first card is new
// (its partner not remembered) and whose second is that partner. Games that can last for ever are
// cut after depth turns; the expectations count the turns played by then.

// fsoPlayer plays solitaire card by card: lru or handover-uniform, base capacity m, fluctuation
// sigma, the choice in (n, j) with capacity c drawn (nil: the first choice of fewest turns, card
// by card).
type fsoPlayer struct {
	lru      bool
	m, sigma int
	choose   func(st rules.State, c int) rules.Choice
	memo     map[string][3]float64
}

// fso is a value of a solitaire position: expected turns, lucky matches, and the probability that
// the game is not over after the turns counted.
type fso [3]float64

func (v fso) plus(q float64, w fso) fso {
	return fso{v[0] + q*w[0], v[1] + q*w[1], v[2] + q*w[2]}
}

// turnCost adds the turn just played (lucky when set) to the rest of the game, w.
func turnCost(w fso, lucky bool) fso {
	return fso{1 + w[0], float64(btoi(lucky)) + w[1], w[2]}
}

func (p *fsoPlayer) store(g *flGame, x, c int) {
	g.mem = append(g.mem, x)
	if p.lru && len(g.mem) > c {
		g.mem = g.mem[1:]
	}
}

func (p *fsoPlayer) second(g *flGame, y, c int) {
	if p.lru && slices.Contains(g.mem, y^1) {
		g.drop(y ^ 1)
		g.pending = []int{y ^ 1, y}
		return
	}
	p.store(g, y, c)
}

// value returns the position's value at the start of a turn, before the draw, within depth turns.
func (p *fsoPlayer) value(g *flGame, depth int) fso {
	if !slices.Contains(g.present, true) {
		return fso{}
	}
	if depth == 0 {
		return fso{0, 0, 1}
	}
	k := g.key(0, depth)
	if v, ok := p.memo[k]; ok {
		return v
	}
	var v fso
	w := 1 / float64(2*p.sigma+1)
	for d := -p.sigma; d <= p.sigma; d++ {
		v = v.plus(w, p.turn(g.clone(), depth, max(2, p.m+d), nil))
	}
	p.memo[k] = v
	return v
}

// turn plays a turn with capacity c drawn: *first, when first is not nil, in place of the
// policy's choice.
func (p *fsoPlayer) turn(g *flGame, depth, c int, first *rules.Choice) fso {
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
		return turnCost(p.value(g, depth-1), false)
	}
	for _, a := range g.mem {
		if slices.Contains(g.mem, a^1) {
			g.take(a, a^1)
			return turnCost(p.value(g, depth-1), false)
		}
	}
	st := g.state()
	switch {
	case first != nil:
		return p.play(g, depth, c, *first)
	case p.choose != nil:
		return p.play(g, depth, c, p.choose(st, c))
	}
	var best fso
	have := false
	for _, ch := range rules.Choices() {
		if ch == rules.Pass || !rules.Legal(st, ch, rules.PassNever) {
			continue
		}
		if v := p.play(g.clone(), depth, c, ch); !have || v[0] < best[0]-1e-12 {
			best, have = v, true
		}
	}
	return best
}

// play plays choice ch in a turn with capacity c drawn, the capacity's forgetting done.
func (p *fsoPlayer) play(g *flGame, depth, c int, ch rules.Choice) fso {
	var v fso
	if ch == rules.KnownFirst {
		a := g.mem[0]
		g.touch(a)
		ys := g.unremembered(-1)
		for _, y := range ys {
			v = v.plus(1/float64(len(ys)), p.afterSecond(g.clone(), a, y, depth, c, false))
		}
		return v
	}
	xs := g.unremembered(-1)
	for _, x := range xs {
		q := 1 / float64(len(xs))
		h := g.clone()
		if slices.Contains(h.mem, x^1) {
			h.take(x, x^1)
			v = v.plus(q, turnCost(p.value(h, depth-1), false))
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
			v = v.plus(q, p.handOver(h, depth, c))
			continue
		}
		ys := h.unremembered(x)
		for _, y := range ys {
			v = v.plus(q/float64(len(ys)), p.afterSecond(h.clone(), x, y, depth, c, true))
		}
	}
	return v
}

// afterSecond ends a turn whose first card is a (new when fresh) and second card y.
func (p *fsoPlayer) afterSecond(g *flGame, a, y, depth, c int, fresh bool) fso {
	if y == a^1 {
		g.take(a, y)
		return turnCost(p.value(g, depth-1), fresh)
	}
	p.second(g, y, c)
	return p.handOver(g, depth, c)
}

// handOver ends a turn without a pair: handover-uniform forgets old cards uniformly, one at a
// time, until c remain.
func (p *fsoPlayer) handOver(g *flGame, depth, c int) fso {
	if !p.lru && len(g.mem) > c {
		var olds []int
		for _, x := range g.mem {
			if g.old[x] {
				olds = append(olds, x)
			}
		}
		var v fso
		for _, x := range olds {
			h := g.clone()
			h.drop(x)
			h.old[x] = false
			v = v.plus(1/float64(len(olds)), p.handOver(h, depth, c))
		}
		return v
	}
	return turnCost(p.value(g, depth-1), false)
}

// fsoClose reports whether the card-level value got, cut after some turns with probability
// got[2] unfinished, agrees with the exact turns and lucky matches: the turns not counted are at
// most the unfinished probability times a generous bound of a game's remaining turns.
func fsoClose(got fso, turns, lucky float64, n int) bool {
	tol := got[2]*float64(40*n) + 1e-9
	return math.Abs(got[0]-turns) <= tol && math.Abs(got[1]-lucky) <= tol
}

// TestFluctSolitaireMatchesCardPlay plays solitaire under a fluctuating capacity card by card,
// every deal and every capacity drawn, and compares the expected turns and lucky matches with
// the exact model's, for safe, daring, parity, the optimum found card by card and the optimum's
// table (read by the capacity drawn); and every legal choice's turns and lucky matches after
// each capacity drawn in positions with known cards.
func TestFluctSolitaireMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	type scase struct {
		forget             rules.Forgetting
		m, sigma, n, depth int
	}
	cases := []scase{
		{rules.ForgetLRU, 2, 1, 3, 16},
		{rules.ForgetHandoverUniform, 2, 1, 3, 16},
	}
	if !testing.Short() {
		cases = append(cases, scase{rules.ForgetLRU, 3, 1, 4, 20}, scase{rules.ForgetHandoverUniform, 3, 2, 4, 18})
	}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem}
		tab, err := exact.FluctSoloTable(ctx, field.Float{}, m, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		fromTable := func(st rules.State, c int) rules.Choice {
			ch, ok := tab.LookupCapacity(st, false, c)
			if !ok {
				t.Fatalf("%s: no choice in %v with capacity %d", mem, st, c)
			}
			return ch
		}
		fixed := func(p rules.Policy) func(rules.State, int) rules.Choice {
			return func(st rules.State, _ int) rules.Choice { return p.Decide(st) }
		}
		players := []struct {
			name   string
			pol    rules.Policy
			choose func(rules.State, int) rules.Choice
		}{
			{"optimal card by card", rules.PolicyOptimal, nil},
			{"optimal's table", rules.PolicyOptimal, fromTable},
			{"safe", rules.PolicySafe, fixed(rules.PolicySafe)},
			{"daring", rules.PolicyDaring, fixed(rules.PolicyDaring)},
			{"parity", rules.PolicyParity, fixed(rules.PolicyParity)},
		}
		for _, pl := range players {
			name := fmt.Sprintf("%s/%s/n=%d", mem, pl.name, tc.n)
			p := &fsoPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, choose: pl.choose, memo: map[string][3]float64{}}
			got := p.value(newFlDeal(tc.n, nil), tc.depth)
			mu := exact.Lineup{Players: 1, Policy: pl.pol}
			want, err := exact.Evaluate(ctx, field.Float{}, m, mu, rules.State{N: tc.n, J: tc.n})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !fsoClose(got, want.ExpectedTurns, want.ExpectedLucky, tc.n) {
				t.Errorf("%s: card play %.12f turns %.12f lucky (unfinished %.2g), exact %.12f, %.12f", name, got[0], got[1], got[2], want.ExpectedTurns, want.ExpectedLucky)
			}
			if pl.choose == nil || testing.Short() && pl.pol != rules.PolicyOptimal && pl.pol != rules.PolicySafe {
				continue // the choices' values below: after the table's and the fixed policies (short: optimal and safe)
			}
			// Every legal choice after each capacity drawn, the policy afterwards.
			for k := 1; k <= min(tc.n, tc.m+tc.sigma); k++ {
				for d := -tc.sigma; d <= tc.sigma; d++ {
					c := max(2, tc.m+d)
					if tc.forget == rules.ForgetLRU && k > c {
						continue
					}
					st := rules.State{N: tc.n, J: tc.n - k}
					cv, err := exact.FluctChoiceValues(ctx, field.Float{}, m, mu, st, c)
					if err != nil {
						t.Fatalf("%s %v c=%d: %v", name, st, c, err)
					}
					for _, v := range cv.Values {
						got := p.turn(flPosition(tc.n, k), tc.depth, c, &v.Choice)
						if !fsoClose(got, v.Turns, v.Lucky, tc.n) {
							t.Errorf("%s %v c=%d %s: card play %.12f turns %.12f lucky (unfinished %.2g), exact %.12f, %.12f", name, st, c, v.Choice, got[0], got[1], got[2], v.Turns, v.Lucky)
						}
					}
				}
			}
		}
	}
}
