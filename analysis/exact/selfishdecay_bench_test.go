package exact_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// benchSelfishDecay evaluates every seat for itself at p seats from (n, n) under decay forgetting
// with q = 0.1 and no capacity in field f, b.N times.
func benchSelfishDecay[T any](b *testing.B, f field.Field[T], p, n int) {
	b.Helper()
	m := exact.Model{Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.1}}
	mu := exact.Lineup{Players: p, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exact.Evaluate(context.Background(), f, m, mu, rules.State{N: n, J: n}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSelfishDecay3Float100 is memsim solve --players 3 --pairs 100 --forget decay --q 0.1
// --float.
func BenchmarkSelfishDecay3Float100(b *testing.B) {
	benchSelfishDecay[float64](b, field.Float{}, 3, 100)
}

// BenchmarkSelfishDecay4Float100 is the same at four seats.
func BenchmarkSelfishDecay4Float100(b *testing.B) {
	benchSelfishDecay[float64](b, field.Float{}, 4, 100)
}

// BenchmarkSelfishDecay3Exact16 is memsim solve --players 3 --pairs 16 --forget decay --q 0.1.
func BenchmarkSelfishDecay3Exact16(b *testing.B) {
	benchSelfishDecay[*big.Rat](b, field.Rat{}, 3, 16)
}

// BenchmarkSelfishDecay4Exact16 is the same at four seats.
func BenchmarkSelfishDecay4Exact16(b *testing.B) {
	benchSelfishDecay[*big.Rat](b, field.Rat{}, 4, 16)
}
