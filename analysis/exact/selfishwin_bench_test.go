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

// benchSelfWin evaluates the win objective of every seat for itself at players seats from the
// full deal of n pairs (perfect memory), b.N times: the sweep of every count state at every
// standings up to n pairs.
func benchSelfWin[T any](b *testing.B, f field.Field[T], players, n int) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		res, err := exact.EvaluateSelfWin(context.Background(), f, exact.Model{}, players, rules.State{N: n, J: n}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Score) != players {
			b.Fatalf("%d scores, want %d", len(res.Score), players)
		}
	}
}

// BenchmarkSelfWin times the evaluation in float64 and in exact rationals at the sizes
// docs/performance.md reports (exact rationals at three seats up to 12 pairs: the larger runs take
// minutes, which memsim solve measures).
func BenchmarkSelfWin(b *testing.B) {
	for _, c := range []struct{ players, n int }{{3, 8}, {3, 12}, {3, 20}, {3, 26}, {4, 8}, {4, 12}} {
		b.Run(fmt.Sprintf("float/p=%d/n=%d", c.players, c.n), func(b *testing.B) {
			benchSelfWin[float64](b, field.Float{}, c.players, c.n)
		})
		if c.n > 12 || c.players > 3 {
			continue
		}
		b.Run(fmt.Sprintf("exact/p=%d/n=%d", c.players, c.n), func(b *testing.B) {
			benchSelfWin[*big.Rat](b, field.Rat{}, c.players, c.n)
		})
	}
}
