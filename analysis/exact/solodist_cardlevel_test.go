package exact_test

// Solitaire's distribution of the number of turns (exact.SolitaireTurns) and its table
// (exact.SolitaireTable) against card-level play: every deal played out with perfect memory, and
// under limited memory the card-level turn (cardDist, cardlevel_test.go) iterated in order of the
// number of turns, which reads no count formula.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// soloDecider returns the choice of policy p in a state: a fixed policy's own, optimal's from
// solitaire's table of model m (the choices under test; the distribution they give is counted
// independently).
func soloDecider(t *testing.T, m exact.Model, p rules.Policy, maxPairs int) func(rules.State) rules.Choice {
	t.Helper()
	if p != rules.PolicyOptimal {
		return p.Decide
	}
	choice := map[rules.State]rules.Choice{}
	err := exact.SolitaireTable(context.Background(), field.Rat{}, m, maxPairs, func(c *exact.SolitaireCell[*big.Rat]) error {
		choice[c.State] = c.Choice
		return nil
	})
	if err != nil {
		t.Fatalf("SolitaireTable(%+v, %d): %v", m, maxPairs, err)
	}
	return func(st rules.State) rules.Choice {
		c, ok := choice[st]
		if !ok {
			t.Fatalf("state %v: not in solitaire's table", st)
		}
		return c
	}
}

// checkTurnsDist compares SolitaireTurns in exact rationals with want (want[t]: probability of
// exactly t turns, the rest beyond maxTurns), and checks that its mean is Evaluate's expected turns
// when nothing is left beyond maxTurns.
func checkTurnsDist(t *testing.T, m exact.Model, p rules.Policy, st rules.State, maxTurns int, want []*big.Rat) {
	t.Helper()
	ctx := context.Background()
	d, err := exact.SolitaireTurns[*big.Rat](ctx, field.Rat{}, m, p, st, maxTurns)
	if err != nil {
		t.Fatalf("SolitaireTurns(%+v, %v, %v): %v", m, p, st, err)
	}
	if len(d.Prob) != maxTurns+1 {
		t.Fatalf("%d probabilities, want %d", len(d.Prob), maxTurns+1)
	}
	tail := big.NewRat(1, 1)
	mean := new(big.Rat)
	for k := range d.Prob {
		w := new(big.Rat)
		if k < len(want) && want[k] != nil {
			w = want[k]
		}
		if d.Prob[k].Cmp(w) != 0 {
			t.Errorf("P(%d turns) = %s, card level %s", k, d.Prob[k].RatString(), w.RatString())
		}
		tail.Sub(tail, w)
		mean.Add(mean, new(big.Rat).Mul(w, big.NewRat(int64(k), 1)))
	}
	if d.Tail.Cmp(tail) != 0 {
		t.Errorf("P(more than %d turns) = %s, card level %s", maxTurns, d.Tail.RatString(), tail.RatString())
	}
	if tail.Sign() == 0 {
		res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, m, exact.Lineup{Players: 1, Policy: p, Opponent: p}, st)
		if err != nil {
			t.Fatal(err)
		}
		if res.ExpectedTurns.Cmp(mean) != 0 {
			t.Errorf("mean of the distribution %s, expected turns %s", mean.RatString(), res.ExpectedTurns.RatString())
		}
	}
}

// TestSolitaireTurnsEveryDeal plays every deal of small games with perfect memory (and
// singletons) at card level, one player, and compares the histogram of the number of turns with
// SolitaireTurns for daring, safe and optimal.
func TestSolitaireTurnsEveryDeal(t *testing.T) {
	type size struct{ n, s int }
	sizes := []size{{1, 0}, {2, 0}, {3, 0}, {2, 1}, {1, 2}}
	if !testing.Short() {
		sizes = append(sizes, size{4, 0}, size{3, 1}, size{2, 2})
	}
	for _, sz := range sizes {
		m := exact.Model{Pass: rules.PassNever, Singletons: sz.s}
		start := rules.State{N: sz.n, J: sz.n, S: sz.s, F: sz.s}
		deals := dealsOf(sz.n, sz.s)
		for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
			t.Run(fmt.Sprintf("n=%d,s=%d/%v", sz.n, sz.s, p), func(t *testing.T) {
				decide := soloDecider(t, m, p, sz.n)
				count := map[int64]int64{}
				for _, d := range deals {
					r := playDealWith(d, sz.n, 1, func(_ int, st rules.State) rules.Choice {
						c := decide(st)
						if c != rules.Daring && c != rules.Safe {
							t.Fatalf("state %v: choice %v, the card-level game plays daring and safe only", st, c)
						}
						return c
					})
					count[r.turns]++
				}
				maxTurns := exact.DefaultMaxTurns(sz.n, sz.s)
				want := make([]*big.Rat, maxTurns+1)
				for k, c := range count {
					if k > int64(maxTurns) {
						t.Fatalf("a deal took %d turns, more than %d", k, maxTurns)
					}
					want[k] = big.NewRat(c, int64(len(deals)))
				}
				checkTurnsDist(t, m, p, start, maxTurns, want)
			})
		}
	}
}

// cardTurnsDist iterates the card-level turn of memory cm in order of the number of turns: the
// probability of clearing the table from start in exactly t turns, t = 0 .. maxTurns, the mover
// making decide's choice in every count state reached.
func cardTurnsDist(t *testing.T, cm cardMemory, start rules.State, decide func(rules.State) rules.Choice, maxTurns int) []*big.Rat {
	t.Helper()
	steps := map[rules.State]dist{}
	queue := []rules.State{start}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		if _, ok := steps[st]; ok || st.N == 0 {
			continue
		}
		d, err := cardDist(st, nil, cm, decide(st), pickOldest)
		if err != nil {
			t.Fatalf("%v, state %v: %v", cm, st, err)
		}
		steps[st] = d.pruned()
		for k := range steps[st] {
			queue = append(queue, k.next)
		}
	}
	// p[t][st]: the probability of clearing the table from st in exactly t turns.
	p := make([]map[rules.State]*big.Rat, maxTurns+1)
	get := func(k int, st rules.State) *big.Rat {
		if k < 0 {
			return new(big.Rat)
		}
		if st.N == 0 {
			if k == 0 {
				return big.NewRat(1, 1)
			}
			return new(big.Rat)
		}
		if x := p[k][st]; x != nil {
			return x
		}
		return new(big.Rat)
	}
	for k := range p {
		p[k] = map[rules.State]*big.Rat{}
		for st, d := range steps {
			sum := new(big.Rat)
			for key, pr := range d {
				// A pair left fully known costs the next turn, which takes it.
				sum.Add(sum, new(big.Rat).Mul(pr, get(k-1-key.nextGain, key.next)))
			}
			p[k][st] = sum
		}
	}
	out := make([]*big.Rat, maxTurns+1)
	for k := range out {
		out[k] = get(k, start)
	}
	return out
}

// TestSolitaireTurnsLimitedMemoryCardLevel compares SolitaireTurns under lru and
// handover-uniform forgetting with the card-level turn iterated in order of the number of turns,
// up to a bound past which the rest's mass is compared too.
func TestSolitaireTurnsLimitedMemoryCardLevel(t *testing.T) {
	maxN, maxTurns := 3, 12
	if !testing.Short() {
		maxN, maxTurns = 4, 20
	}
	for _, fg := range []rules.Forgetting{rules.ForgetLRU, rules.ForgetHandoverUniform} {
		for _, capacity := range []int{2, 3} {
			cm := cardMemory{capacity: capacity, forget: fg}
			m := exact.Model{Pass: rules.PassNever, Memory: memoryOf(cm)}
			for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
				t.Run(fmt.Sprintf("%v/%v", cm, p), func(t *testing.T) {
					decide := soloDecider(t, m, p, maxN)
					for n := 1; n <= maxN; n++ {
						for j := max(0, n-capacity); j <= n; j++ {
							st := rules.State{N: n, J: j}
							want := cardTurnsDist(t, cm, st, decide, maxTurns)
							t.Run(st.String(), func(t *testing.T) { checkTurnsDist(t, m, p, st, maxTurns, want) })
						}
					}
				})
			}
		}
	}
}

// TestSolitaireTurnsMean checks, in float64, that the distribution's mean is the expected number
// of turns: exactly where nothing is left beyond the bound, and under forgetting up to the tail,
// which shrinks as the bound grows; and that blind solitaire's naive play (daring) has the
// documented mean (2n - 1) + (n - 1)/(2n - 1) and optimal 2n - 1.
func TestSolitaireTurnsMean(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		m exact.Model
		n int
	}
	blind := rules.Variant{Flips: rules.FlipsBlind}
	cases := []tc{
		{exact.Model{Pass: rules.PassNever}, 8},
		{exact.Model{Pass: rules.PassNever, Singletons: 2}, 5},
		{exact.Model{Pass: rules.PassNever, Memory: rules.Memory{Capacity: 4, Forget: rules.ForgetLRU}}, 6},
		{exact.Model{Pass: rules.PassNever, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetHandoverUniform}}, 5},
		{exact.Model{Pass: rules.PassNever, Variant: blind}, 8},
		{exact.Model{Pass: rules.PassNever, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU}, Variant: blind}, 5},
	}
	for _, c := range cases {
		for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
			st := rules.State{N: c.n, J: c.n, S: c.m.Singletons, F: c.m.Singletons}
			mu := exact.Lineup{Players: 1, Policy: p, Opponent: p}
			if mu.Validate(c.m) != nil {
				continue
			}
			res, err := exact.Evaluate[float64](ctx, field.Float{}, c.m, mu, st)
			if err != nil {
				t.Fatalf("Evaluate(%+v, %v): %v", c.m, p, err)
			}
			maxTurns := exact.DefaultMaxTurns(c.n, c.m.Singletons)
			if !c.m.Memory.Perfect() {
				maxTurns = 40 * c.n
			}
			d, err := exact.SolitaireTurns[float64](ctx, field.Float{}, c.m, p, st, maxTurns)
			if err != nil {
				t.Fatalf("SolitaireTurns(%+v, %v): %v", c.m, p, err)
			}
			mean, sum := 0.0, 0.0
			for k, x := range d.Prob {
				if x < 0 {
					t.Errorf("%+v %v: P(%d) = %g < 0", c.m, p, k, x)
				}
				mean += float64(k) * x
				sum += x
			}
			if math.Abs(sum+d.Tail-1) > 1e-12 {
				t.Errorf("%+v %v: probabilities sum to %g, tail %g", c.m, p, sum, d.Tail)
			}
			if c.m.Memory.Perfect() && math.Abs(d.Tail) > 1e-12 {
				t.Errorf("%+v %v: perfect memory leaves %g beyond %d turns", c.m, p, d.Tail, maxTurns)
			}
			if d.Tail > 1e-9 || math.Abs(mean-res.ExpectedTurns) > 1e-8 {
				t.Errorf("%+v %v: mean %.12f, tail %g beyond %d turns, expected turns %.12f", c.m, p, mean, d.Tail, maxTurns, res.ExpectedTurns)
			}
		}
	}
	for n := 1; n <= 10; n++ {
		m := exact.Model{Pass: rules.PassNever, Variant: blind}
		st := rules.State{N: n, J: n}
		for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicyOptimal} {
			d, err := exact.SolitaireTurns[*big.Rat](ctx, field.Rat{}, m, p, st, exact.DefaultMaxTurns(n, 0))
			if err != nil {
				t.Fatal(err)
			}
			mean := new(big.Rat)
			for k, x := range d.Prob {
				mean.Add(mean, new(big.Rat).Mul(x, big.NewRat(int64(k), 1)))
			}
			want := big.NewRat(int64(2*n-1), 1)
			if p == rules.PolicyDaring {
				want.Add(want, big.NewRat(int64(n-1), int64(2*n-1)))
			}
			if d.Tail.Sign() != 0 || mean.Cmp(want) != 0 {
				t.Errorf("blind solitaire, n = %d, %v: mean %s (tail %s), want %s", n, p, mean.RatString(), d.Tail.RatString(), want.RatString())
			}
		}
	}
}

// TestSolitaireTurnsRefused checks that the models without a turns distribution are refused.
func TestSolitaireTurnsRefused(t *testing.T) {
	ctx := context.Background()
	st := rules.State{N: 3, J: 3}
	for _, m := range []exact.Model{
		{Pass: rules.PassNever, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetLRU, Fluctuation: 1}},
		{Pass: rules.PassNever, Memory: rules.Memory{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.5}, Singletons: 1},
		{Pass: rules.PassNever, Variant: rules.Variant{TurnLimit: 4, Copies: 4}},
	} {
		if _, err := exact.SolitaireTurns[float64](ctx, field.Float{}, m, rules.PolicyOptimal, st, 10); err == nil {
			t.Errorf("%+v: no error", m)
		}
	}
}
