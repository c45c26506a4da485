package exact_test

// Blind flips with decay forgetting (docs/models.md §4.17, §4.14), checked card by card without
// the count formulas: each blind turn played on an explicit table (blindCardTurn), each card
// remembered at the hand-over forgotten with probability q in every combination (decayHandOver),
// and every state's value as the exact solution of the chain of card-level turns.

import (
	"context"
	"math"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// blindDecayMemories are the decay memories checked under blind flips: q = 1/4 and 1, without a
// capacity and with capacities 2 and 3 (q = 1/2 too without -short).
func blindDecayMemories() []decayCase {
	var out []decayCase
	for _, dc := range decayCases() {
		if testing.Short() && dc.mem.Decay == 0.5 {
			continue
		}
		out = append(out, dc)
	}
	return out
}

// TestBlindDecayOutcomesMatchCardLevel compares the blind turn's outcomes under decay forgetting
// with the card-level enumeration of the turn and of the hand-over (every subset of the
// remembered cards forgotten, then the capacity's excess among the old cards), in every state of
// up to 5 pairs (3 with -short) and every choice legal under pass rule never, with both ways of
// picking the remembered card named.
func TestBlindDecayOutcomesMatchCardLevel(t *testing.T) {
	maxN := 5
	if testing.Short() {
		maxN = 3
	}
	compared := 0
	for _, dc := range blindDecayMemories() {
		m := dc.card
		model := exact.Model{Memory: dc.mem, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		if err := model.Validate(); err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		for n := 1; n <= maxN; n++ {
			for j := m.jMin(n); j <= n; j++ {
				st := rules.State{N: n, J: j}
				for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
					if !rules.Legal(st, c, rules.PassNever) {
						continue
					}
					outs, probs, err := exact.BlindDecayOutcomes(model, st, c)
					if err != nil {
						t.Fatalf("%v, %v, %v: %v", m, st, c, err)
					}
					want := dist{}
					for i, o := range outs {
						if probs[i].Sign() <= 0 {
							t.Fatalf("%v, %v, %v: outcome %+v has probability %s", m, st, c, o, probs[i].RatString())
						}
						want.add(outKey{o.Continue, o.MoverGain, o.NextGain, o.Next}, probs[i])
					}
					if tot := want.total(); tot.Cmp(big.NewRat(1, 1)) != 0 {
						t.Errorf("%v, %v, %v: the outcomes' probabilities sum to %s", m, st, c, tot.RatString())
					}
					for _, pick := range []pickRule{pickOldest, pickNewest} {
						got, err := blindCardDist(st, nil, m, c, pick)
						if err != nil {
							t.Fatalf("%v, %v, %v, pick %v: %v", m, st, c, pick, err)
						}
						compared++
						if !got.pruned().equal(want) {
							t.Fatalf("%v, state %v, %v (pick %v):\n  card level:%v\n  model:%v", m, st, c, pick, got, want)
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d card-level blind decay turns with the model", compared)
}

// TestBlindDecayGameMatchesCardLevel compares every state's values under blind flips and decay
// forgetting (q = 1/4 and 1, no capacity and capacity 3; up to 4 pairs; q = 1/4 and 3 pairs with
// -short) with the exact solution of the chain of card-level turns: fixed policies at two and three seats, and the
// tables the solver writes for the two-player optimum, a best response to daring and the
// optimum of every seat for itself at three seats, played in the chain; no choice made once in
// any state gives its mover more than the table's, the seats' values add up to n, and at two
// seats the score distribution's mean is seat 0's value.
func TestBlindDecayGameMatchesCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN := 4
	if testing.Short() {
		maxN = 3
	}
	lineups := []blindLineup{
		{exact.Lineup{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring}, false},
		{exact.Lineup{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyParity}, false},
		{exact.Lineup{Players: 3, Policy: rules.PolicyDaring, Opponent: rules.PolicyDaring}, false},
		{exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, true},
		{exact.Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: rules.PolicyDaring}, true},
		{exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, true},
	}
	compared := 0
	for _, dc := range blindDecayMemories() {
		if dc.mem.Capacity == 2 || dc.mem.Decay == 0.5 || (testing.Short() && dc.mem.Decay == 1) {
			continue
		}
		model := exact.Model{Memory: dc.mem, Variant: rules.Variant{Flips: rules.FlipsBlind}}
		compared += compareBlindChain(t, ctx, dc.card, model, lineups, maxN)
	}
	t.Logf("compared %d exact values with the card-level chain", compared)
}

// TestBlindDecayIdentities checks blind flips with decay forgetting against a second method and
// the float64 path: with q = 1 every turn starts with nothing remembered, so only daring is legal
// and the mover takes a pair with probability 1/(2n - 1) at each flip of two cards, whatever the
// lineup; the mover's expected pairs E(n) then solve E(n) = p (1 + E(n-1)) + (1 - p)(n - E(n)),
// p = 1/(2n - 1). float64 agrees with exact rationals for q = 1/4 with and without a capacity.
func TestBlindDecayIdentities(t *testing.T) {
	ctx := context.Background()
	maxN := 6
	if testing.Short() {
		maxN = 4
	}
	lineups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicySafe, Opponent: rules.PolicyDaring},
		{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal},
	}
	blind := rules.Variant{Flips: rules.FlipsBlind}
	// e[n]: the mover's expected pairs of n at two seats with q = 1.
	e := []*big.Rat{new(big.Rat)}
	for n := 1; n <= maxN; n++ {
		p := big.NewRat(1, int64(2*n-1))
		// E = p(1 + E(n-1)) + (1-p)(n - E)  =>  E (2 - p) = p(1 + E(n-1)) + (1-p) n.
		one := big.NewRat(1, 1)
		rhs := new(big.Rat).Mul(p, new(big.Rat).Add(one, e[n-1]))
		rhs.Add(rhs, new(big.Rat).Mul(new(big.Rat).Sub(one, p), big.NewRat(int64(n), 1)))
		e = append(e, rhs.Quo(rhs, new(big.Rat).Sub(big.NewRat(2, 1), p)))
	}
	for n := 1; n <= maxN; n++ {
		st := rules.State{N: n, J: n}
		for _, capacity := range []int{0, 3} {
			allGone := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 1}, Variant: blind}
			for _, mu := range lineups[:2] {
				got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, allGone, mu, st)
				if err != nil {
					t.Fatalf("q=1, %v, n=%d: %v", mu, n, err)
				}
				if got.PairsBySeat[0].Cmp(e[n]) != 0 {
					t.Errorf("q=1, capacity %d, %v, n=%d: seat 0 expects %s, the recursion %s",
						capacity, mu, n, got.PairsBySeat[0].RatString(), e[n].RatString())
				}
			}
			model := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 0.25}, Variant: blind}
			for _, mu := range lineups {
				got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, st)
				if err != nil {
					t.Fatalf("%v, %v, n=%d: %v", model.Memory, mu, n, err)
				}
				fl, err := exact.Evaluate[float64](ctx, field.Float{}, model, mu, st)
				if err != nil {
					t.Fatalf("%v, %v, n=%d, float64: %v", model.Memory, mu, n, err)
				}
				for s := range mu.Players {
					if x, _ := got.PairsBySeat[s].Float64(); math.Abs(fl.PairsBySeat[s]-x) > 1e-12 {
						t.Errorf("%v, %v, n=%d: seat %d expects %v in float64, %v in exact rationals", model.Memory, mu, n, s, fl.PairsBySeat[s], x)
					}
				}
			}
		}
	}
}
