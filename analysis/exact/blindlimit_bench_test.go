package exact_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// benchEvaluate evaluates lineup mu from (n, n) in model m in field f, b.N times.
func benchEvaluate[T any](b *testing.B, f field.Field[T], m exact.Model, mu exact.Lineup, n int) {
	b.Helper()
	st := rules.State{N: n, J: n}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exact.Evaluate(context.Background(), f, m, mu, st); err != nil {
			b.Fatal(err)
		}
	}
}

var optimalPair = exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}

// BenchmarkEvaluateExactBlind200 is the exact value of optimal play against optimal play from
// (200, 200) under blind flips: memsim solve --pairs 200 --flips blind --value-only.
func BenchmarkEvaluateExactBlind200(b *testing.B) {
	benchEvaluate[*big.Rat](b, field.Rat{}, exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind}}, optimalPair, 200)
}

// BenchmarkEvaluateExactTurnLimit26 is the exact value of optimal play against optimal play from
// (26, 26) with 52 turns left: memsim solve --pairs 26 --turn-limit 52.
func BenchmarkEvaluateExactTurnLimit26(b *testing.B) {
	benchEvaluate[*big.Rat](b, field.Rat{}, exact.Model{Variant: rules.Variant{TurnLimit: 52}}, optimalPair, 26)
}

// BenchmarkEvaluateFloatTurnLimit100 is the same in float64 from (100, 100) with 200 turns left.
func BenchmarkEvaluateFloatTurnLimit100(b *testing.B) {
	benchEvaluate[float64](b, field.Float{}, exact.Model{Variant: rules.Variant{TurnLimit: 200}}, optimalPair, 100)
}

// BenchmarkEvaluateExactSolitaireTurnLimit26 is the exact optimal solitaire of 26 pairs within 52
// turns under blind flips: memsim solve --pairs 26 --players 1 --flips blind --turn-limit 52.
func BenchmarkEvaluateExactSolitaireTurnLimit26(b *testing.B) {
	m := exact.Model{Variant: rules.Variant{Flips: rules.FlipsBlind, TurnLimit: 52}}
	benchEvaluate[*big.Rat](b, field.Rat{}, m, exact.Lineup{Players: 1, Policy: rules.PolicyOptimal}, 26)
}

// BenchmarkEvaluateFloatWinTurnLimit20 is win-optimal's self-play from (20, 20) with 40 turns left,
// in float64: memsim solve --pairs 20 --turn-limit 40 --policy win-optimal --float.
func BenchmarkEvaluateFloatWinTurnLimit20(b *testing.B) {
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	benchEvaluate[float64](b, field.Float{}, exact.Model{Variant: rules.Variant{TurnLimit: 40}}, mu, 20)
}
