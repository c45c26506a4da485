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

// TestDecayLimitIdentities checks the decay model under a turn limit against what holds whatever
// the code: with q = 1 every card is forgotten at every hand-over, so each turn starts with
// nothing remembered and the optimum's lead follows x(n, t) = p (1 + x(n-1, t-1)) - (1 - p)
// x(n, t-1), p = 1/(2n - 1) (the only legal choice flips two unknown cards), with or without a
// capacity; a capacity of 2n equals none; and a game under a limit is the unlimited game cut
// short, so a lineup of fixed policies differs from its value without a limit by at most the
// pairs the limit leaves on the table, n minus the pairs both seats take, and the optimum's lead
// tends to the value without a limit.
func TestDecayLimitIdentities(t *testing.T) {
	ctx := context.Background()
	maxN, maxT := 5, 8
	if testing.Short() {
		maxN, maxT = 3, 5
	}
	self := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	// x[n][t], q = 1.
	x := make([][]*big.Rat, maxN+1)
	for n := range x {
		x[n] = make([]*big.Rat, maxT+1)
		for tl := range x[n] {
			x[n][tl] = new(big.Rat)
			if n == 0 || tl == 0 {
				continue
			}
			p := big.NewRat(1, int64(2*n-1))
			take := new(big.Rat).Add(big.NewRat(1, 1), x[n-1][tl-1])
			miss := new(big.Rat).Mul(new(big.Rat).Sub(big.NewRat(1, 1), p), x[n][tl-1])
			x[n][tl].Sub(take.Mul(take, p), miss)
		}
	}
	for _, capacity := range []int{0, 2} {
		for n := 1; n <= maxN; n++ {
			for tl := 1; tl <= maxT; tl++ {
				m := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 1}, Variant: rules.Variant{TurnLimit: tl}}
				got, err := exact.Evaluate(ctx, field.Rat{}, m, self, rules.State{N: n, J: n})
				if err != nil {
					t.Fatal(err)
				}
				if got.ExpectedLead.Cmp(x[n][tl]) != 0 {
					t.Errorf("q = 1, capacity %d, %d pairs, %d turns: lead %s, closed form %s", capacity, n, tl, got.ExpectedLead.RatString(), x[n][tl].RatString())
				}
			}
		}
	}
	for _, q := range []float64{0.5, 0.1} {
		for _, rule := range []rules.PassRule{rules.PassNever, rules.PassAlways} {
			for _, pol := range [][2]rules.Policy{{rules.PolicyOptimal, rules.PolicyOptimal}, {rules.PolicyBestResponse, rules.PolicySafe}} {
				mu := exact.Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
				for tl := 1; tl <= maxT; tl++ {
					v := rules.Variant{TurnLimit: tl}
					none := exact.Model{Pass: rule, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: q}, Variant: v}
					wide := none
					wide.Memory.Capacity = 2 * maxN
					st := rules.State{N: maxN, J: maxN - 1}
					a, err := exact.Evaluate(ctx, field.Rat{}, none, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					b, err := exact.Evaluate(ctx, field.Rat{}, wide, mu, st)
					if err != nil {
						t.Fatal(err)
					}
					if a.ExpectedLead.Cmp(b.ExpectedLead) != 0 || a.ExpectedPairs.Cmp(b.ExpectedPairs) != 0 {
						t.Errorf("q %v, pass %v, %v, %d turns: capacity %d gives %s, none %s", q, rule, pol, tl, 2*maxN,
							b.ExpectedLead.RatString(), a.ExpectedLead.RatString())
					}
				}
			}
		}
	}
	// The limit cuts the game short.
	n := 4
	for _, mem := range []rules.Memory{{Forget: rules.ForgetDecay, Decay: 0.1}, {Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.5}} {
		for _, pol := range [][2]rules.Policy{{rules.PolicySafe, rules.PolicyDaring}, {rules.PolicyDaring, rules.PolicyDaring}} {
			mu := exact.Lineup{Players: 2, Policy: pol[0], Opponent: pol[1]}
			st := rules.State{N: n, J: n}
			inf, err := exact.Evaluate(ctx, field.Rat{}, exact.Model{Memory: mem}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			prev := new(big.Rat).SetInt64(int64(n))
			for _, tl := range []int{2, 4, 8, 16} {
				if testing.Short() && tl > 8 {
					continue
				}
				m := exact.Model{Memory: mem, Variant: rules.Variant{TurnLimit: tl}}
				got, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
				if err != nil {
					t.Fatal(err)
				}
				// n minus the pairs both seats take: n - (2 pairs - lead).
				left := new(big.Rat).Sub(new(big.Rat).SetInt64(int64(n)), new(big.Rat).Sub(new(big.Rat).Mul(big.NewRat(2, 1), got.ExpectedPairs), got.ExpectedLead))
				gap := new(big.Rat).Sub(inf.ExpectedLead, got.ExpectedLead)
				name := fmt.Sprintf("%v, %v against %v, %d turns", mem, pol[0], pol[1], tl)
				if new(big.Rat).Abs(gap).Cmp(left) > 0 {
					t.Errorf("%s: the lead differs from the unlimited game's by %s, more than the %s pairs left", name, gap.RatString(), left.RatString())
				}
				if left.Sign() <= 0 || left.Cmp(prev) >= 0 {
					t.Errorf("%s: %s pairs left, after %s with fewer turns", name, left.RatString(), prev.RatString())
				}
				prev = left
			}
		}
	}
	// The optimum converges to the unlimited game's (float64).
	for _, mem := range []rules.Memory{{Forget: rules.ForgetDecay, Decay: 0.1}, {Capacity: 2, Forget: rules.ForgetDecay, Decay: 0.5}} {
		st := rules.State{N: n, J: n}
		inf, err := exact.Evaluate(ctx, field.Float{}, exact.Model{Memory: mem}, self, st)
		if err != nil {
			t.Fatal(err)
		}
		got, err := exact.Evaluate(ctx, field.Float{}, exact.Model{Memory: mem, Variant: rules.Variant{TurnLimit: 400}}, self, st)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.ExpectedLead-inf.ExpectedLead) > 1e-9 {
			t.Errorf("%v: lead %v within 400 turns, %v without a limit", mem, got.ExpectedLead, inf.ExpectedLead)
		}
	}
}
