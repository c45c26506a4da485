package sim

import (
	"math"
	"testing"

	"memsim/sim/rules"
)

// A fluctuating capacity is max(2, base + d), d uniform on -σ .. σ: every value of that range
// occurs, about equally often, and no other.
func TestFluctuationDrawsEveryCapacityInRange(t *testing.T) {
	for _, tc := range []struct{ base, sigma int }{{7, 3}, {3, 2}, {2, 5}, {5, 1}} {
		m := newMemory(rules.Memory{Capacity: tc.base, Forget: rules.ForgetLRU, Fluctuation: tc.sigma}, 4, 2, 2, make([]int32, 4), make([]int32, 4))
		m.fl = seedRNG(1, fluctuationStream(2, 0), 3)
		const draws = 30000
		count := map[int]int{}
		for range draws {
			m.fluctuate(&deal{})
			count[m.capacity]++
		}
		for c, k := range count {
			if c < max(2, tc.base-tc.sigma) || c > tc.base+tc.sigma {
				t.Errorf("base %d, σ %d: capacity %d drawn %d times, outside the range", tc.base, tc.sigma, c, k)
			}
		}
		for d := -tc.sigma; d <= tc.sigma; d++ {
			c := max(2, tc.base+d)
			want := 0
			for e := -tc.sigma; e <= tc.sigma; e++ {
				if max(2, tc.base+e) == c {
					want++
				}
			}
			// want/(2σ+1) of the draws, within 5 standard deviations.
			p := float64(want) / float64(2*tc.sigma+1)
			mean, sd := p*draws, 5*sqrt(p*(1-p)*draws)
			if k := float64(count[c]); k < mean-sd || k > mean+sd {
				t.Errorf("base %d, σ %d: capacity %d drawn %v times, expected about %.0f", tc.base, tc.sigma, c, k, mean)
			}
		}
	}
}

func sqrt(x float64) float64 {
	z := x
	for range 60 {
		if z == 0 {
			return 0
		}
		z = (z + x/z) / 2
	}
	return z
}

// Under lru a lower capacity forgets the least recently seen cards at once.
func TestFluctuationForgetsTheLeastRecent(t *testing.T) {
	cards := 12
	noneAt, identity := make([]int32, cards), make([]int32, cards)
	for i := range cards {
		noneAt[i], identity[i] = -1, int32(i)
	}
	d := &deal{face: make([]int32, cards), pairs: int32(cards / 2), seen: make([]bool, cards)}
	for pos := range cards {
		d.face[pos] = int32(pos / 2)
	}
	m := newMemory(rules.Memory{Capacity: 6, Forget: rules.ForgetLRU, Fluctuation: 4}, cards, cards/2, 2, noneAt, identity)
	m.reset()
	for _, pos := range []int32{0, 2, 4, 6, 8, 10} {
		m.see(d, pos, 1)
		d.seen[pos] = true
	}
	m.fl = seedRNG(9, fluctuationStream(1, 0), 0)
	for m.capacity >= 6 {
		m.fluctuate(d)
	}
	if got := len(m.listed.items); got != m.capacity {
		t.Fatalf("capacity %d, %d cards stored", m.capacity, got)
	}
	for i, pos := range []int32{0, 2, 4, 6, 8, 10} {
		if kept, want := m.known(pos), i >= 6-m.capacity; kept != want {
			t.Errorf("capacity %d: card %d (seen %d-th) remembered %v", m.capacity, pos, i+1, kept)
		}
	}
}

// A capacity near the largest integer fluctuates without wrapping around: base + d saturates at
// the largest integer, which forgets nothing.
func TestFluctuationSaturatesAtTheLargestCapacity(t *testing.T) {
	const base, sigma = math.MaxInt - 1, 3
	m := newMemory(rules.Memory{Capacity: base, Forget: rules.ForgetLRU, Fluctuation: sigma}, 4, 2, 2, make([]int32, 4), make([]int32, 4))
	m.fl = seedRNG(1, fluctuationStream(2, 0), 3)
	for range 200 {
		m.fluctuate(&deal{})
		if m.capacity < base-sigma {
			t.Fatalf("base %d, σ %d: capacity %d drawn", base, sigma, m.capacity)
		}
	}
}
