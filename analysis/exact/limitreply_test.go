package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// TestLimitSeatReplyMatchesSearch compares every seat's expected pairs, one seat replying to the
// others in the standard game under a turn limit of 1 to 4 turns (and one the game may reach the
// end of), with the search in which that seat maximises its own pairs taken by the limit.
func TestLimitSeatReplyMatchesSearch(t *testing.T) {
	ctx := context.Background()
	pairs := []int{3, 4}
	if testing.Short() {
		pairs = []int{3}
	}
	for _, n := range pairs {
		for _, limit := range []int{1, 2, 3, 4, 2 * n} {
			P := rules.PolicyParity
			lineups := append(replyLineups(), []rules.Policy{rules.PolicyBestResponse, P, P}, []rules.Policy{P, rules.PolicySafe, rules.PolicyBestResponse})
			for _, pols := range lineups {
				t.Run(fmt.Sprintf("n=%d,limit=%d/%v", n, limit, pols), func(t *testing.T) {
					m := exact.Model{Variant: rules.Variant{TurnLimit: limit}}
					want := newReplySearch(pols, limit).value(n, 2)
					got, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, m, exact.SeatLineup(pols...), rules.State{N: n, J: n})
					if err != nil {
						t.Fatal(err)
					}
					if ratsString(got.PairsBySeat) != ratsString(want) {
						t.Errorf("pairs: solver %s, search %s", ratsString(got.PairsBySeat), ratsString(want))
					}
				})
			}
		}
	}
}

// limitReplyModels are the models a best reply under a turn limit is checked in.
var limitReplyModels = []struct {
	name string
	m    exact.Model
}{
	{"perfect", exact.Model{}},
	{"lru(2)", exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetLRU}}},
	{"handover(2)", exact.Model{Memory: rules.Memory{Capacity: 2, Forget: rules.ForgetHandoverUniform}}},
	{"singletons", exact.Model{Singletons: 1}},
	{"blind", exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}},
}

// TestLimitSeatReplyBeatsEveryPolicy checks that seat 0's best reply under a turn limit gives it
// at least as many expected pairs taken by the limit as optimal, safe, daring and parity (but
// under blind flips) in its place against the same seats, and optimal's exactly against optimal (every turn uses a turn left, so
// the optimum of every seat for itself is backward induction, a best reply to itself).
func TestLimitSeatReplyBeatsEveryPolicy(t *testing.T) {
	ctx := context.Background()
	n := bySize(3, 4, 7)
	for _, lm := range limitReplyModels {
		pols := []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity}
		if lm.m.Variant.Flips == rules.FlipsBlind {
			pols = pols[:3]
		}
		for _, players := range []int{3, 5} {
			for _, x := range pols {
				t.Run(fmt.Sprintf("%s/p=%d/%s", lm.name, players, x), func(t *testing.T) {
					m := lm.m
					m.Variant.TurnLimit = n
					st := fullDeal(m, n)
					seat0 := func(p rules.Policy) *big.Rat {
						res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, m, exact.Lineup{Players: players, Policy: p, Opponent: x}, st)
						if err != nil {
							t.Fatalf("%s against %s: %v", p, x, err)
						}
						return res.ExpectedPairs
					}
					reply := seat0(rules.PolicyBestResponse)
					for _, y := range pols {
						v := seat0(y)
						if reply.Cmp(v) < 0 {
							t.Errorf("best reply %s < %s's %s", reply.RatString(), y, v.RatString())
						}
						if y == x && x == rules.PolicyOptimal && reply.Cmp(v) != 0 {
							t.Errorf("best reply to optimal %s, optimal itself %s", reply.RatString(), v.RatString())
						}
					}
				})
			}
		}
	}
}

// TestLimitSeatReplyBeyondTheGame checks that a turn limit no game of n pairs reaches gives the
// best reply without a limit, in the standard game and under k copies of a face: with perfect
// memory a turn that takes no pair turns up a card not seen before, so a game has at most n turns
// that take a pair and 2n that do not.
func TestLimitSeatReplyBeyondTheGame(t *testing.T) {
	ctx := context.Background()
	const n = 6
	for _, pols := range replyLineups() {
		t.Run(fmt.Sprint(pols), func(t *testing.T) {
			mu := exact.SeatLineup(pols...)
			st := rules.State{N: n, J: n}
			free, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, exact.Model{}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			limited, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, exact.Model{Variant: rules.Variant{TurnLimit: 3 * n}}, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			if ratsString(limited.PairsBySeat) != ratsString(free.PairsBySeat) {
				t.Errorf("limit %d: %s, no limit: %s", 3*n, ratsString(limited.PairsBySeat), ratsString(free.PairsBySeat))
			}
			cs, err := exact.StartCopiesState(n, 4)
			if err != nil {
				t.Fatal(err)
			}
			cfree, err := exact.EvaluateCopies[*big.Rat](ctx, field.Rat{}, exact.Model{Variant: rules.Variant{Copies: 4}}, mu, cs)
			if err != nil {
				t.Fatal(err)
			}
			climited, err := exact.EvaluateCopies[*big.Rat](ctx, field.Rat{}, exact.Model{Variant: rules.Variant{Copies: 4, TurnLimit: 3 * n}}, mu, cs)
			if err != nil {
				t.Fatal(err)
			}
			if ratsString(climited.PairsBySeat) != ratsString(cfree.PairsBySeat) {
				t.Errorf("copies 4, limit %d: %s, no limit: %s", 3*n, ratsString(climited.PairsBySeat), ratsString(cfree.PairsBySeat))
			}
		})
	}
}

// TestLimitSeatReplyTable checks that the reply's table under a turn limit, a layer per number of
// turns left, followed by the replying seat of the search, gives the reply's values, and that the
// list of the choices names the table's choice.
func TestLimitSeatReplyTable(t *testing.T) {
	ctx := context.Background()
	const n, limit = 4, 5
	m := exact.Model{Variant: rules.Variant{TurnLimit: limit}}
	for _, x := range []rules.Policy{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring} {
		t.Run(x.String(), func(t *testing.T) {
			mu := exact.Lineup{Players: 4, Policy: rules.PolicyBestResponse, Opponent: x}
			tab, err := exact.PolicyTable(ctx, field.Rat{}, m, mu, n)
			if err != nil {
				t.Fatal(err)
			}
			st := rules.State{N: n, J: n}
			want, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, m, mu, st)
			if err != nil {
				t.Fatal(err)
			}
			s := newReplySearch([]rules.Policy{rules.PolicyBestResponse, x, x, x}, limit)
			s.follow = func(c faceCards, t int) (rules.Choice, bool) {
				at := rules.State{}
				for f := range c.left {
					if c.left[f] > 0 {
						at.N++
						if c.rem[f] == 0 {
							at.J++
						}
					}
				}
				return tab.LookupTurnsLeft(at, false, t)
			}
			got := s.value(n, 2)
			if s.missing > 0 {
				t.Errorf("the table has no choice in %d positions", s.missing)
			}
			if ratsString(got) != ratsString(want.PairsBySeat) {
				t.Errorf("table played: %s, reply: %s", ratsString(got), ratsString(want.PairsBySeat))
			}
			mid := rules.State{N: n, J: n - 2}
			choices, err := exact.ChoiceValues[*big.Rat](ctx, field.Rat{}, m, mu, mid)
			if err != nil {
				t.Fatal(err)
			}
			if c, _ := tab.LookupTurnsLeft(mid, false, limit); choices.PolicyChoice != c {
				t.Errorf("%v: the choices name %s, the table %s", mid, choices.PolicyChoice, c)
			}
		})
	}
}
