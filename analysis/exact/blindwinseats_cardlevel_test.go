package exact_test

// The win objective at three seats under blind flips with a shared lru or handover-uniform memory
// of fixed capacity, under the pass rules two-known and always and under a turn limit (docs/models.md
// §4.13, §4.17), checked card by card: every deal's turns are played with blindCardTurn (every card
// at every unremembered position, the memory in its recency order), with the pass streak and the
// standings of every seat (passWinGraph, selfishwinlimitedpass_cardlevel_test.go) or with the turns
// left besides (lwSearch, selfishwinlimitedlimit_cardlevel_test.go). No count formula is used.

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// blindWinPassModel is the solver's model of card memory m under blind flips, pass rule rule and
// turn limit limit (0: none).
func blindWinPassModel(m cardMemory, rule rules.PassRule, limit int) exact.Model {
	return exact.Model{Pass: rule, Memory: memoryOf(m), Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: limit}}
}

// TestBlindLimitedWinSeatsPassCardLevel plays every seat win-optimal, win-optimal beside safe and
// daring, and a win-best-response seat beside them, card by card under blind flips with lru of
// capacity 2 and 3 and handover-uniform of 3 and the pass rules two-known and always at three
// seats and three pairs, from the full deal with no pairs taken or with uneven pairs so far:
// every position's values at streak 0, every cell's and choice's score at every streak where
// every seat plays win-optimal, and no gain by a one-step deviation (checkPassWinCardLevelModel).
func TestBlindLimitedWinSeatsPassCardLevel(t *testing.T) {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := [][]rules.Policy{
		{W, W, W},
		{W, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyDaring, B, rules.PolicySafe},
	}
	starts := [][]int{{0, 0, 0}, {0, 1, 0}}
	mems := blindLimitedMemories(2, 3)
	total := 0
	for ri, rule := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		for mi, m := range mems {
			for li, seats := range lineups {
				for si, start := range starts {
					// The short form plays win-optimal beside safe and daring from uneven pairs
					// under lru(2) and two-known.
					// The long form plays each lineup from one start in turn.
					if testing.Short() && (ri != 0 || mi != 0 || li != 1 || si != 1) || (li+mi+ri)%2 != si {
						continue
					}
					t.Run(fmt.Sprintf("%s/%v/%v/%v", rule, m, seats, start), func(t *testing.T) {
						total += checkPassWinCardLevelModel(t, m, blindWinPassModel(m, rule, 0), exact.SeatLineup(seats...), 3, start)
					})
				}
			}
		}
	}
	t.Logf("compared %d values with card-level play", total)
}

// blindLwCases lists the configurations of TestBlindLimitedWinSeatsLimitIsCardLevel: every memory
// of blindLimitedMemories(2, 3) under every pass rule, each with one lineup in turn (every seat
// win-optimal at a limit of 4, the others beside fixed policies or with a reply at the same limit); under -short every seat
// win-optimal under lru(2), pass rule always and a limit of 3.
func blindLwCases(short bool) []lwCase {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := [][]rules.Policy{
		{W, W, W},
		{W, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyDaring, W, rules.PolicySafe},
		{B, W, W},
	}
	if short {
		return []lwCase{{cardMemory{capacity: 2, forget: rules.ForgetLRU}, rules.PassAlways, lineups[0], []int{3}}}
	}
	var out []lwCase
	i := 0
	for _, m := range blindLimitedMemories(2, 3) {
		for _, rule := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			pols := lineups[i%len(lineups)]
			limits := []int{4}
			if i%len(lineups) > 0 {
				limits = []int{4}
			}
			out = append(out, lwCase{m, rule, pols, limits})
			i++
		}
	}
	return out
}

// TestBlindLimitedWinSeatsLimitIsCardLevel compares the win objective at three seats under blind
// flips, lru and handover-uniform of a fixed capacity and a turn limit with the card-level search
// (lwSearch playing blindCardTurn: a turn that leaves two pairs known whole hands the next seat a
// turn for each while one is left), from the deal of three pairs and states of it part known, no
// pairs so far and uneven standings, under every pass rule: every seat's P(most pairs), alone,
// tied and expected pairs, and those after each legal choice of the mover, exactly; and every
// start's shares of P(most pairs) add up to 1.
func TestBlindLimitedWinSeatsLimitIsCardLevel(t *testing.T) {
	ctx := context.Background()
	compared := 0
	for _, c := range blindLwCases(testing.Short()) {
		mu := exact.SeatLineup(c.pols...)
		s := newLwSearch(ctx, t, c.m, memoryOf(c.m), c.rule, c.pols, c.limits[len(c.limits)-1])
		s.blind = true
		for _, limit := range c.limits {
			m := blindWinPassModel(c.m, c.rule, limit)
			for j := 3; j >= max(0, 3-c.m.capacity); j-- {
				st := rules.State{N: 3, J: j}
				standings := []int{0, 0, 0}
				if (j+limit)%2 == 1 {
					standings = []int{1, 0, 2}
				}
				if testing.Short() && j < 3 || j == 2 {
					continue
				}
				name := fmt.Sprintf("%v, pass %s, %v, limit %d, %v, standings %v", c.m, c.rule, c.pols, limit, st, standings)
				s.compareStart(ctx, t, name, m, mu, st, standings)
				got, err := exact.EvaluateStandings(ctx, field.Rat{}, m, mu, st, standings)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sum := new(big.Rat)
				for _, x := range got.Score {
					sum.Add(sum, x)
				}
				if sum.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%s: the shares of P(most pairs) add up to %s, not 1", name, sum.RatString())
				}
				compared++
			}
		}
	}
	t.Logf("compared %d starts' values", compared)
}

// TestBlindLimitedWinSeatsLimitIdentities checks two identities of the win objective at three
// seats under blind flips, a shared memory and a turn limit, exactly: a memory of capacity 2n
// forgets nothing, so under a limit it gives perfect memory's values (the sweep of the turns left
// with perfect memory's outcomes); and a limit that never binds (every game of n pairs ends,
// passes included, within 3·(3n) turns under capacity 2n) gives the values without a limit (the
// sweep of the count states, selfishwin.go).
func TestBlindLimitedWinSeatsLimitIdentities(t *testing.T) {
	ctx := context.Background()
	f := field.Rat{}
	W := rules.PolicyWinOptimal
	lineups := [][]rules.Policy{{W, W, W}, {W, rules.PolicySafe, rules.PolicyDaring}}
	n := 2
	passRules := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	if testing.Short() {
		t.Skip("the identities are checked in the long form (the card-level tests cover the short form)")
	}
	never := 3 * 3 * n
	full := cardMemory{capacity: 2 * n, forget: rules.ForgetLRU}
	for _, rule := range passRules {
		for _, seats := range lineups {
			mu := exact.SeatLineup(seats...)
			st := rules.State{N: n, J: n}
			standings := []int{0, 1, 0}
			eval := func(m exact.Model) *exact.SelfWinValues[*big.Rat] {
				t.Helper()
				r, err := exact.EvaluateStandings(ctx, f, m, mu, st, standings)
				if err != nil {
					t.Fatalf("%v, %s: %v", m.Memory, m.Variant, err)
				}
				return &r.SelfWinValues
			}
			perfect := exact.Model{Pass: rule, Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 4}}
			name := fmt.Sprintf("pass %s, %v", rule, seats)
			lwCompare(t, name+": capacity 2n against perfect memory, limit 4", eval(blindWinPassModel(full, rule, 4)), valsOf(eval(perfect)))
			lwCompare(t, name+": a limit that never binds against none", eval(blindWinPassModel(full, rule, never)), valsOf(eval(blindWinPassModel(full, rule, 0))))
		}
	}
}

// valsOf returns the values v as the card-level search's.
func valsOf(v *exact.SelfWinValues[*big.Rat]) lwVals {
	return lwVals{score: v.Score, win: v.Win, draw: v.Draw, pairs: v.Pairs}
}
