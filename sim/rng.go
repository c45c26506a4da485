package sim

import "math/bits"

// rng is the engine's random number generator: wyrand (Wang Yi's 64-bit generator: a Weyl
// sequence mixed by one 64×64→128-bit multiplication), which passes BigCrush and PractRand and
// costs about a nanosecond. Its state is seeded with the SplitMix64 finaliser (Steele, Lea and
// Flood, 2014) from the run's seed, a stream number and the game's index alone, so a game can be
// replayed on its own and a run gives the same results on any number of workers.
type rng struct{ s uint64 }

const golden = 0x9e3779b97f4a7c15

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// seedRNG returns the generator of one stream of one game.
func seedRNG(seed, stream, index uint64) rng {
	return rng{s: mix64(seed+golden) ^ mix64(stream*golden+0x632be59bd9b4e019) ^ mix64(index+0x2545f4914f6cdd1d)}
}

func (r *rng) next() uint64 {
	r.s += wyIncrement
	return wyMix(r.s)
}

// wyIncrement is the step of wyrand's Weyl sequence: next adds it to the state, then mixes.
const wyIncrement = 0xa0761d6478bd642f

// wyMix is wyrand's output for the state s. A loop that draws many numbers can keep the state in
// a plain local (s += wyIncrement; wyMix(s)), which the compiler holds in a register, where an
// rng value whose next is called stays in memory.
func wyMix(s uint64) uint64 {
	hi, lo := bits.Mul64(s, s^wyMixConstant)
	return hi ^ lo
}

// wyMixConstant is what wyMix xors the state with before multiplying.
const wyMixConstant = 0xe7037ed1a0b428db

// intn returns a uniform integer in [0, n), n > 0, by Lemire's multiply-and-reject method.
func (r *rng) intn(n int) int {
	for {
		hi, lo := bits.Mul64(r.next(), uint64(n))
		// A low word below 2^64 mod n is rejected; that is below n, so the modulus is computed
		// only for a low word below n. (One call of next in the loop: small enough to inline.)
		if lo >= uint64(n) || lo >= -uint64(n)%uint64(n) {
			return int(hi)
		}
	}
}

// bounded32 returns a uniform integer in [0, n), 0 < n < 2^32, from the 32 random bits x, by
// Lemire's method; in the rare case it must reject x it draws again from r.
func (r *rng) bounded32(x, n uint32) uint32 {
	m := uint64(x) * uint64(n)
	if uint32(m) < n {
		thresh := -n % n
		for uint32(m) < thresh {
			m = uint64(uint32(r.next())) * uint64(n)
		}
	}
	return uint32(m >> 32)
}

// float64 returns a uniform number in [0, 1).
func (r *rng) float64() float64 { return float64(r.next()>>11) / (1 << 53) }
