package exact_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// coachState is a decision in a 26-pair deal: 26 pairs left, two of them half known.
var coachState = rules.State{N: 26, J: 24}

// benchChoiceValues computes the values in expected pairs of every choice in coachState, optimal
// play afterwards, b.N times.
func benchChoiceValues[T any](b *testing.B, f field.Field[T]) {
	b.Helper()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	b.ReportAllocs()
	for b.Loop() {
		cs, err := exact.ChoiceValues(context.Background(), f, exact.Model{}, mu, coachState)
		if err != nil {
			b.Fatal(err)
		}
		if len(cs.Values) != 3 || len(cs.Best) == 0 {
			b.Fatalf("%d choices, best %v", len(cs.Values), cs.Best)
		}
	}
}

// benchWinChoiceValues computes the values to win of every choice in coachState at a lead of 1,
// win-optimal play afterwards, b.N times.
func benchWinChoiceValues[T any](b *testing.B, f field.Field[T]) {
	b.Helper()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	st := coachState
	st.Lead = 1
	b.ReportAllocs()
	for b.Loop() {
		cs, err := exact.WinChoiceValues(context.Background(), f, exact.Model{}, mu, st)
		if err != nil {
			b.Fatal(err)
		}
		if len(cs.Values) != 3 || len(cs.Best) == 0 {
			b.Fatalf("%d choices, best %v", len(cs.Values), cs.Best)
		}
	}
}

// BenchmarkChoiceValuesExact26 values the choices of a decision at 26 pairs in exact rationals.
func BenchmarkChoiceValuesExact26(b *testing.B) { benchChoiceValues[*big.Rat](b, field.Rat{}) }

// BenchmarkChoiceValuesFloat26 values them in float64.
func BenchmarkChoiceValuesFloat26(b *testing.B) { benchChoiceValues[float64](b, field.Float{}) }

// BenchmarkWinChoiceValuesExact26 values the choices to win of a decision at 26 pairs in exact
// rationals.
func BenchmarkWinChoiceValuesExact26(b *testing.B) { benchWinChoiceValues[*big.Rat](b, field.Rat{}) }

// BenchmarkWinChoiceValuesFloat26 values them in float64.
func BenchmarkWinChoiceValuesFloat26(b *testing.B) { benchWinChoiceValues[float64](b, field.Float{}) }
