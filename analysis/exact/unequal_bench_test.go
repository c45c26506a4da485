package exact_test

import (
	"context"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// unequalBench is lru(12) against lru(7) on 52 pairs, both seats optimal, {daring, safe, pass}
// under pass rule two-known: the largest of docs/performance.md's unequal-memory figures.
var unequalBench = exact.Unequal{
	Pass:     rules.PassTwoKnown,
	Choices:  rules.NewChoiceSet(rules.Daring, rules.Safe, rules.Pass),
	Capacity: [2]int{12, 7},
	Policy:   [2]rules.Policy{rules.PolicyOptimal, rules.PolicyOptimal},
}

func BenchmarkUnequalRat(b *testing.B) {
	for range b.N {
		if _, err := exact.EvaluateUnequal(context.Background(), field.Rat{}, unequalBench, 52); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnequalFloat(b *testing.B) {
	for range b.N {
		if _, err := exact.EvaluateUnequal(context.Background(), field.Float{}, unequalBench, 52); err != nil {
			b.Fatal(err)
		}
	}
}
