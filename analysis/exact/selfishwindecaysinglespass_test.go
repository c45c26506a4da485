package exact_test

// The win objective at three seats under decay forgetting with singletons under the pass rule
// always and under a turn limit (docs/models.md §4.7, "Win objective", §4.14), card by card.

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/sim/rules"
)

// TestSelfWinDecaySinglesPassCardLevel plays every seat win-optimal, and win-optimal beside safe
// and daring, card by card under decay forgetting (q = 1/2, no capacity) with one singleton and
// the pass rule always at three seats, from the full deal of 1 pair (not under -short,
// where TestSelfWinDecaySinglesLimitCardLevel plays the pass rule always): a pass hands the table on through the decay hand-over, the third pass in a row
// ends the game with the pairs left shared. Every seat's values at every position reached are the
// card-level values of that play (value iteration), and no win-optimal mover gains by a one-step
// deviation.
func TestSelfWinDecaySinglesPassCardLevel(t *testing.T) {
	W := rules.PolicyWinOptimal
	lineups := [][]rules.Policy{{W, W, W}, {W, rules.PolicySafe, rules.PolicyDaring}}
	sizes := []int{1}
	if testing.Short() {
		t.Skip("the card-level graph of a pass rule with a singleton takes longer than -short allows")
	}
	card := cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 2)}
	model := exact.Model{Pass: rules.PassAlways, Singletons: 1, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}}
	total := 0
	for _, n := range sizes {
		for _, seats := range lineups {
			t.Run(fmt.Sprintf("n=%d/%v", n, seats), func(t *testing.T) {
				total += checkPassWinCardLevelModel(t, card, model, exact.SeatLineup(seats...), n, []int{0, 0, 0})
			})
		}
	}
	t.Logf("compared %d values with card-level play", total)
}

// TestSelfWinDecaySinglesLimitCardLevel compares the win objective at three seats under decay
// forgetting (q = 1/2, no capacity) with one singleton and a turn limit with the card-level
// search (lwSearch, every remembered card and seen singleton forgotten with probability q at each
// hand-over), every seat win-optimal under the pass rule always and win-optimal beside safe and
// daring under never, at limits 2 and 3 from states of 2 pairs (-short: always, limit 2, 1 pair and the singleton unseen):
// every seat's P(most pairs), alone, tied and expected pairs, and those after each legal choice of
// the mover, exactly.
func TestSelfWinDecaySinglesLimitCardLevel(t *testing.T) {
	ctx := context.Background()
	W := rules.PolicyWinOptimal
	card := cardMemory{forget: rules.ForgetDecay, q: big.NewRat(1, 2)}
	mem := rules.Memory{Forget: rules.ForgetDecay, Decay: 0.5}
	lineups := [][]rules.Policy{{W, W, W}, {W, rules.PolicySafe, rules.PolicyDaring}}
	passRules := []rules.PassRule{rules.PassAlways, rules.PassNever}
	limits := []int{2, 3}
	starts := []rules.State{{N: 2, J: 2, S: 1, F: 1}, {N: 2, J: 1, S: 1, F: 0}, {N: 2, J: 2, S: 1, F: 0}}
	if testing.Short() {
		lineups, passRules, limits, starts = lineups[:1], passRules[:1], []int{2}, []rules.State{{N: 1, J: 1, S: 1, F: 1}}
	}
	compared := 0
	for i, rule := range passRules {
		for _, pols := range lineups[i : i+1] {
			s := newLwSearch(ctx, t, card, mem, rule, pols, limits[len(limits)-1])
			mu := exact.SeatLineup(pols...)
			for _, limit := range limits {
				m := exact.Model{Pass: rule, Singletons: 1, Memory: mem, Variant: rules.Variant{TurnLimit: limit}}
				for _, st := range starts {
					standings := []int{0, 0, 0}
					if (st.J+limit)%2 == 1 {
						standings = []int{1, 0, 2}
					}
					name := fmt.Sprintf("pass %s, %v, limit %d, %v, standings %v", rule, pols, limit, st, standings)
					s.compareStart(ctx, t, name, m, mu, st, standings)
					compared++
				}
			}
		}
	}
	t.Logf("compared %d starts' values", compared)
}
