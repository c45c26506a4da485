package field

import (
	"fmt"
	"math/big"
	"math/bits"
)

// Smooth is exact arithmetic on rationals whose denominators have no prime factor above a bound B
// (B-smooth). The exact models without forgetting have such values: every probability of a turn
// has a denominator made of the counts of face-down cards, so a value is a sum of products of
// probabilities whose denominators are products of primes up to the number of cards.
//
// Knowing the prime support of every denominator replaces greatest common divisors, which are
// most of the cost of exact arithmetic on numbers of thousands of bits, by exponent vectors and
// divisibility tests by single primes:
//
//   - the least common denominator of several values is the maximum of their exponent vectors;
//   - a linear combination of values with small integer coefficients (Combination) is formed over
//     that common denominator with multiplications by words and one multiplication per operand;
//   - it is brought to lowest terms (Combination.Reduce) by testing the numerator for
//     divisibility by the primes of the common denominator only: the residues of the numerator
//     modulo products of several primes are sums of its words times precomputed powers of the
//     word base, one multiply-add per word and product of primes, and only the primes found to
//     divide it are divided out.
//
// A Smooth holds growing tables, and a SmoothRat sets its denominator on first use: neither is
// safe for concurrent use.
type Smooth struct {
	bound  int
	primes []uint64 // the primes up to bound, in increasing order
	// For the odd primes p, inv[i] = 1/p mod 2^64 and lim[i] = (2^64 - 1)/p: r is a multiple
	// of p exactly when r*inv[i] mod 2^64 <= lim[i] (Granlund and Montgomery), a multiplication
	// where r % p would take a division.
	inv, lim []uint64
	index    []int32  // index[p]: position of the prime p in primes; -1 when p is not prime
	spf      []uint32 // spf[k]: the smallest prime factor of k, 2 <= k <= bound

	// The primes are grouped in batches of consecutive primes whose product mod[b] is below 2^62;
	// pow[b][i] is 2^(W*i) mod mod[b], W the word size of big.Word.
	batchOf []int32
	start   []int32 // start[b]: index of the first prime of batch b; start[len(mod)] = len(primes)
	mod     []uint64
	pow     [][]uint64

	// Scratch.
	word  big.Int
	found []int32
}

// NewSmooth returns the arithmetic of rationals whose denominators are bound-smooth.
func NewSmooth(bound int) *Smooth {
	bound = max(bound, 2)
	s := &Smooth{bound: bound, index: make([]int32, bound+1), spf: make([]uint32, bound+1)}
	for k := range s.index {
		s.index[k] = -1
	}
	for k := 2; k <= bound; k++ {
		if s.spf[k] != 0 {
			continue
		}
		s.index[k] = int32(len(s.primes))
		s.primes = append(s.primes, uint64(k))
		for m := k; m <= bound; m += k {
			if s.spf[m] == 0 {
				s.spf[m] = uint32(k)
			}
		}
	}
	s.inv = make([]uint64, len(s.primes))
	s.lim = make([]uint64, len(s.primes))
	for i, p := range s.primes {
		if p%2 == 1 {
			s.inv[i] = inverse64(p)
			s.lim[i] = ^uint64(0) / p
		}
	}
	s.batchOf = make([]int32, len(s.primes))
	prod := uint64(1)
	for i, p := range s.primes {
		if hi, lo := bits.Mul64(prod, p); len(s.mod) == 0 || hi != 0 || lo >= 1<<62 {
			s.start = append(s.start, int32(i))
			s.mod = append(s.mod, p)
			prod = p
		} else {
			prod = lo
			s.mod[len(s.mod)-1] = prod
		}
		s.batchOf[i] = int32(len(s.mod) - 1)
	}
	s.start = append(s.start, int32(len(s.primes)))
	s.pow = make([][]uint64, len(s.mod))
	return s
}

// SmoothRat is a rational number num/den in lowest terms, den > 0, with den = the product of
// primes[i]^exp[i] of its Smooth (exp may be shorter than primes: the missing exponents are 0).
// The zero value is 0.
type SmoothRat struct {
	num, den big.Int
	exp      []int32
}

// SetInt64 sets z to the integer a and returns z.
func (z *SmoothRat) SetInt64(a int64) *SmoothRat {
	z.num.SetInt64(a)
	z.den.SetInt64(1)
	z.exp = z.exp[:0]
	return z
}

// Set sets z to x and returns z.
func (z *SmoothRat) Set(x *SmoothRat) *SmoothRat {
	if z != x {
		z.num.Set(&x.num)
		z.denominator().Set(x.denominator())
		z.exp = append(z.exp[:0], x.exp...)
	}
	return z
}

// denominator returns a reference to den, which is 1 in the zero value.
func (z *SmoothRat) denominator() *big.Int {
	if z.den.Sign() == 0 {
		z.den.SetInt64(1)
	}
	return &z.den
}

// Sign returns -1, 0 or +1 as z is negative, zero or positive.
func (z *SmoothRat) Sign() int { return z.num.Sign() }

// Rat returns z as a new big.Rat (in lowest terms, as z is; no gcd is taken).
func (z *SmoothRat) Rat() *big.Rat {
	return ratOf(&z.num, z.denominator())
}

// Halve returns (n + z)/2, or (n - z)/2 when sub is true, as a new big.Rat in lowest terms,
// with no gcd: with z = p/q in lowest terms, nq ± p is prime to q, so the only factor the
// numerator and the denominator 2q can share is 2. The result's numerator and denominator share
// one allocation.
func (z *SmoothRat) Halve(n int64, sub bool) *big.Rat {
	d := z.denominator()
	numW := max(len(d.Bits())+1, len(z.num.Bits())) + 1
	denW := len(d.Bits()) + 1
	r, num, den := newRat(numW, denW)
	den.SetInt64(n)
	num.Mul(den, d)
	addSub(num, num, &z.num, sub)
	switch {
	case num.Sign() == 0:
		den.SetInt64(1)
	case num.Bit(0) == 0:
		num.Rsh(num, 1)
		den.Set(d)
	default:
		den.Lsh(d, 1)
	}
	return r
}

// Combination forms linear combinations of a fixed list of operands over their least common
// denominator times a factor q: after Reset(q, ops), Sum(x, coef) sets x to the numerator of
// sum_i coef[i]*ops[i] / q over the common denominator T = lcm(denominators) * q, so that
// combinations of the same operands compare by their numerators, and Reduce brings one to lowest
// terms.
type Combination struct {
	s      *Smooth
	scaled []*big.Int // scaled[i] = num_i * (L / den_i), L the least common denominator
	store  []big.Int  // backing for scaled
	exp    []int32    // exponents of T
	t      big.Int    // T
	l      big.Int
	f      big.Int
	acc    big.Int
}

// NewCombination returns an empty combination over s.
func (s *Smooth) NewCombination() *Combination { return &Combination{s: s} }

// factor adds the exponents of the prime factorisation of k (>= 1, bound-smooth) to exp, growing
// it as needed, and returns it.
func (s *Smooth) factor(exp []int32, k uint64) []int32 {
	for k > 1 {
		if k > uint64(s.bound) {
			// k has a factor above what spf covers: divide by the primes in turn.
			p := uint64(0)
			for _, q := range s.primes {
				if k%q == 0 {
					p = q
					break
				}
			}
			if p == 0 {
				panic(fmt.Sprintf("field: %d is not %d-smooth", k, s.bound))
			}
			exp = addExp(exp, int(s.index[p]), 1)
			k /= p
			continue
		}
		p := uint64(s.spf[k])
		exp = addExp(exp, int(s.index[p]), 1)
		k /= p
	}
	return exp
}

func addExp(exp []int32, i int, e int32) []int32 {
	for len(exp) <= i {
		exp = append(exp, 0)
	}
	exp[i] += e
	return exp
}

// mulPowers multiplies z by the product of primes[i]^(hi[i] - lo[i]) over the indices of hi
// (hi[i] >= lo[i]; lo may be shorter), gathering factors in a word before each multiplication.
func (s *Smooth) mulPowers(z *big.Int, hi, lo []int32) {
	w := uint64(1)
	for i, e := range hi {
		p := s.primes[i]
		for k := e - expAt(lo, i); k > 0; k-- {
			if h, l := bits.Mul64(w, p); h != 0 {
				s.word.SetUint64(w)
				z.Mul(z, &s.word)
				w = p
			} else {
				w = l
			}
		}
	}
	if w != 1 {
		s.word.SetUint64(w)
		z.Mul(z, &s.word)
	}
}

// Reset makes ops the operands of c and q (>= 1, bound-smooth) the extra factor of the common
// denominator; c keeps what it needs of them.
func (c *Combination) Reset(q uint64, ops ...*SmoothRat) {
	s := c.s
	// The exponents of L: the largest of the operands'.
	n := 0
	for _, op := range ops {
		if op.num.Sign() != 0 {
			n = max(n, len(op.exp))
		}
	}
	c.exp = c.exp[:0]
	for range n {
		c.exp = append(c.exp, 0)
	}
	widest := -1
	for k, op := range ops {
		if op.num.Sign() == 0 {
			continue
		}
		for i, e := range op.exp {
			c.exp[i] = max(c.exp[i], e)
		}
		if widest < 0 || op.denominator().BitLen() > ops[widest].denominator().BitLen() {
			widest = k
		}
	}
	if cap(c.store) < len(ops) {
		c.store = make([]big.Int, len(ops))
	}
	c.store = c.store[:len(ops)]
	// L = den_w * (L / den_w) for the operand w with the largest denominator.
	c.l.SetInt64(1)
	if widest >= 0 {
		w := ops[widest]
		c.f.SetInt64(1)
		s.mulPowers(&c.f, c.exp, w.exp)
		c.l.Mul(w.denominator(), &c.f)
		c.store[widest].Mul(&w.num, &c.f)
	}
	c.scaled = c.scaled[:0]
	for k, op := range ops {
		v := &c.store[k]
		switch {
		case k == widest:
		case op.num.Sign() == 0:
			v.SetInt64(0)
		case len(op.exp) == 0:
			v.Mul(&op.num, &c.l) // an integer
		default:
			c.f.SetInt64(1)
			s.mulPowers(&c.f, c.exp, op.exp)
			v.Mul(&op.num, &c.f)
		}
		c.scaled = append(c.scaled, v)
	}
	c.exp = s.factor(c.exp, q)
	s.word.SetUint64(q)
	c.t.Mul(&c.l, &s.word)
}

func expAt(exp []int32, i int) int32 {
	if i < len(exp) {
		return exp[i]
	}
	return 0
}

// Sum sets x to the numerator, over the common denominator T, of sum_i coef[i]*ops[i] / q.
func (c *Combination) Sum(x *big.Int, coef []int64) {
	x.SetInt64(0)
	for i, k := range coef {
		if k == 0 || c.scaled[i].Sign() == 0 {
			continue
		}
		c.s.word.SetInt64(k)
		c.acc.Mul(c.scaled[i], &c.s.word)
		x.Add(x, &c.acc)
	}
}

// Reduce sets z to x/T in lowest terms and returns z. x may be modified.
func (c *Combination) Reduce(z *SmoothRat, x *big.Int) *SmoothRat {
	s := c.s
	z.exp = append(z.exp[:0], c.exp...)
	if x.Sign() == 0 {
		return z.SetInt64(0)
	}
	den := z.denominator()
	den.Set(&c.t)
	neg := x.Sign() < 0
	xs := x.Bits()
	ds := den.Bits()
	// The factor 2: as many as x's trailing zero bits allow.
	if len(z.exp) > 0 && z.exp[0] > 0 && s.primes[0] == 2 {
		k := min(uint(z.exp[0]), x.TrailingZeroBits())
		if k > 0 {
			xs = shiftDown(xs, k)
			ds = shiftDown(ds, k)
			z.exp[0] -= int32(k)
		}
	}
	// The odd primes of T that divide x, from x's residues modulo the batches' products.
	s.found = s.found[:0]
	for b := range s.mod {
		lo, hi := int(s.start[b]), min(int(s.start[b+1]), len(z.exp))
		if lo >= hi {
			break
		}
		need := false
		for i := max(lo, 1); i < hi; i++ {
			if z.exp[i] > 0 {
				need = true
				break
			}
		}
		if !need {
			continue
		}
		r := s.residue(b, xs)
		for i := max(lo, 1); i < hi; i++ {
			if z.exp[i] > 0 && r*s.inv[i] <= s.lim[i] {
				s.found = append(s.found, int32(i))
			}
		}
	}
	// Divide them out in rounds: each prime found divides x once, so divide by their product (a
	// word at a time); then test again those that may divide x still (their exponent in T is not
	// used up), one residue per batch, and so on.
	for len(s.found) > 0 {
		w := uint(1)
		for _, i := range s.found {
			p := uint(s.primes[i])
			if h, l := bits.Mul(w, p); h != 0 || l >= maxDivisor {
				xs, _ = divExact(xs, xs, w)
				ds, _ = divExact(ds, ds, w)
				w = p
			} else {
				w = l
			}
			z.exp[i]--
		}
		xs, _ = divExact(xs, xs, w)
		ds, _ = divExact(ds, ds, w)
		next, batch, r := s.found[:0], int32(-1), uint64(0)
		for _, i := range s.found {
			if z.exp[i] == 0 {
				continue
			}
			if b := s.batchOf[i]; b != batch {
				batch, r = b, s.residue(int(b), xs)
			}
			if r*s.inv[i] <= s.lim[i] {
				next = append(next, i)
			}
		}
		s.found = next
	}
	x.SetBits(xs)
	if neg {
		x.Neg(x)
	}
	den.SetBits(ds)
	z.num.Set(x)
	// Trim zero exponents at the end.
	k := len(z.exp)
	for k > 0 && z.exp[k-1] == 0 {
		k--
	}
	z.exp = z.exp[:k]
	return z
}

// inverse64 returns 1/d mod 2^64 for an odd d: d*d = 1 mod 8, and each Newton step doubles the
// number of correct low bits.
func inverse64(d uint64) uint64 {
	inv := d
	for range 5 {
		inv *= 2 - d*inv
	}
	return inv
}

// maxDivisor bounds the words divExact divides by.
const maxDivisor = 1 << (bits.UintSize - 2)

// divExact sets q to x / d for an odd word d (q may be x) and reports whether d divides x; when
// it does not, q holds garbage. x and the result are little-endian magnitudes without leading
// zero words. It is Hensel's exact division, as GMP's divexact_1: each quotient word is the
// current word times the inverse of d modulo the word base, with no division instruction; the
// borrow left at the end is zero exactly when d divides x.
func divExact(q, x []big.Word, d uint) ([]big.Word, bool) {
	if d == 1 {
		return q[:copy(q, x)], true
	}
	inv := uint(inverse64(uint64(d)))
	q = q[:len(x)]
	var borrow uint
	for i, xw := range x {
		t, b := bits.Sub(uint(xw), borrow, 0)
		qw := t * inv
		hi, _ := bits.Mul(qw, d)
		borrow = hi + b
		q[i] = big.Word(qw)
	}
	n := len(q)
	for n > 0 && q[n-1] == 0 {
		n--
	}
	return q[:n], borrow == 0
}

// shiftDown shifts the magnitude x right by k bits in place and returns it normalised.
func shiftDown(x []big.Word, k uint) []big.Word {
	words, sh := int(k/bits.UintSize), k%bits.UintSize
	if words >= len(x) {
		return x[:0]
	}
	n := copy(x, x[words:])
	x = x[:n]
	if sh > 0 {
		for i := range x {
			v := uint(x[i]) >> sh
			if i+1 < len(x) {
				v |= uint(x[i+1]) << (bits.UintSize - sh)
			}
			x[i] = big.Word(v)
		}
	}
	for n > 0 && x[n-1] == 0 {
		n--
	}
	return x[:n]
}

// residue returns the number with the little-endian words ws modulo mod[b].
func (s *Smooth) residue(b int, ws []big.Word) uint64 {
	m := s.mod[b]
	pw := s.powers(b, len(ws))
	var lo, hi, top uint64
	for i, w := range ws {
		ph, pl := bits.Mul64(uint64(w), pw[i])
		var carry uint64
		lo, carry = bits.Add64(lo, pl, 0)
		hi, carry = bits.Add64(hi, ph, carry)
		top += carry
	}
	r := top % m
	_, r = bits.Div64(r, hi, m)
	_, r = bits.Div64(r, lo, m)
	return r
}

// powers returns the first n powers 2^(W*i) mod mod[b], computing more as needed.
func (s *Smooth) powers(b, n int) []uint64 {
	pw := s.pow[b]
	m := s.mod[b]
	if len(pw) == 0 {
		pw = append(pw, 1%m)
	}
	for len(pw) < n {
		prev := pw[len(pw)-1]
		var r uint64
		if bits.UintSize == 64 {
			_, r = bits.Div64(prev, 0, m) // prev * 2^64 mod m
		} else {
			hi, lo := bits.Mul64(prev, 1<<32)
			_, r = bits.Div64(hi, lo, m)
		}
		pw = append(pw, r)
	}
	s.pow[b] = pw
	return pw
}
