package exact_test

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// BenchmarkBestResponseToSeats52 computes the best reply at three and eight seats to optimal's
// two-player table at every other seat, up to 52 pairs, pass rule two-known, in float64 (the
// reply and optimal in its place, one sweep each).
func BenchmarkBestResponseToSeats52(b *testing.B) {
	plain, _ := benchTables(b)
	m := exact.Model{Pass: rules.PassTwoKnown}
	for _, players := range []int{3, 8} {
		b.Run(fmt.Sprintf("p=%d", players), func(b *testing.B) {
			for b.Loop() {
				if _, err := exact.BestResponseToSeats(context.Background(), field.Float{}, m, plain, players, 52); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
