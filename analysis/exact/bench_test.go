package exact_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// benchTable computes the optimal strategy table of m up to maxPairs in field f, b.N times,
// and checks that every cell was visited.
func benchTable[T any](b *testing.B, f field.Field[T], m exact.Model, maxPairs int) {
	b.Helper()
	want := maxPairs * (maxPairs + 3) / 2 // states (n, j) with 1 <= n <= maxPairs, 0 <= j <= n
	b.ReportAllocs()
	for b.Loop() {
		cells := 0
		err := exact.Table(context.Background(), f, m, maxPairs, func(*exact.TableCell[T]) error {
			cells++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if cells != want {
			b.Fatalf("visited %d cells, want %d", cells, want)
		}
	}
	b.ReportMetric(float64(want), "states")
}

// BenchmarkTableExactPerfect200 is the exact optimal table of perfect memory up to n = 200.
func BenchmarkTableExactPerfect200(b *testing.B) {
	benchTable[*big.Rat](b, field.Rat{}, exact.Model{}, 200)
}

// BenchmarkTableExactTwoKnown150 is the exact optimal table with pass rule two-known up to n = 150.
func BenchmarkTableExactTwoKnown150(b *testing.B) {
	benchTable[*big.Rat](b, field.Rat{}, exact.Model{Pass: rules.PassTwoKnown}, 150)
}

// BenchmarkTableFloatPerfect5000 is the float64 optimal table of perfect memory up to n = 5000.
func BenchmarkTableFloatPerfect5000(b *testing.B) {
	benchTable[float64](b, field.Float{}, exact.Model{}, 5000)
}

// BenchmarkTableExactPublishedTwoKnown150 is the exact optimal table up to n = 150 in the model of
// the published (n, k) solvers: pass rule two-known, choices daring, safe and pass.
func BenchmarkTableExactPublishedTwoKnown150(b *testing.B) {
	m := exact.Model{Pass: rules.PassTwoKnown, Choices: rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass)}
	benchTable[*big.Rat](b, field.Rat{}, m, 150)
}

// BenchmarkEvaluateExactPerfect500 is the exact value of optimal play against optimal play from
// (500, 500), perfect memory: memsim solve --pairs 500.
func BenchmarkEvaluateExactPerfect500(b *testing.B) {
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	st := rules.State{N: 500, J: 500}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exact.Evaluate(context.Background(), field.Rat{}, exact.Model{}, mu, st); err != nil {
			b.Fatal(err)
		}
	}
}
