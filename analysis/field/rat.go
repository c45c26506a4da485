package field

import (
	"math/big"
	"math/bits"
)

// The exact operations below follow Knuth (TAOCP 4.5.1), as GMP does: they take greatest common
// divisors of the operands' parts before combining them, so that the result is in lowest terms
// without a gcd of the full-size result, which is what big.Rat's own Add and Mul compute. Values
// are kept in lowest terms with a positive denominator, as big.Rat requires.

var bigOne = big.NewInt(1)

// ratOf returns the rational num/den, which must already be in lowest terms with den > 0.
func ratOf(num, den *big.Int) *big.Rat {
	z, n, d := newRat(len(num.Bits()), len(den.Bits()))
	n.Set(num)
	d.Set(den)
	return z
}

// newRat returns a new rational with references to its numerator and denominator, which have room
// for nw and dw words in one allocation: the operations below compute their results in place,
// with no copy. The denominator is 0 until set.
func newRat(nw, dw int) (z *big.Rat, num, den *big.Int) {
	z = new(big.Rat).SetInt64(0) // initialised, so Denom returns a reference
	num, den = z.Num(), z.Denom()
	buf := make([]big.Word, nw+dw)
	num.SetBits(buf[:0:nw])
	den.SetBits(buf[nw : nw : nw+dw])
	return z, num, den
}

// addSub sets z to x + y, or x - y when sub is true.
func addSub(z, x, y *big.Int, sub bool) {
	if sub {
		z.Sub(x, y)
	} else {
		z.Add(x, y)
	}
}

// addRat returns a + b, or a - b when sub is true.
func addRat(a, b *big.Rat, sub bool) *big.Rat {
	an, ad, bn, bd := a.Num(), a.Denom(), b.Num(), b.Denom()
	la, lb := len(an.Bits())+len(bd.Bits()), len(bn.Bits())+len(ad.Bits())
	z, num, den := newRat(max(la, lb)+1, len(ad.Bits())+len(bd.Bits()))
	switch {
	case ad.Cmp(bigOne) == 0:
		// an ± bn/bd = (an*bd ± bn)/bd, in lowest terms because bn/bd is.
		num.Mul(an, bd)
		addSub(num, num, bn, sub)
		den.Set(bd)
		return z
	case bd.Cmp(bigOne) == 0:
		num.Mul(bn, ad)
		addSub(num, an, num, sub)
		den.Set(ad)
		return z
	}
	g := new(big.Int).GCD(nil, nil, ad, bd)
	if g.Cmp(bigOne) == 0 {
		// Coprime denominators (both above 1): the result is not an integer, nor zero.
		var t big.Int
		num.Mul(an, bd)
		t.Mul(bn, ad)
		addSub(num, num, &t, sub)
		den.Mul(ad, bd)
		return z
	}
	// t = an*(bd/g) ± bn*(ad/g); the result is t/g2 over (ad/g)*(bd/g2) with g2 = gcd(t, g).
	var adg, bdg, u big.Int
	adg.Quo(ad, g)
	bdg.Quo(bd, g)
	num.Mul(an, &bdg)
	u.Mul(bn, &adg)
	addSub(num, num, &u, sub)
	if num.Sign() == 0 {
		return new(big.Rat)
	}
	g2 := new(big.Int).GCD(nil, nil, u.Abs(num), g)
	if g2.Cmp(bigOne) != 0 {
		num.Quo(num, g2)
		bd = u.Quo(bd, g2)
	}
	den.Mul(&adg, bd)
	return z
}

// mulRat returns (an/ad) * (bn/bd) for an/ad and bn/bd in lowest terms with ad > 0; bd may be
// negative (when dividing), in which case invert says to move its sign to the numerator.
func mulRat(an, ad, bn, bd *big.Int, invert bool) *big.Rat {
	if an.Sign() == 0 || bn.Sign() == 0 {
		return new(big.Rat)
	}
	if invert && bd.Sign() < 0 {
		bn, bd = new(big.Int).Neg(bn), new(big.Int).Neg(bd)
	}
	z, num, den := newRat(len(an.Bits())+len(bn.Bits()), len(ad.Bits())+len(bd.Bits()))
	g1 := gcdAbs(an, bd)
	g2 := gcdAbs(bn, ad)
	num.Mul(quoIf(an, g1), quoIf(bn, g2))
	den.Mul(quoIf(ad, g2), quoIf(bd, g1))
	return z
}

// gcdAbs returns gcd(|x|, |y|), or nil when it is 1 (the common case) to save a division.
func gcdAbs(x, y *big.Int) *big.Int {
	if (x.IsInt64() && (x.Int64() == 1 || x.Int64() == -1)) || (y.IsInt64() && y.Int64() == 1) {
		return nil
	}
	// A one-word operand w (a small integer, a probability's part): gcd(w, other mod w), with
	// one pass over the other operand's words instead of a gcd of big numbers.
	if xs, ys := x.Bits(), y.Bits(); len(xs) == 1 || len(ys) == 1 {
		if len(xs) != 1 {
			xs, ys = ys, xs
		}
		g := gcdWord(uint(xs[0]), modWord(ys, uint(xs[0])))
		if g == 1 {
			return nil
		}
		return new(big.Int).SetUint64(uint64(g))
	}
	g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(x), new(big.Int).Abs(y))
	if g.Cmp(bigOne) == 0 {
		return nil
	}
	return g
}

func quoIf(x, g *big.Int) *big.Int {
	if g == nil {
		return x
	}
	return new(big.Int).Quo(x, g)
}

// modWord returns the magnitude with the little-endian words xs modulo m > 0.
func modWord(xs []big.Word, m uint) uint {
	if m&(m-1) == 0 {
		if len(xs) == 0 {
			return 0
		}
		return uint(xs[0]) & (m - 1)
	}
	var r uint
	for i := len(xs) - 1; i >= 0; i-- {
		_, r = bits.Div(r, uint(xs[i]), m)
	}
	return r
}

func gcdWord(a, b uint) uint {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
