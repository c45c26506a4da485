package exact_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// benchSelfishTable builds the choice table of the optimum of every seat for itself at players
// seats in model m up to maxPairs pairs, b.N times: what a tournament's optimal player at that
// table needs.
func benchSelfishTable[T any](b *testing.B, f field.Field[T], m exact.Model, players, maxPairs int) {
	b.Helper()
	mu := exact.Lineup{Players: players, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	b.ReportAllocs()
	for b.Loop() {
		t, err := exact.PolicyTable(context.Background(), f, m, mu, maxPairs)
		if err != nil {
			b.Fatal(err)
		}
		if t.MaxPairs() != maxPairs {
			b.Fatalf("table up to %d pairs, want %d", t.MaxPairs(), maxPairs)
		}
	}
}

// BenchmarkSelfishTableExact3Players100 is the exact table of three seats up to n = 100.
func BenchmarkSelfishTableExact3Players100(b *testing.B) {
	benchSelfishTable[*big.Rat](b, field.Rat{}, exact.Model{}, 3, 100)
}

// BenchmarkSelfishTableExact4Players100 is the exact table of four seats up to n = 100.
func BenchmarkSelfishTableExact4Players100(b *testing.B) {
	benchSelfishTable[*big.Rat](b, field.Rat{}, exact.Model{}, 4, 100)
}

// BenchmarkSelfishTableFloat3Players100 is the float64 table of three seats up to n = 100.
func BenchmarkSelfishTableFloat3Players100(b *testing.B) {
	benchSelfishTable[float64](b, field.Float{}, exact.Model{}, 3, 100)
}

// BenchmarkSelfishTableFloat4Players100 is the float64 table of four seats up to n = 100.
func BenchmarkSelfishTableFloat4Players100(b *testing.B) {
	benchSelfishTable[float64](b, field.Float{}, exact.Model{}, 4, 100)
}

// BenchmarkSelfishTableExact4PlayersLRU100 is the exact table of four seats up to n = 100 with a
// shared lru memory of capacity 7, where forgotten cards make states refer to themselves.
func BenchmarkSelfishTableExact4PlayersLRU100(b *testing.B) {
	m := exact.Model{Memory: rules.Memory{Capacity: 7, Forget: rules.ForgetLRU}}
	benchSelfishTable[*big.Rat](b, field.Rat{}, m, 4, 100)
}
