package sim

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// Int128 is a signed 128-bit integer in two's complement: Hi·2^64 + Lo. Sums of luck terms in
// fixed point are kept in it, so that they merge exactly and in any order, as the tallies' counts
// do, for any number of games a run can hold.
type Int128 struct {
	Hi int64
	Lo uint64
}

// int128Of returns x as an Int128.
func int128Of(x int64) Int128 { return Int128{Hi: x >> 63, Lo: uint64(x)} }

// Add returns a + b (wrapping around beyond 128 bits, which sums of a run never reach).
func (a Int128) Add(b Int128) Int128 {
	lo, carry := bits.Add64(a.Lo, b.Lo, 0)
	return Int128{Hi: a.Hi + b.Hi + int64(carry), Lo: lo}
}

// mul128 returns x·y exactly.
func mul128(x, y int64) Int128 {
	neg := (x < 0) != (y < 0)
	ux, uy := uint64(x), uint64(y)
	if x < 0 {
		ux = -ux
	}
	if y < 0 {
		uy = -uy
	}
	hi, lo := bits.Mul64(ux, uy)
	p := Int128{Hi: int64(hi), Lo: lo}
	if neg {
		p = p.Neg()
	}
	return p
}

// Neg returns -a.
func (a Int128) Neg() Int128 {
	lo, borrow := bits.Sub64(0, a.Lo, 0)
	return Int128{Hi: -a.Hi - int64(borrow), Lo: lo}
}

// Big returns a as a big.Int.
func (a Int128) Big() *big.Int {
	b := new(big.Int).SetInt64(a.Hi)
	b.Lsh(b, 64)
	return b.Add(b, new(big.Int).SetUint64(a.Lo))
}

// Float64 returns a rounded to a float64.
func (a Int128) Float64() float64 {
	if a.Hi < 0 {
		return -a.Neg().Float64()
	}
	return float64(a.Hi)*math.Exp2(64) + float64(a.Lo)
}

// String returns a in decimal.
func (a Int128) String() string { return a.Big().String() }

// MarshalText encodes a in decimal (a JSON string: 128-bit numbers do not survive JSON numbers).
func (a Int128) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText decodes a decimal number that fits in 128 bits.
func (a *Int128) UnmarshalText(text []byte) error {
	b, ok := new(big.Int).SetString(string(text), 10)
	if !ok {
		return fmt.Errorf("%q is not a whole decimal number", text)
	}
	if b.BitLen() > 127 {
		return fmt.Errorf("%q does not fit in 128 bits", text)
	}
	lo := new(big.Int).And(b, new(big.Int).SetUint64(math.MaxUint64))
	hi := new(big.Int).Rsh(b, 64)
	*a = Int128{Hi: hi.Int64(), Lo: lo.Uint64()}
	return nil
}
