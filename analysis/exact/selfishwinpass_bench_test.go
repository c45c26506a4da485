package exact_test

import (
	"context"
	"fmt"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// BenchmarkSelfWinPass times the evaluation of the win objective at three and four seats in
// float64 from the full deal under each pass rule: the pass streak's cost beside pass rule never.
func BenchmarkSelfWinPass(b *testing.B) {
	for _, rule := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
		for _, c := range []struct{ players, n int }{{3, 12}, {3, 20}, {4, 8}} {
			b.Run(fmt.Sprintf("%s/p=%d/n=%d", rule, c.players, c.n), func(b *testing.B) {
				b.ReportAllocs()
				m := exact.Model{Pass: rule}
				for b.Loop() {
					res, err := exact.EvaluateSelfWin(context.Background(), field.Float{}, m, c.players, rules.State{N: c.n, J: c.n}, nil)
					if err != nil {
						b.Fatal(err)
					}
					if len(res.Score) != c.players {
						b.Fatalf("%d scores, want %d", len(res.Score), c.players)
					}
				}
			})
		}
	}
}
