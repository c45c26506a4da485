package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// decayLimitWinModel returns the standard game under decay forgetting with probability q (a
// capacity when capacity > 0), pass rule rule and a turn limit.
func decayLimitWinModel(q float64, capacity int, rule rules.PassRule, limit int) Model {
	return Model{Pass: rule, Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: q}, Variant: rules.Variant{TurnLimit: limit}}
}

// TestSelfWinDecayLimitFullCapacityIsUncapped checks that decay forgetting with a capacity of 2n,
// which the capacity never binds in a game of n pairs, gives under a turn limit the values, the
// choice and every choice's values of decay forgetting without a capacity exactly, from states
// part known and uneven standings, every seat win-optimal and in mixed lineups, under every pass
// rule (the first state in every lineup, each other state in one lineup of three seats).
func TestSelfWinDecayLimitFullCapacityIsUncapped(t *testing.T) {
	ctx, f := context.Background(), field.Rat{}
	W := rules.PolicyWinOptimal
	lineups := [][]rules.Policy{{W, W, W}, {rules.PolicyDaring, W, rules.PolicySafe}, {W, rules.PolicyOptimal, W}, {W, W, rules.PolicySafe, W}}
	for k, c := range []struct {
		st    rules.State
		q     float64
		limit int
		rule  rules.PassRule
	}{
		{rules.State{N: 2, J: 1}, 0.5, 4, rules.PassAlways},
		{rules.State{N: 3, J: 3}, 0.1, 5, rules.PassNever},
		{rules.State{N: 3, J: 2}, 0.5, 4, rules.PassTwoKnown},
		{rules.State{N: 3, J: 1}, 0.2, 5, rules.PassAlways},
	} {
		if testing.Short() && k > 0 {
			continue
		}
		for i, pol := range lineups {
			if (testing.Short() || k != 0) && i != max(k-1, 0) {
				continue // the first state in every lineup, each other state in a lineup of three
			}
			mu := SeatLineup(pol...)
			standings := []int{1, 0, 2, 0}[:len(pol)]
			name := fmt.Sprintf("q %g, %v, limit %d, pass %s, %v", c.q, c.st, c.limit, c.rule, pol)
			want, err := EvaluateStandings(ctx, f, decayLimitWinModel(c.q, 0, c.rule, c.limit), mu, c.st, standings)
			if err != nil {
				t.Fatalf("%s, no capacity: %v", name, err)
			}
			got, err := EvaluateStandings(ctx, f, decayLimitWinModel(c.q, 2*c.st.N, c.rule, c.limit), mu, c.st, standings)
			if err != nil {
				t.Fatalf("%s, capacity %d: %v", name, 2*c.st.N, err)
			}
			sameSelfWinResult(t, name, got, want)
		}
	}
}

// TestSelfWinDecayLimitTwoSeatsIsLimitWin checks that the sweep run at two seats under decay
// forgetting and a turn limit gives the two-player win objective's P(win) and P(draw) under the
// same limit and forgetting (limitwin.go with limitdecay.go, a sweep over the lead) for the mover,
// at several leads so far (the first case at each, the others at one), with and without a
// capacity, under every pass rule.
func TestSelfWinDecayLimitTwoSeatsIsLimitWin(t *testing.T) {
	ctx := context.Background()
	for k, c := range []struct {
		st              rules.State
		q               float64
		capacity, limit int
		rule            rules.PassRule
	}{
		{rules.State{N: 3, J: 2}, 0.5, 0, 5, rules.PassAlways},
		{rules.State{N: 3, J: 3}, 0.1, 2, 4, rules.PassNever},
		{rules.State{N: 4, J: 2}, 0.5, 3, 6, rules.PassTwoKnown},
		{rules.State{N: 4, J: 3}, 0.2, 0, 7, rules.PassAlways},
	} {
		if testing.Short() && k > 0 {
			continue
		}
		m := decayLimitWinModel(c.q, c.capacity, c.rule, c.limit)
		for i, standings := range [][]int{{2, 0}, {0, 0}, {0, 1}} {
			if i != k%3 && (testing.Short() || k != 0) {
				continue // the first case at every lead, each other case at one
			}
			sameTwoSeatLimitWin(ctx, t, m, c.st, standings)
		}
	}
}
