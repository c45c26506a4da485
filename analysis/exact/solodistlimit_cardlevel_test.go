package exact_test

// Solitaire's distribution of the number of turns under a turn limit (exact.SolitaireTurns with
// Variant.TurnLimit) against every deal played card by card (playVariantDeal, which stops at the
// limit and reads no count formula), and against identities: its mean is Evaluate's expected
// turns, it sums to 1, and with a fixed policy it is the distribution without a limit cut at the
// limit.

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestSolitaireTurnsUnderLimitEveryDeal plays every deal of up to three pairs (four without
// -short) alone, with sequential and blind flips, under limits that cut games short and one that
// does not, and compares the histogram of the number of turns and the share of games the limit
// stops with SolitaireTurns, for daring, safe and optimal (optimal's choices read with the turns
// left from its table under the limit).
func TestSolitaireTurnsUnderLimitEveryDeal(t *testing.T) {
	ctx := context.Background()
	maxN := 3
	if !testing.Short() {
		maxN = 4
	}
	for _, blind := range []bool{false, true} {
		for n := 2; n <= maxN; n++ {
			deals := dealsOf(n, 0)
			for _, limit := range []int{2, n + 1, 3*n + 1} {
				v := rules.Variant{TurnLimit: limit}
				if blind {
					v.Flips = rules.FlipsBlind
				}
				m := exact.Model{Pass: rules.PassNever, Variant: v}
				for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
					t.Run(fmt.Sprintf("blind=%v/n=%d/limit=%d/%v", blind, n, limit, p), func(t *testing.T) {
						mu := exact.Lineup{Players: 1, Policy: p, Opponent: p}
						decide := p.Decide
						var turn int64
						if p == rules.PolicyOptimal {
							tab, err := exact.PolicyTable[*big.Rat](ctx, field.Rat{}, m, mu, n)
							if err != nil {
								t.Fatal(err)
							}
							decide = func(st rules.State) rules.Choice {
								c, ok := tab.LookupTurnsLeft(st, false, limit-int(turn)+1)
								if !ok {
									t.Fatalf("state %v, turn %d: not in the table", st, turn)
								}
								return c
							}
						}
						game := variantGame{blind: blind, limit: limit, onTurn: func(k int64) { turn = k }}
						count := make([]int64, limit+1)
						var stopped int64
						for _, d := range deals {
							r := playVariantDeal(d, 1, game, func(_ int, st rules.State) rules.Choice {
								c := decide(st)
								if c != rules.Daring && c != rules.Safe {
									t.Fatalf("state %v: choice %v, the card-level game plays daring and safe only", st, c)
								}
								return c
							})
							count[r.turns]++
							if r.pairs[0] < int64(n) {
								stopped++
							}
						}
						st := rules.State{N: n, J: n}
						d, err := exact.SolitaireTurns[*big.Rat](ctx, field.Rat{}, m, p, st, limit)
						if err != nil {
							t.Fatal(err)
						}
						all := int64(len(deals))
						for k, c := range count {
							if want := big.NewRat(c, all); d.Prob[k].Cmp(want) != 0 {
								t.Errorf("P(%d turns) = %s, card level %s", k, d.Prob[k].RatString(), want.RatString())
							}
						}
						if d.Tail.Sign() != 0 {
							t.Errorf("P(more than %d turns) = %s under a limit of %d", limit, d.Tail.RatString(), limit)
						}
						if want := big.NewRat(stopped, all); d.Stopped.Cmp(want) != 0 {
							t.Errorf("P(stopped by the limit) = %s, card level %s", d.Stopped.RatString(), want.RatString())
						}
						checkLimitTurnsMean(t, m, p, st, d)
					})
				}
			}
		}
	}
}

// checkLimitTurnsMean checks that a distribution under a limit sums to 1 and that its mean is
// Evaluate's expected turns.
func checkLimitTurnsMean(t *testing.T, m exact.Model, p rules.Policy, st rules.State, d exact.TurnsDistribution[*big.Rat]) {
	t.Helper()
	sum, mean := new(big.Rat).Set(d.Tail), new(big.Rat)
	for k, x := range d.Prob {
		sum.Add(sum, x)
		mean.Add(mean, new(big.Rat).Mul(x, big.NewRat(int64(k), 1)))
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("the probabilities add up to %s", sum.RatString())
	}
	res, err := exact.Evaluate[*big.Rat](context.Background(), field.Rat{}, m, exact.Lineup{Players: 1, Policy: p, Opponent: p}, st)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExpectedTurns.Cmp(mean) != 0 {
		t.Errorf("mean of the distribution %s, expected turns %s", mean.RatString(), res.ExpectedTurns.RatString())
	}
}

// TestSolitaireTurnsUnderLimitMatchesUnlimited checks, under lru, handover-uniform and decay
// forgetting and with singletons (perfect memory), with sequential flips and, for lru and
// handover-uniform, blind flips, that the distribution under a limit
// sums to 1 with the expected turns as its mean, and that a fixed policy's is the distribution
// without a limit (a second method: the rows of SolitaireTurns) cut at the limit: the same
// probabilities below it, the rest at it, and the limit stopping every game longer than it.
func TestSolitaireTurnsUnderLimitMatchesUnlimited(t *testing.T) {
	ctx := context.Background()
	mems := []rules.Memory{
		{Capacity: 3, Forget: rules.ForgetLRU},
		{Capacity: 3, Forget: rules.ForgetHandoverUniform},
		{Forget: rules.ForgetDecay, Decay: 0.3},
		{Capacity: 3, Forget: rules.ForgetDecay, Decay: 0.3},
		{},
	}
	n, limit := 3, 7
	if !testing.Short() {
		n, limit = 4, 11
	}
	for _, mem := range mems {
		for _, blind := range []bool{false, true} {
			if blind && (mem.Perfect() || mem.Forget == rules.ForgetDecay) {
				continue // blind flips have no exact model with singletons, nor decay under a limit
			}
			singles := 0
			if mem.Perfect() {
				singles = 1
			}
			v := rules.Variant{}
			if blind {
				v.Flips = rules.FlipsBlind
			}
			base := exact.Model{Pass: rules.PassNever, Memory: mem, Variant: v, Singletons: singles}
			lim := base
			lim.Variant.TurnLimit = limit
			st := rules.State{N: n, J: n, S: singles, F: singles}
			for _, p := range []rules.Policy{rules.PolicyDaring, rules.PolicySafe, rules.PolicyOptimal} {
				t.Run(fmt.Sprintf("%v/blind=%v/%v", mem, blind, p), func(t *testing.T) {
					d, err := exact.SolitaireTurns[*big.Rat](ctx, field.Rat{}, lim, p, st, limit)
					if err != nil {
						t.Fatal(err)
					}
					checkLimitTurnsMean(t, lim, p, st, d)
					if p == rules.PolicyOptimal {
						return // optimal under a limit plays for pairs within it, not the fewest turns
					}
					u, err := exact.SolitaireTurns[*big.Rat](ctx, field.Rat{}, base, p, st, limit)
					if err != nil {
						t.Fatal(err)
					}
					for k := range limit {
						if d.Prob[k].Cmp(u.Prob[k]) != 0 {
							t.Errorf("P(%d turns) = %s under the limit, %s without", k, d.Prob[k].RatString(), u.Prob[k].RatString())
						}
					}
					rest := new(big.Rat).Add(u.Prob[limit], u.Tail)
					if d.Prob[limit].Cmp(rest) != 0 {
						t.Errorf("P(%d turns) = %s under the limit, P(%d or more) %s without", limit, d.Prob[limit].RatString(), limit, rest.RatString())
					}
					if d.Stopped.Cmp(u.Tail) != 0 {
						t.Errorf("P(stopped) = %s under the limit, P(more than %d) %s without", d.Stopped.RatString(), limit, u.Tail.RatString())
					}
				})
			}
		}
	}
}
