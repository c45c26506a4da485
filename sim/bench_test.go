package sim

import (
	"context"
	"testing"

	"memsim/analysis/exact"
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

// BenchmarkGamePerfect26 is one worker playing parity against parity on 26 pairs with perfect
// memory; BenchmarkGamePerfect6, 12 and 52 the same on other deal sizes.
func BenchmarkGamePerfect26(b *testing.B) { benchGames(b, benchSetup(b, 26, rules.Memory{})) }
func BenchmarkGamePerfect6(b *testing.B)  { benchGames(b, benchSetup(b, 6, rules.Memory{})) }
func BenchmarkGamePerfect12(b *testing.B) { benchGames(b, benchSetup(b, 12, rules.Memory{})) }
func BenchmarkGamePerfect52(b *testing.B) { benchGames(b, benchSetup(b, 52, rules.Memory{})) }

// BenchmarkTightParity26 is the roofline of BenchmarkGamePerfect26: tightParity, the simplest fast
// loop for the same game (see there); BenchmarkTightParity6, 12 and 52 on the other deal sizes.
func BenchmarkTightParity26(b *testing.B) { benchTight(b, 26) }
func BenchmarkTightParity6(b *testing.B)  { benchTight(b, 6) }
func BenchmarkTightParity12(b *testing.B) { benchTight(b, 12) }
func BenchmarkTightParity52(b *testing.B) { benchTight(b, 52) }

// BenchmarkGamePrivateLRU7 is parity against parity on 26 pairs with private lru memories of
// capacity 7.
func BenchmarkGamePrivateLRU7(b *testing.B) {
	benchGames(b, benchSetup(b, 26, rules.Memory{Capacity: 7, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}))
}

// BenchmarkGameSharedHandover7 is the same with one shared handover-uniform memory of capacity 7.
func BenchmarkGameSharedHandover7(b *testing.B) {
	benchGames(b, benchSetup(b, 26, rules.Memory{Capacity: 7, Forget: rules.ForgetHandoverUniform}))
}

// BenchmarkGameDecay is the same with one shared decay memory, q = 0.1, without a capacity.
func BenchmarkGameDecay(b *testing.B) {
	benchGames(b, benchSetup(b, 26, rules.Memory{Forget: rules.ForgetDecay, Decay: 0.1}))
}

// tightParity is the roofline of the perfect-memory engine: the simplest fast loop for the game of
// BenchmarkGamePerfect26 written by hand, two players of the parity policy sharing a perfect
// memory. It deals as the engine does (the same generator, seeded alike, and the same shuffle:
// two 32-bit bounded draws per 64-bit number) and, since the cards nobody has seen are
// exchangeable, flips them in deal order from the end, as the engine does; with perfect memory
// only faces matter, so it keeps one flag per face and the number of remembered cards. It plays
// the very game the engine plays (TestTightParityIsTheEngine): it returns seat 0's and seat 1's
// pairs and the number of turns. face has 2n entries; known n, all false on return.
func tightParity(face []int32, known []bool, n int, r *rng) (p0, p1, turns int) {
	for i := range face {
		face[i] = int32(i >> 1)
	}
	i := len(face) - 1
	for ; i > 1; i -= 2 {
		x := r.next()
		k := r.bounded32(uint32(x), uint32(i+1))
		face[i], face[k] = face[k], face[i]
		k = r.bounded32(uint32(x>>32), uint32(i))
		face[i-1], face[k] = face[k], face[i-1]
	}
	if i == 1 {
		k := r.bounded32(uint32(r.next()), 2)
		face[1], face[k] = face[k], face[1]
	}
	var score [2]int
	seat, next, left, half := 0, len(face), n, 0 // half: remembered cards (one per half-known pair)
	pend := int32(-1)                            // a pair left fully known, taken by the next mover
	for left > 0 {
		turns++
		if pend >= 0 {
			known[pend], pend = false, -1
			half--
			left--
			score[seat]++
			continue
		}
		next--
		fx := face[next]
		if known[fx] {
			known[fx] = false
			half--
			left--
			score[seat]++
			continue
		}
		if half > 0 && (left-half)&1 == 0 { // parity: safe when j is even and a card is known
			known[fx] = true
			half++
			seat ^= 1
			continue
		}
		next--
		fy := face[next]
		if fy == fx {
			left--
			score[seat]++
			continue
		}
		known[fx] = true
		half++
		if known[fy] {
			pend = fy
		} else {
			known[fy] = true
			half++
		}
		seat ^= 1
	}
	return score[0], score[1], turns
}

func benchTight(b *testing.B, n int) {
	face, known := padded[int32](2*n), padded[bool](n)
	sink := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		r := seedRNG(1, 1, uint64(i))
		p0, _, turns := tightParity(face, known, n, &r)
		sink += p0 + turns
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	if sink < 0 {
		b.Fatal("impossible")
	}
}

// The roofline plays the very game the engine plays: the same pairs per seat and turns.
func TestTightParityIsTheEngine(t *testing.T) {
	for _, n := range []int{1, 2, 6, 12, 26, 52} {
		g, err := NewGame(benchSetup(t, n, rules.Memory{}))
		if err != nil {
			t.Fatal(err)
		}
		face, known := make([]int32, 2*n), make([]bool, n)
		for i := range uint64(2000) {
			if err := g.Play(GameID{Seed: 1, DealStream: 1, PlayStream: 2, Index: i}, nil); err != nil {
				t.Fatal(err)
			}
			r := seedRNG(1, 1, i)
			p0, p1, turns := tightParity(face, known, n, &r)
			if o := g.Outcome(); o.Pairs[0] != p0 || o.Pairs[1] != p1 || o.Turns != turns {
				t.Fatalf("n=%d game %d: engine %v pairs in %d turns, tight loop [%d %d] in %d", n, i, o.Pairs, o.Turns, p0, p1, turns)
			}
		}
	}
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

// withLuck gives s the luck table of model m (docs/models.md §5.6).
func withLuck(tb testing.TB, s Setup, m exact.Model) Setup {
	tb.Helper()
	lt, err := exact.LuckTable(context.Background(), m, len(s.Players), s.Pairs)
	if err != nil {
		tb.Fatal(err)
	}
	s.Luck = lt
	return s
}

// BenchmarkLuckPerfect26 is BenchmarkGamePerfect26 with luck-adjusted scores (the model's
// advantages, read with the choices on the lean path); BenchmarkLuckPerfect12 on 12 pairs.
func BenchmarkLuckPerfect26(b *testing.B) {
	benchGames(b, withLuck(b, benchSetup(b, 26, rules.Memory{}), exact.Model{}))
}
func BenchmarkLuckPerfect12(b *testing.B) {
	benchGames(b, withLuck(b, benchSetup(b, 12, rules.Memory{}), exact.Model{}))
}

// BenchmarkLuckSharedHandover7 is BenchmarkGameSharedHandover7 with luck-adjusted scores (the
// limited-memory lean path).
func BenchmarkLuckSharedHandover7(b *testing.B) {
	mem := rules.Memory{Capacity: 7, Forget: rules.ForgetHandoverUniform}
	benchGames(b, withLuck(b, benchSetup(b, 26, mem), exact.Model{Memory: mem}))
}

// BenchmarkLuckPrivateLRU7 is BenchmarkGamePrivateLRU7 with luck-adjusted scores: private lru
// memories of one capacity hold the same cards as a shared one, so the model of that memory
// adjusts them on the lean path.
func BenchmarkLuckPrivateLRU7(b *testing.B) {
	lru := rules.Memory{Capacity: 7, Forget: rules.ForgetLRU}
	private := lru
	private.Scope = rules.ScopePrivate
	benchGames(b, withLuck(b, benchSetup(b, 26, private), exact.Model{Memory: lru}))
}

// BenchmarkLuckDecay is BenchmarkGameDecay with luck-adjusted scores, card by card.
func BenchmarkLuckDecay(b *testing.B) {
	benchGames(b, withLuck(b, benchSetup(b, 26, rules.Memory{Forget: rules.ForgetDecay, Decay: 0.1}), exact.Model{}))
}

// mixedSetup is parity with perfect memory against parity with a private lru memory of capacity
// 7 on 26 pairs: the general path.
func mixedSetup(tb testing.TB) Setup {
	s := benchSetup(tb, 26, rules.Memory{})
	s.Players[1].Memory = rules.Memory{Capacity: 7, Forget: rules.ForgetLRU, Scope: rules.ScopePrivate}
	return s
}

// BenchmarkGameMixed is mixedSetup's game; BenchmarkLuckMixed the same adjusted card by card.
func BenchmarkGameMixed(b *testing.B) { benchGames(b, mixedSetup(b)) }
func BenchmarkLuckMixed(b *testing.B) { benchGames(b, withLuck(b, mixedSetup(b), exact.Model{})) }
