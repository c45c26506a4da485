package exact_test

// Solitaire's distribution of the number of turns under decay forgetting (exact.SolitaireTurns)
// against the card-level turn (cardDist, cardlevel_test.go) iterated in order of the number of
// turns: every card forgotten independently at the hand-over, which reads no count formula.

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

// decaySoloDecider returns the choice of policy p in a state of solitaire under decay forgetting:
// a fixed policy's own, optimal's from the solver's one-seat policy table (the choices under
// test; the distribution they give is counted independently).
func decaySoloDecider(t *testing.T, m exact.Model, p rules.Policy, maxPairs int) func(rules.State) rules.Choice {
	t.Helper()
	if p != rules.PolicyOptimal {
		return p.Decide
	}
	tab, err := exact.PolicyTable[*big.Rat](context.Background(), field.Rat{}, m, exact.Lineup{Players: 1, Policy: p, Opponent: p}, maxPairs)
	if err != nil {
		t.Fatalf("PolicyTable(%+v, one seat): %v", m, err)
	}
	return func(st rules.State) rules.Choice {
		c, ok := tab.Lookup(st, false)
		if !ok {
			t.Fatalf("state %v: not in the one-seat policy table", st)
		}
		return c
	}
}

// TestSolitaireTurnsDecayCardLevel compares SolitaireTurns under decay forgetting, with and
// without a capacity, with the card-level turn iterated in order of the number of turns, up to a
// bound past which the rest's mass is compared too.
func TestSolitaireTurnsDecayCardLevel(t *testing.T) {
	maxN, maxTurns := 3, 9
	if !testing.Short() {
		maxN, maxTurns = 4, 16
	}
	for _, mem := range []struct {
		q        *big.Rat
		capacity int
	}{{big.NewRat(3, 10), 0}, {big.NewRat(1, 2), 2}} {
		cm := cardMemory{capacity: mem.capacity, forget: rules.ForgetDecay, q: mem.q}
		qf, _ := mem.q.Float64()
		m := exact.Model{Pass: rules.PassNever, Memory: rules.Memory{Capacity: mem.capacity, Forget: rules.ForgetDecay, Decay: qf}}
		for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
			t.Run(fmt.Sprintf("%v/%v", cm, p), func(t *testing.T) {
				decide := decaySoloDecider(t, m, p, maxN)
				for n := 1; n <= maxN; n++ {
					lo := 0
					if mem.capacity > 0 {
						lo = max(0, n-mem.capacity)
					}
					for _, j := range []int{lo, n} {
						st := rules.State{N: n, J: j}
						want := cardTurnsDist(t, cm, st, decide, maxTurns)
						t.Run(st.String(), func(t *testing.T) { checkTurnsDist(t, m, p, st, maxTurns, want) })
					}
				}
			})
		}
	}
}

// TestSolitaireTurnsDecayMean checks, in float64, that under decay forgetting the distribution's
// mean approaches the expected number of turns (the row equations' solution, a second method) as
// the bound grows, and that the probabilities and the tail sum to one.
func TestSolitaireTurnsDecayMean(t *testing.T) {
	ctx := context.Background()
	n := 4
	if !testing.Short() {
		n = 8
	}
	for _, mem := range []rules.Memory{
		{Forget: rules.ForgetDecay, Decay: 0.3},
		{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.2},
	} {
		m := exact.Model{Pass: rules.PassNever, Memory: mem}
		for _, p := range []rules.Policy{rules.PolicySafe, rules.PolicyOptimal} {
			st := rules.State{N: n, J: n}
			res, err := exact.Evaluate[float64](ctx, field.Float{}, m, exact.Lineup{Players: 1, Policy: p, Opponent: p}, st)
			if err != nil {
				t.Fatalf("Evaluate(%v, %v): %v", mem, p, err)
			}
			maxTurns := 60 * n
			d, err := exact.SolitaireTurns[float64](ctx, field.Float{}, m, p, st, maxTurns)
			if err != nil {
				t.Fatalf("SolitaireTurns(%v, %v): %v", mem, p, err)
			}
			mean, sum := 0.0, 0.0
			for k, x := range d.Prob {
				if x < 0 {
					t.Errorf("%v %v: P(%d) = %g < 0", mem, p, k, x)
				}
				mean += float64(k) * x
				sum += x
			}
			if math.Abs(sum+d.Tail-1) > 1e-12 {
				t.Errorf("%v %v: probabilities sum to %g, tail %g", mem, p, sum, d.Tail)
			}
			if d.Tail > 1e-9 || math.Abs(mean-res.ExpectedTurns) > 1e-7 {
				t.Errorf("%v %v: mean %.12f, tail %g beyond %d turns, expected turns %.12f", mem, p, mean, d.Tail, maxTurns, res.ExpectedTurns)
			}
		}
	}
}
