package exact_test

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

// decaySinglesCases are decay memories (q = 1/2 and 1/4; no capacity, 2 and 3) with 1 and 2
// singletons, at card level and as the model's rules.Memory.
func decaySinglesCases() []struct {
	decayCase
	singles int
} {
	var out []struct {
		decayCase
		singles int
	}
	for _, q := range []struct {
		dec float64
		rat *big.Rat
	}{{0.5, big.NewRat(1, 2)}, {0.25, big.NewRat(1, 4)}} {
		for _, capacity := range []int{0, 2, 3} {
			for _, s := range []int{1, 2} {
				out = append(out, struct {
					decayCase
					singles int
				}{decayCase{
					card: cardMemory{capacity: capacity, forget: rules.ForgetDecay, q: q.rat},
					mem:  rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: q.dec},
				}, s})
			}
		}
	}
	return out
}

// decaySinglesStates lists the states with 1 to maxN pairs and s singletons a memory of the
// capacity can hold.
func decaySinglesStates(mem rules.Memory, maxN, s int) []rules.State {
	var out []rules.State
	for n := 1; n <= maxN; n++ {
		for j := 0; j <= n; j++ {
			for f := 0; f <= s; f++ {
				st := rules.State{N: n, J: j, S: s, F: f}
				if mem.Holds(st.Known()) {
					out = append(out, st)
				}
			}
		}
	}
	return out
}

var threeChoices = []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst}

// decaySinglesDist aggregates the decay model's outcomes with singletons by outcome key.
func decaySinglesDist(m exact.Model, st rules.State, c rules.Choice) (dist, error) {
	outs, probs, err := exact.DecaySinglesOutcomes(m, st, c)
	if err != nil {
		return nil, err
	}
	d := dist{}
	for i, o := range outs {
		if probs[i].Sign() <= 0 {
			return nil, fmt.Errorf("outcome %+v: probability %s", o, probs[i].RatString())
		}
		d.add(outKey{o.Continue, o.MoverGain, o.NextGain, o.Next}, probs[i])
	}
	return d, nil
}

// TestDecaySinglesOutcomesAreCardLevel compares the turn distributions of the decay model with
// singletons with the card-level enumeration of the turn and of every forgetting outcome at the
// hand-over (every subset of the remembered cards, then the capacity's uniform forgetting card by
// card), for every state with up to 3 pairs (2 in short mode, and q = 1/2 only) and 1 or 2 singletons.
func TestDecaySinglesOutcomesAreCardLevel(t *testing.T) {
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	compared := 0
	for _, dc := range decaySinglesCases() {
		if testing.Short() && dc.mem.Decay != 0.5 {
			continue
		}
		m := exact.Model{Memory: dc.mem, Singletons: dc.singles}
		if err := m.Validate(); err != nil {
			t.Fatalf("%v: %v", dc.mem, err)
		}
		for _, st := range decaySinglesStates(dc.mem, maxN, dc.singles) {
			for _, c := range threeChoices {
				if !m.Legal(st, c) {
					continue
				}
				want, err := decaySinglesDist(m, st, c)
				if err != nil {
					t.Fatalf("%v, %v, %v: %v", dc.card, st, c, err)
				}
				if tot := want.total(); tot.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%v, %v, %v: model probabilities sum to %s", dc.card, st, c, tot.RatString())
				}
				for _, pick := range []pickRule{pickOldest, pickNewest} {
					got, err := cardDist(st, nil, dc.card, c, pick)
					if err != nil {
						t.Fatalf("%v, %v, %v: %v", dc.card, st, c, err)
					}
					compared++
					if !got.equal(want) {
						t.Fatalf("%v, state %v, choice %v, pick %v:\n  card level:%v\n  model:%v", dc.card, st, c, pick, got, want)
					}
				}
			}
		}
	}
	t.Logf("compared %d card-level turn distributions", compared)
}

// decaySinglesChain builds the card-level turn distributions of every state with at most maxN
// pairs and s singletons.
func decaySinglesChain(dc decayCase, maxN, s int) (cardChain, error) {
	ch := cardChain{}
	for _, st := range decaySinglesStates(dc.mem, maxN, s) {
		ch[st] = map[rules.Choice][]cardStep{}
		for _, c := range threeChoices {
			if !rules.Legal(st, c, rules.PassNever) {
				continue
			}
			d, err := cardDist(st, nil, dc.card, c, pickOldest)
			if err != nil {
				return nil, err
			}
			for k, p := range d.pruned() {
				f, _ := p.Float64()
				ch[st][c] = append(ch[st][c], cardStep{f, k})
			}
		}
	}
	return ch, nil
}

// stepLead is the mover's lead after the card-level steps of one choice, lead(r, st) being the
// lead of the role r moving in st (0 with no pair left); the turn passes from role r to 1 - r.
func stepLead(steps []cardStep, r int, lead func(r int, st rules.State) float64) float64 {
	x := 0.0
	for _, s := range steps {
		if s.key.cont {
			x += s.p * (float64(s.key.moverGain) + lead(r, s.key.next))
		} else {
			x -= s.p * (float64(s.key.nextGain) + lead(1-r, s.key.next))
		}
	}
	return x
}

// bestResponseLeads iterates, on the chain, the lead of a best reply (role 0, the largest over
// its legal choices) to the fixed policy opp (role 1), both roles' leads.
func (ch cardChain) bestResponseLeads(opp rules.Policy) [2]map[rules.State]float64 {
	v := [2]map[rules.State]float64{{}, {}}
	lead := func(r int, st rules.State) float64 { return v[r][st] } // zero for n = 0
	for range 1_000_000 {
		delta := 0.0
		for st, choices := range ch {
			best := math.Inf(-1)
			for _, steps := range choices {
				best = math.Max(best, stepLead(steps, 0, lead))
			}
			other := stepLead(choices[opp.Decide(st)], 1, lead)
			delta = math.Max(delta, math.Max(math.Abs(best-v[0][st]), math.Abs(other-v[1][st])))
			v[0][st], v[1][st] = best, other
		}
		if delta < 1e-14 {
			break
		}
	}
	return v
}

// TestDecaySinglesGameIsCardLevel compares the decay model with singletons with value iteration
// on the card-level turns, from every state with up to 3 pairs (2 in short mode) and 1 or 2
// singletons: the two-player optimum's lead (exact rationals) and every legal choice's lead with
// the optimum afterwards, fixed policies against safe (every seat's pairs, float64), and the best
// response to safe and to daring. Short mode keeps three of the memories.
func TestDecaySinglesGameIsCardLevel(t *testing.T) {
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	ctx := context.Background()
	for _, dc := range decaySinglesCases() {
		short := map[[2]int]float64{{0, 2}: 0.5, {2, 1}: 0.5, {3, 2}: 0.25} // capacity, singletons: q
		if q, ok := short[[2]int{dc.mem.Capacity, dc.singles}]; testing.Short() && (!ok || q != dc.mem.Decay) {
			continue
		}
		chain, err := decaySinglesChain(dc.decayCase, maxN, dc.singles)
		if err != nil {
			t.Fatal(err)
		}
		model := exact.Model{Memory: dc.mem, Singletons: dc.singles}
		t.Run(fmt.Sprintf("%v/s=%d", dc.card, dc.singles), func(t *testing.T) {
			opt := chain.optimalLeads()
			optLead := func(_ int, st rules.State) float64 { return opt[st] }
			self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
			for st, w := range opt {
				res, err := exact.Evaluate(ctx, field.Rat{}, model, self, st)
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := res.ExpectedLead.Float64(); math.Abs(got-w) > 1e-9 {
					t.Errorf("optimal, state %v: lead %v, card level %v", st, got, w)
				}
				cv, err := exact.ChoiceValues(ctx, field.Float{}, model, self, st)
				if err != nil {
					t.Fatal(err)
				}
				for c, steps := range chain[st] {
					v, ok := cv.Of(c)
					if !ok {
						t.Errorf("state %v: %v missing from the choices' values", st, c)
						continue
					}
					if want := stepLead(steps, 0, optLead); math.Abs(v.Lead-want) > 1e-9 {
						t.Errorf("state %v, %v then optimal: lead %v, card level %v", st, c, v.Lead, want)
					}
				}
			}
			for _, pol := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring} {
				want, err := chain.valueIterate(2, pol, rules.PolicySafe)
				if err != nil {
					t.Fatal(err)
				}
				mu := exact.Lineup{Players: 2, Policy: pol, Opponent: rules.PolicySafe}
				for st, w := range want {
					res, err := exact.Evaluate(ctx, field.Float{}, model, mu, st)
					if err != nil {
						t.Fatalf("%v %v: %v", mu, st, err)
					}
					for seat := range 2 {
						if math.Abs(res.PairsBySeat[seat]-w[seat]) > 1e-9 {
							t.Errorf("%v vs safe, state %v: pairs by seat %v, card level %v", pol, st, res.PairsBySeat, w)
							break
						}
					}
				}
			}
			for _, opp := range []rules.Policy{rules.PolicySafe, rules.PolicyDaring} {
				want := chain.bestResponseLeads(opp)
				mu := exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: opp}
				for st, w := range want[0] {
					res, err := exact.Evaluate(ctx, field.Rat{}, model, mu, st)
					if err != nil {
						t.Fatalf("%v %v: %v", mu, st, err)
					}
					if got, _ := res.ExpectedLead.Float64(); math.Abs(got-w) > 1e-9 {
						t.Errorf("best response to %v, state %v: lead %v, card level %v", opp, st, got, w)
					}
				}
			}
		})
	}
}

// TestDecaySinglesIdentities checks the decay model with singletons against other models: with
// no singletons its turns are the decay model's; q = 1e-9 without a capacity is within 1e-6 of
// perfect memory with singletons; a capacity of 2n + s is none; the seats' pairs add up to n.
func TestDecaySinglesIdentities(t *testing.T) {
	ctx := context.Background()
	maxN := 5
	if testing.Short() {
		maxN = 3
	}
	for _, dc := range decaySinglesCases() {
		m := exact.Model{Memory: dc.mem}
		for _, st := range decaySinglesStates(dc.mem, maxN, 0) {
			for _, c := range threeChoices {
				if !m.Legal(st, c) {
					continue
				}
				got, err := decaySinglesDist(m, st, c)
				if err != nil {
					t.Fatal(err)
				}
				want, err := decayModelDist(m, st, c)
				if err != nil {
					t.Fatal(err)
				}
				if !got.equal(want) {
					t.Fatalf("%v, no singletons, %v, %v:\n  with singletons' turns:%v\n  decay model:%v", dc.card, st, c, got, want)
				}
			}
		}
	}
	self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for s := 1; s <= 2; s++ {
		for n := 1; n <= maxN-1; n++ {
			st := rules.State{N: n, J: n, S: s, F: s}
			near := exact.Model{Singletons: s, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 1e-9}}
			perfect := exact.Model{Singletons: s}
			a, err := exact.Evaluate(ctx, field.Float{}, near, self, st)
			if err != nil {
				t.Fatal(err)
			}
			b, err := exact.Evaluate(ctx, field.Float{}, perfect, self, st)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(a.ExpectedPairs-b.ExpectedPairs) > 1e-6 {
				t.Errorf("%v: q = 1e-9 gives %v, perfect memory %v", st, a.ExpectedPairs, b.ExpectedPairs)
			}
			none := exact.Model{Singletons: s, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.3}}
			full := none
			full.Memory.Capacity = 2*n + s
			for _, mu := range []exact.Lineup{self, {Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicySafe}} {
				x, err := exact.Evaluate(ctx, field.Rat{}, none, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				y, err := exact.Evaluate(ctx, field.Rat{}, full, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				if x.ExpectedPairs.Cmp(y.ExpectedPairs) != 0 {
					t.Errorf("%v, %v: capacity %d gives %s, none %s", st, mu, 2*n+s, y.ExpectedPairs.RatString(), x.ExpectedPairs.RatString())
				}
				sum := new(big.Rat).Add(x.PairsBySeat[0], x.PairsBySeat[1])
				if sum.Cmp(big.NewRat(int64(n), 1)) != 0 {
					t.Errorf("%v, %v: the seats' pairs add up to %s", st, mu, sum.RatString())
				}
			}
		}
	}
}
