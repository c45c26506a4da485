package exact

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// DecayOutcomes returns the outcomes of a turn of the decay model m begun in st with choice c,
// with their exact probabilities.
func DecayOutcomes(m Model, st rules.State, c rules.Choice) ([]Outcome, []*big.Rat, error) {
	h, err := newDecayHand[*big.Rat](field.Rat{}, m.Memory, st.N)
	if err != nil {
		return nil, nil, err
	}
	outs, probs := decayOutcomes(h, st, c, nil, nil)
	return outs, probs, nil
}

// DecayCheckOptimal runs the exact optimality check of the decay model's row of n pairs on the
// optimal choices as alter changes them (indexed by known cards).
func DecayCheckOptimal(m Model, n int, alter func(ch []rules.Choice)) error {
	return decayCheckOptimal(m, n, alter)
}

// EvaluateDecayPassRows is Evaluate solving the decay model's rows with the pass flag whatever the
// pass rule, never included.
func EvaluateDecayPassRows[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	w, err := evaluateSweep(f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	w.passRows = true
	w.needMulti = false // two players' leads carry every seat's pairs
	if err := w.run(ctx, st.N, nil); err != nil {
		return Result[T]{}, err
	}
	return w.result(st), nil
}

// SetFastExact turns the smooth-denominator path of the exact optimal sweep (ratOpt) on or off,
// for tests that compare it with the general path, and returns a function that restores it.
func SetFastExact(on bool) (restore func()) {
	old := fastExact.Swap(on)
	return func() { fastExact.Store(old) }
}

// RaceEnabled reports whether the tests run under the race detector (race_on_test.go).
const RaceEnabled = raceEnabled

// testSize returns a test's size: race under the race detector, short in -short mode, long
// otherwise.
func testSize(race, short, long int) int {
	switch {
	case raceEnabled:
		return race
	case testing.Short():
		return short
	}
	return long
}

// SelfWinTableTwoSeats is SelfWinTable at two seats, which the tests compare with the two-player
// win objective.
func SelfWinTableTwoSeats[T any](ctx context.Context, f field.Field[T], m Model, maxPairs int, visit func(*SelfWinCell[T]) error) error {
	return selfWinTable(ctx, f, m, 2, maxPairs, visit)
}

// EvaluateSelfWinSeats is the sweep of a mixed lineup (selfishwinmixed.go) with every seat playing
// win-optimal, which the tests compare with EvaluateSelfWin.
func EvaluateSelfWinSeats[T any](ctx context.Context, f field.Field[T], m Model, players int, st rules.State, standings []int) (SelfWinResult[T], error) {
	return evaluateSelfWin(ctx, f, m, players, st, standings, nil, make([]*rules.ChoiceTable, players))
}
