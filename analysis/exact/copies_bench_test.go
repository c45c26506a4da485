package exact

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// BenchmarkCopiesDeck52 solves the 52-card deck matched by rank (copies 4) and by colour (copies
// 26) from the start, both seats optimal, in exact rationals and in float64
// (docs/performance.md).
func BenchmarkCopiesDeck52(b *testing.B) {
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	for _, k := range []int{4, 26} {
		m := Model{Variant: rules.Variant{Copies: k}}
		st, err := StartCopiesState(26, k)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("copies=%d/rat", k), func(b *testing.B) {
			for range b.N {
				if _, err := EvaluateCopies(context.Background(), field.Rat{}, m, mu, st); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("copies=%d/float", k), func(b *testing.B) {
			for range b.N {
				if _, err := EvaluateCopies(context.Background(), field.Float{}, m, mu, st); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
