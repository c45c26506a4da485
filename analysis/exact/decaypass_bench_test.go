package exact_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// benchDecayPass evaluates optimal against optimal from (n, n) under decay forgetting with q = 0.1,
// no capacity and pass rule pass in field f, b.N times.
func benchDecayPass[T any](b *testing.B, f field.Field[T], pass rules.PassRule, n int) {
	b.Helper()
	m := exact.Model{Pass: pass, Memory: rules.Memory{Forget: rules.ForgetDecay, Decay: 0.1}}
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exact.Evaluate(context.Background(), f, m, mu, rules.State{N: n, J: n}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecayPassFloat100 is memsim solve --pairs 100 --forget decay --q 0.1 --pass always
// --float.
func BenchmarkDecayPassFloat100(b *testing.B) {
	benchDecayPass[float64](b, field.Float{}, rules.PassAlways, 100)
}

// BenchmarkDecayPassExact20 is memsim solve --pairs 20 --forget decay --q 0.1 --pass always.
func BenchmarkDecayPassExact20(b *testing.B) {
	benchDecayPass[*big.Rat](b, field.Rat{}, rules.PassAlways, 20)
}
