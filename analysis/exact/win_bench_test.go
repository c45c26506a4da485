package exact_test

import (
	"context"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// benchWinTable computes the win-optimal table of perfect memory up to maxPairs in field f, b.N
// times, and checks that every state was visited at every lead.
func benchWinTable[T any](b *testing.B, f field.Field[T], maxPairs int) {
	b.Helper()
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal}
	b.ReportAllocs()
	cells := 0
	for b.Loop() {
		cells = 0
		err := exact.WinTable(context.Background(), f, exact.Model{}, mu, maxPairs, func(*exact.WinCell[T]) error {
			cells++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if cells == 0 {
			b.Fatal("no cell visited")
		}
	}
	b.ReportMetric(float64(cells), "cells")
}

// BenchmarkWinTableFloat52 is the float64 win-optimal table of perfect memory up to n = 52.
func BenchmarkWinTableFloat52(b *testing.B) { benchWinTable[float64](b, field.Float{}, 52) }

// BenchmarkWinValueExact26 is the exact win, draw and loss probabilities of win-optimal self-play
// from the start of a 26-pair deal.
func BenchmarkWinValueExact26(b *testing.B) {
	mu := exact.Lineup{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyWinOptimal}
	start := rules.State{N: 26, J: 26}
	b.ReportAllocs()
	for b.Loop() {
		wdl, err := exact.WinDrawLoss[*big.Rat](context.Background(), field.Rat{}, exact.Model{}, mu, start)
		if err != nil {
			b.Fatal(err)
		}
		sum := new(big.Rat).Add(wdl[0].Win, wdl[0].Draw)
		if sum.Add(sum, wdl[0].Loss).Cmp(big.NewRat(1, 1)) != 0 {
			b.Fatalf("win + draw + loss = %s", sum.RatString())
		}
	}
}
