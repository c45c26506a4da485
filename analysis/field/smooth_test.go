package field

import (
	"math/big"
	"math/rand"
	"testing"
)

// smoothOf returns r as a SmoothRat of s, factoring its denominator by trial division.
func smoothOf(t *testing.T, s *Smooth, r *big.Rat) *SmoothRat {
	t.Helper()
	z := &SmoothRat{}
	z.num.Set(r.Num())
	z.den.Set(r.Denom())
	d := new(big.Int).Set(r.Denom())
	var q, m big.Int
	for i, p := range s.primes {
		bp := new(big.Int).SetUint64(p)
		for {
			q.QuoRem(d, bp, &m)
			if m.Sign() != 0 {
				break
			}
			d.Set(&q)
			z.exp = addExp(z.exp, i, 1)
		}
	}
	if d.Cmp(big.NewInt(1)) != 0 {
		t.Fatalf("%s is not %d-smooth", r.RatString(), s.bound)
	}
	return z
}

// randomSmooth returns a random rational whose denominator is a product of primes up to bound,
// with numerators up to about bits bits; zero and integers now and then.
func randomSmooth(rng *rand.Rand, s *Smooth, bits int) *big.Rat {
	switch rng.Intn(10) {
	case 0:
		return new(big.Rat)
	case 1:
		return new(big.Rat).SetInt64(rng.Int63n(1000) - 500)
	}
	den := big.NewInt(1)
	for den.BitLen() < bits {
		p := s.primes[rng.Intn(len(s.primes))]
		if rng.Intn(3) == 0 {
			p = s.primes[rng.Intn(min(4, len(s.primes)))] // small primes, to high powers
		}
		den.Mul(den, new(big.Int).SetUint64(p))
	}
	num := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(bits+rng.Intn(20))))
	if rng.Intn(2) == 0 {
		num.Neg(num)
	}
	// A numerator sharing factors with the denominator now and then, so that reduction matters.
	if rng.Intn(3) == 0 {
		num.Mul(num, new(big.Int).SetUint64(s.primes[rng.Intn(len(s.primes))]))
	}
	return new(big.Rat).SetFrac(num, den)
}

func TestSmoothCombinationsMatchBigRat(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, bound := range []int{2, 3, 30, 401, 2003} {
		s := NewSmooth(bound)
		c := s.NewCombination()
		trials := 300
		if testing.Short() {
			trials = 60
		}
		for trial := range trials {
			bitsz := 1 + rng.Intn(3000)
			if trial%3 == 0 {
				bitsz = 1 + rng.Intn(64)
			}
			k := 1 + rng.Intn(5)
			rats := make([]*big.Rat, k)
			ops := make([]*SmoothRat, k)
			for i := range k {
				rats[i] = randomSmooth(rng, s, bitsz)
				ops[i] = smoothOf(t, s, rats[i])
			}
			// q: a product of small smooth factors, as the probabilities' denominators are.
			q := uint64(1)
			for range rng.Intn(3) {
				q *= uint64(1 + rng.Intn(bound))
			}
			c.Reset(q, ops...)
			var x big.Int
			coef := make([]int64, k)
			for range 3 {
				want := new(big.Rat)
				for i := range k {
					coef[i] = rng.Int63n(1<<40) - 1<<39
					if rng.Intn(4) == 0 {
						coef[i] = 0
					}
					want.Add(want, new(big.Rat).Mul(rats[i], new(big.Rat).SetInt64(coef[i])))
				}
				want.Quo(want, new(big.Rat).SetUint64(q))
				c.Sum(&x, coef)
				var z SmoothRat
				c.Reduce(&z, &x)
				got := z.Rat()
				if !sameFrac(got, want) {
					t.Fatalf("bound %d: got %s, want %s", bound, got.RatString(), want.RatString())
				}
				// The exponents describe the denominator.
				if back := smoothOf(t, s, want); !equalExp(back.exp, z.exp) {
					t.Fatalf("bound %d: exponents %v, want %v", bound, z.exp, back.exp)
				}
				n := rng.Int63n(2000) - 1000
				half := new(big.Rat).Add(want, new(big.Rat).SetInt64(n))
				half.Quo(half, big.NewRat(2, 1))
				if h := z.Halve(n, false); !sameFrac(h, half) {
					t.Fatalf("(%d + %s)/2 = %s, want %s", n, want.RatString(), h.RatString(), half.RatString())
				}
				half.Sub(half, want)
				if h := z.Halve(n, true); !sameFrac(h, half) {
					t.Fatalf("(%d - %s)/2 = %s, want %s", n, want.RatString(), h.RatString(), half.RatString())
				}
				if z.Sign() != want.Sign() {
					t.Fatalf("sign %d, want %d", z.Sign(), want.Sign())
				}
			}
		}
	}
}

func equalExp(a, b []int32) bool {
	for i := range max(len(a), len(b)) {
		if expAt(a, i) != expAt(b, i) {
			return false
		}
	}
	return true
}

func TestSmoothSetAndZero(t *testing.T) {
	var z SmoothRat
	if z.Sign() != 0 || z.Rat().Sign() != 0 || z.Rat().Denom().Int64() != 1 {
		t.Fatalf("zero value is not 0: %s", z.Rat().RatString())
	}
	z.SetInt64(-7)
	var y SmoothRat
	y.Set(&z)
	if y.Rat().Cmp(big.NewRat(-7, 1)) != 0 {
		t.Fatalf("Set: %s", y.Rat().RatString())
	}
}

func TestSmoothRejectsRoughDenominators(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a factor 13 with bound 11 was accepted")
		}
	}()
	s := NewSmooth(11)
	s.NewCombination().Reset(13, new(SmoothRat).SetInt64(1))
}

func TestSmoothResidues(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	s := NewSmooth(3000)
	for range 50 {
		x := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(20000))))
		for b, m := range s.mod {
			want := new(big.Int).Mod(x, new(big.Int).SetUint64(m)).Uint64()
			if got := s.residue(b, x.Bits()); got != want {
				t.Fatalf("residue mod %d: %d, want %d", m, got, want)
			}
		}
	}
}

func TestDivExact(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for range 1000 {
		d := uint(rng.Int63n(maxDivisor)) | 1
		if rng.Intn(3) == 0 {
			d = uint(1 + 2*rng.Intn(50))
		}
		x := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(3000))))
		if rng.Intn(2) == 0 {
			x.Mul(x, new(big.Int).SetUint64(uint64(d)))
		}
		var quo, rem big.Int
		quo.QuoRem(x, new(big.Int).SetUint64(uint64(d)), &rem)
		xs := append([]big.Word(nil), x.Bits()...)
		q, ok := divExact(make([]big.Word, len(xs)), xs, d)
		if ok != (rem.Sign() == 0) {
			t.Fatalf("%s / %d: divisible %v, want %v", x, d, ok, rem.Sign() == 0)
		}
		if ok && new(big.Int).SetBits(q).Cmp(&quo) != 0 {
			t.Fatalf("%s / %d: %s, want %s", x, d, new(big.Int).SetBits(q), &quo)
		}
		// In place.
		if ok {
			q, _ = divExact(xs, xs, d)
			if new(big.Int).SetBits(q).Cmp(&quo) != 0 {
				t.Fatalf("%s / %d in place: %s, want %s", x, d, new(big.Int).SetBits(q), &quo)
			}
		}
	}
}

func TestShiftDown(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for range 1000 {
		x := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(1000))))
		k := uint(rng.Intn(300))
		want := new(big.Int).Rsh(x, k)
		got := new(big.Int).SetBits(shiftDown(append([]big.Word(nil), x.Bits()...), k))
		if got.Cmp(want) != 0 {
			t.Fatalf("%s >> %d = %s, want %s", x, k, got, want)
		}
	}
}

// sameFrac reports whether a and b have the same numerator and denominator (big.Rat.Cmp would
// not notice a fraction left unreduced).
func sameFrac(a, b *big.Rat) bool {
	return a.Num().Cmp(b.Num()) == 0 && a.Denom().Cmp(b.Denom()) == 0
}

func TestDivisibilityByInverse(t *testing.T) {
	s := NewSmooth(500)
	rng := rand.New(rand.NewSource(5))
	for i, p := range s.primes[1:] {
		i++
		for range 2000 {
			r := uint64(rng.Int63n(1 << 62))
			if rng.Intn(2) == 0 {
				r -= r % p
			}
			if got := r*s.inv[i] <= s.lim[i]; got != (r%p == 0) {
				t.Fatalf("%d divisible by %d: %v", r, p, got)
			}
		}
	}
}
