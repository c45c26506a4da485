package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// benchSelfWinMixed evaluates a lineup that mixes win-optimal with safe and daring (and parity at
// a fourth seat) from the full deal of n pairs (perfect memory), b.N times: the sweep of every
// count state at every standings once per mover's seat.
func benchSelfWinMixed[T any](b *testing.B, f field.Field[T], pols []rules.Policy, n int) {
	b.Helper()
	b.ReportAllocs()
	mu := exact.SeatLineup(pols...)
	for b.Loop() {
		res, err := exact.EvaluateStandings(context.Background(), f, exact.Model{}, mu, rules.State{N: n, J: n}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Score) != len(pols) {
			b.Fatalf("%d scores, want %d", len(res.Score), len(pols))
		}
	}
}

// BenchmarkSelfWinMixed times the evaluation of win-optimal beside fixed policies in float64 and
// in exact rationals at the sizes docs/performance.md reports.
func BenchmarkSelfWinMixed(b *testing.B) {
	W, S, D, P := rules.PolicyWinOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity
	for _, c := range []struct {
		pols []rules.Policy
		n    int
	}{{[]rules.Policy{W, S, D}, 8}, {[]rules.Policy{W, S, D}, 20}, {[]rules.Policy{W, S, D, P}, 6}, {[]rules.Policy{W, S, D, P}, 12}} {
		b.Run(fmt.Sprintf("float/p=%d/n=%d", len(c.pols), c.n), func(b *testing.B) {
			benchSelfWinMixed[float64](b, field.Float{}, c.pols, c.n)
		})
		if c.n > 8 {
			continue
		}
		b.Run(fmt.Sprintf("exact/p=%d/n=%d", len(c.pols), c.n), func(b *testing.B) {
			benchSelfWinMixed[*big.Rat](b, field.Rat{}, c.pols, c.n)
		})
	}
}
