package sim

import (
	"context"
	"testing"

	"memsim/sim/rules"
)

// benchSetup is parity against parity on n pairs, both with memory mem.
func benchSetup(tb testing.TB, n int, mem rules.Memory) Setup {
	tb.Helper()
	t, err := rules.FixedChoiceTable(rules.PolicyParity, n, 0)
	if err != nil {
		tb.Fatal(err)
	}
	p := Player{Name: "parity", Memory: mem, Table: t}
	return Setup{Pairs: n, Players: []Player{p, p}}
}

func benchGames(b *testing.B, s Setup) {
	g, err := NewGame(s)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if err := g.Play(GameID{Seed: 1, DealStream: 1, PlayStream: 2, Index: uint64(i)}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkGamePerfect26 is one worker playing parity against parity on 26 pairs with perfect memory.
func BenchmarkGamePerfect26(b *testing.B) { benchGames(b, benchSetup(b, 26, rules.Memory{})) }

// BenchmarkGamePrivateLRU7 is the same with private lru memories of capacity 7.
func BenchmarkGamePrivateLRU7(b *testing.B) {
	benchGames(b, benchSetup(b, 26, rules.Memory{Capacity: 7, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}))
}

func benchPool(b *testing.B, workers int) {
	m := Match{Setup: benchSetup(b, 26, rules.Memory{}), Orders: [][]int{{0, 1}}, Deals: int64(b.N), Seed: 1, DealStream: 1, PlayStream: 2}
	b.ResetTimer()
	if _, err := m.Play(context.Background(), workers, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkPool1 and BenchmarkPool2 play the perfect-memory workload on one and two workers.
func BenchmarkPool1(b *testing.B) { benchPool(b, 1) }
func BenchmarkPool2(b *testing.B) { benchPool(b, 2) }
