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

// A check of the fluctuating capacity under blind flips (docs/models.md §4.4, §4.17) against play
// card by card, independent of the count formulas: flPlayer (fluct_cardlevel_test.go) with blind
// set draws every turn's capacity, takes the pairs known whole one a turn, and plays daring and
// safe by naming both positions before either card is turned up.

// playBlind plays daring or safe under blind flips with capacity c drawn (the capacity's
// forgetting done): the first position named is one nobody remembers, whose card is uniform among
// the cards nobody remembers; the second, named before the first card is seen, is another such
// position for daring (the remembered card when none is left), a remembered card for safe. The
// first card is then seen, then the second.
func (p *flPlayer) playBlind(g *flGame, mover, depth, c int, ch rules.Choice) (float64, float64) {
	var v, tail float64
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
			p.blindSee(h, a, c)
			if b == a^1 {
				h.take(a, b)
				x, t := p.value(h, mover, depth-1)
				v += q * p.pair(mover, x)
				tail += q * t
				continue
			}
			p.blindSee(h, b, c)
			x, t := p.handOver(h, 0, mover, depth, c)
			v += q * x
			tail += q * t
		}
	}
	return v, tail
}

// blindSee turns up card x under blind flips: a remembered card becomes the most recently seen;
// under lru a card whose partner is remembered is recognised and the two are kept outside the
// capacity until taken; any other card is stored (lru forgetting the least recently seen beyond c;
// a named remembered card that was just forgotten so is seen again as a new card).
func (p *flPlayer) blindSee(g *flGame, x, c int) {
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

// TestFluctBlindMatchesCardPlay plays small deals card by card under a fluctuating capacity and
// blind flips and compares seat 0's lead with the exact model's: fixed policies, the optimum's
// and best-response's tables read at the capacity drawn, the optimum found card by card (each
// mover maximising its own lead over the choices, within the depth), and every legal choice's
// value after the draw (FluctChoiceValues) with the choice played card by card once. Three pairs
// under handover-uniform(4, σ 1) draw a capacity of n + 2, which still binds after a daring turn
// from (3, 0); handover-uniform(2, σ 1) draws 2, under which that turn from (2, 0) can repeat.
func TestFluctBlindMatchesCardPlay(t *testing.T) {
	ctx := context.Background()
	opt, safe, daring, parity, br := rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity, rules.PolicyBestResponse
	all := [][2]rules.Policy{{opt, opt}, {opt, safe}, {daring, opt}, {safe, daring}, {parity, opt}, {br, safe}, {br, daring}}
	type fcase struct {
		forget             rules.Forgetting
		m, sigma, n, depth int
		pairs              [][2]rules.Policy
		maximise           bool
	}
	cases := []fcase{
		{rules.ForgetLRU, 2, 1, 3, 14, all[1:], true},
	}
	if !testing.Short() {
		cases = append(cases, fcase{rules.ForgetHandoverUniform, 4, 1, 3, 12, all[:4], false},
			fcase{rules.ForgetHandoverUniform, 2, 1, 3, 30, all, true},
			fcase{rules.ForgetHandoverUniform, 3, 1, 4, 16, all[3:4], false})
	}
	for _, tc := range cases {
		mem := rules.Memory{Capacity: tc.m, Forget: tc.forget, Fluctuation: tc.sigma}
		m := exact.Model{Memory: mem, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		tab, err := exact.FluctTable(ctx, field.Float{}, m, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		fromTable := func(tab *rules.ChoiceTable) func(rules.State, int) rules.Choice {
			return func(st rules.State, c int) rules.Choice {
				ch, ok := tab.LookupCapacity(st, false, c)
				if !ok || !rules.Legal(st, ch, rules.PassNever) {
					t.Fatalf("%s: no legal choice in %v with capacity %d (%v, %t)", mem, st, c, ch, ok)
				}
				return ch
			}
		}
		fixed := func(p rules.Policy) func(rules.State, int) rules.Choice {
			return func(st rules.State, _ int) rules.Choice { return p.Decide(st) }
		}
		pols := map[rules.Policy]func(rules.State, int) rules.Choice{
			opt: fromTable(tab), safe: fixed(safe), daring: fixed(daring), parity: fixed(parity)}
		start := rules.State{N: tc.n, J: tc.n}
		tol := func(tail float64) float64 { return float64(tc.n)*tail + 1e-9 }
		picks := []bool{false}
		if tc.forget == rules.ForgetLRU {
			picks = append(picks, true) // under lru safe's named card may be the one a new card evicts
		}
		for _, pickNewest := range picks {
			for _, pair := range tc.pairs {
				name := fmt.Sprintf("%s/%s-%s/n=%d/newest=%t", mem, pair[0], pair[1], tc.n, pickNewest)
				first := pols[pair[0]]
				if pair[0] == br {
					rt, err := exact.FluctReplyTable(ctx, field.Float{}, m, pair[1], tc.n)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					first = fromTable(rt)
				}
				pl := &flPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, blind: true, pickNewest: pickNewest,
					choose: [2]func(rules.State, int) rules.Choice{first, pols[pair[1]]}, memo: map[string][2]float64{}}
				got, tail := pl.value(newFlDeal(tc.n, nil), 0, tc.depth)
				want, err := exact.Evaluate(ctx, field.Float{}, m, exact.Lineup{Players: 2, Policy: pair[0], Opponent: pair[1]}, start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if d := math.Abs(got - want.ExpectedLead); d > tol(tail) {
					t.Errorf("%s: card play %.12f (unfinished %.2g), exact %.12f", name, got, tail, want.ExpectedLead)
				}
			}
			if !tc.maximise || pickNewest {
				continue
			}
			// The optimum card by card, and each choice made once after the draw, both seats
			// optimal afterwards.
			name := fmt.Sprintf("%s/card-level optimum/n=%d/newest=%t", mem, tc.n, pickNewest)
			pl := &flPlayer{lru: tc.forget == rules.ForgetLRU, m: tc.m, sigma: tc.sigma, blind: true, pickNewest: pickNewest,
				maximise: [2]bool{true, true}, memo: map[string][2]float64{}}
			got, tail := pl.value(newFlDeal(tc.n, nil), 0, tc.depth)
			mu := exact.Lineup{Players: 2, Policy: opt, Opponent: opt}
			want, err := exact.Evaluate(ctx, field.Float{}, m, mu, start)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if d := math.Abs(got - want.ExpectedLead); d > tol(tail) {
				t.Errorf("%s: card play %.12f (unfinished %.2g), exact %.12f", name, got, tail, want.ExpectedLead)
			}
			checkFluctBlindChoices(t, ctx, m, tc.n, tc.depth, pickNewest, pols[opt])
		}
	}
}

// checkFluctBlindChoices compares FluctChoiceValues of both seats optimal under model m in every
// state of n pairs after every capacity drawn with each choice played card by card once, the
// optimum's table (opt) afterwards.
func checkFluctBlindChoices(t *testing.T, ctx context.Context, m exact.Model, n, depth int, pickNewest bool, opt func(rules.State, int) rules.Choice) {
	t.Helper()
	mem := m.Memory
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for c := max(2, mem.Capacity-mem.Fluctuation); c <= mem.Capacity+mem.Fluctuation; c++ {
		for k := 0; k <= n; k++ {
			if k > mem.Capacity+mem.Fluctuation || (mem.Forget == rules.ForgetLRU && k > c) {
				continue
			}
			st := rules.State{N: n, J: n - k}
			vals, err := exact.FluctChoiceValues(ctx, field.Float{}, m, mu, st, c)
			if err != nil {
				t.Fatalf("%s, %v, capacity %d: %v", mem, st, c, err)
			}
			for _, v := range vals.Values {
				name := fmt.Sprintf("%s, %v, capacity %d, %v once (newest=%t)", mem, st, c, v.Choice, pickNewest)
				var known []int
				for i := range k {
					known = append(known, 2*i)
				}
				g := newFlDeal(n, known)
				for _, x := range known {
					g.old[x] = true
				}
				pl := &flPlayer{lru: mem.Forget == rules.ForgetLRU, m: mem.Capacity, sigma: mem.Fluctuation, blind: true, pickNewest: pickNewest,
					choose: [2]func(rules.State, int) rules.Choice{opt, opt}, memo: map[string][2]float64{}}
				got, tail := pl.play(g, 0, depth, c, v.Choice, false)
				if d := math.Abs(got - v.Lead); d > float64(n)*tail+1e-9 {
					t.Errorf("%s: card play %.12f (unfinished %.2g), FluctChoiceValues %.12f", name, got, tail, v.Lead)
				}
			}
		}
	}
}
