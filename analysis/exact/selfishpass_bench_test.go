package exact_test

import (
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// BenchmarkSelfishPassTableExact3Players100 is the exact table of three seats up to n = 100 under
// pass rule two-known: a choice at every pass streak of every state.
func BenchmarkSelfishPassTableExact3Players100(b *testing.B) {
	benchSelfishTable[*big.Rat](b, field.Rat{}, exact.Model{Pass: rules.PassTwoKnown}, 3, 100)
}

// BenchmarkSelfishPassTableExact4Players100 is the same with four seats.
func BenchmarkSelfishPassTableExact4Players100(b *testing.B) {
	benchSelfishTable[*big.Rat](b, field.Rat{}, exact.Model{Pass: rules.PassTwoKnown}, 4, 100)
}

// BenchmarkSelfishPassTableFloat3Players100 is the float64 table of three seats up to n = 100
// under pass rule two-known.
func BenchmarkSelfishPassTableFloat3Players100(b *testing.B) {
	benchSelfishTable[float64](b, field.Float{}, exact.Model{Pass: rules.PassTwoKnown}, 3, 100)
}

// BenchmarkSelfishPassTableFloat4Players100 is the same with four seats.
func BenchmarkSelfishPassTableFloat4Players100(b *testing.B) {
	benchSelfishTable[float64](b, field.Float{}, exact.Model{Pass: rules.PassTwoKnown}, 4, 100)
}
