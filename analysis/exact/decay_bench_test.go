package exact_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// benchDecay evaluates optimal against optimal from (n, n) under decay forgetting with q = 0.1 and
// the given capacity (0: none) in field f, b.N times.
func benchDecay[T any](b *testing.B, f field.Field[T], capacity, n int) {
	b.Helper()
	m := exact.Model{Memory: rules.Memory{Capacity: capacity, Forget: rules.ForgetDecay, Decay: 0.1}}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exact.Evaluate(context.Background(), f, m, mu, rules.State{N: n, J: n}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecayFloat100 is memsim solve --pairs 100 --forget decay --q 0.1 --float.
func BenchmarkDecayFloat100(b *testing.B) { benchDecay[float64](b, field.Float{}, 0, 100) }

// BenchmarkDecayFloatCapacity8x100 is the same with --memory 8.
func BenchmarkDecayFloatCapacity8x100(b *testing.B) { benchDecay[float64](b, field.Float{}, 8, 100) }

// BenchmarkDecayExact20 is memsim solve --pairs 20 --forget decay --q 0.1.
func BenchmarkDecayExact20(b *testing.B) { benchDecay[*big.Rat](b, field.Rat{}, 0, 20) }

// BenchmarkDecayExact40 is memsim solve --pairs 40 --forget decay --q 0.1.
func BenchmarkDecayExact40(b *testing.B) { benchDecay[*big.Rat](b, field.Rat{}, 0, 40) }

// BenchmarkDecayExactCapacity3x100 is memsim solve --pairs 100 --memory 3 --forget decay --q 0.1.
func BenchmarkDecayExactCapacity3x100(b *testing.B) { benchDecay[*big.Rat](b, field.Rat{}, 3, 100) }

// BenchmarkDecayExact50 is memsim solve --pairs 50 --forget decay --q 0.1 --big; run it with
// -benchtime 1x.
func BenchmarkDecayExact50(b *testing.B) { benchDecay[*big.Rat](b, field.Rat{}, 0, 50) }

// BenchmarkDecayExact100 is memsim solve --pairs 100 --forget decay --q 0.1 --big; run it with
// -benchtime 1x.
func BenchmarkDecayExact100(b *testing.B) { benchDecay[*big.Rat](b, field.Rat{}, 0, 100) }

// BenchmarkDecayExact60 is memsim solve --pairs 60 --forget decay --q 0.1; run it with
// -benchtime 1x.
func BenchmarkDecayExact60(b *testing.B) { benchDecay[*big.Rat](b, field.Rat{}, 0, 60) }
