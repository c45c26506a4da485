// Package field provides the arithmetic the exact solver runs on: one interface, Field, with an
// exact implementation on math/big rationals and a fast one on float64, so that exact and
// floating-point results come from the same code path.
package field

import (
	"math"
	"math/big"
	"strconv"
)

// Field is the arithmetic of a number type T. Operations return new values and never modify their
// arguments, so values may be shared freely.
type Field[T any] interface {
	// FromInt returns the integer a.
	FromInt(a int64) T
	// FromFrac returns num/den; den must not be zero.
	FromFrac(num, den int64) T
	// Add returns a + b.
	Add(a, b T) T
	// Sub returns a - b.
	Sub(a, b T) T
	// Mul returns a * b.
	Mul(a, b T) T
	// Div returns a / b; b must not be zero.
	Div(a, b T) T
	// Cmp compares a and b, returning -1, 0 or +1. Float fields treat values within a small
	// relative tolerance as equal (see Float).
	Cmp(a, b T) int
	// IsZero reports whether a is zero.
	IsZero(a T) bool
	// Float64 returns the nearest float64 to a.
	Float64(a T) float64
	// Exact returns a as a reduced fraction "p/q" or an integer "p", and false when the field is
	// not exact.
	Exact(a T) (string, bool)
}

// Rat is the exact field of rational numbers, on *big.Rat.
type Rat struct{}

// FromInt returns the integer a.
func (Rat) FromInt(a int64) *big.Rat { return new(big.Rat).SetInt64(a) }

// FromFrac returns num/den.
func (Rat) FromFrac(num, den int64) *big.Rat { return big.NewRat(num, den) }

// Add returns a + b.
func (Rat) Add(a, b *big.Rat) *big.Rat { return addRat(a, b, false) }

// Sub returns a - b.
func (Rat) Sub(a, b *big.Rat) *big.Rat { return addRat(a, b, true) }

// Mul returns a * b.
func (Rat) Mul(a, b *big.Rat) *big.Rat { return mulRat(a.Num(), a.Denom(), b.Num(), b.Denom(), false) }

// Div returns a / b.
func (Rat) Div(a, b *big.Rat) *big.Rat {
	if b.Sign() == 0 {
		panic("field: division by zero")
	}
	return mulRat(a.Num(), a.Denom(), b.Denom(), b.Num(), true)
}

// Cmp compares a and b exactly.
func (Rat) Cmp(a, b *big.Rat) int { return a.Cmp(b) }

// IsZero reports whether a is zero.
func (Rat) IsZero(a *big.Rat) bool { return a.Sign() == 0 }

// Float64 returns the nearest float64 to a.
func (Rat) Float64(a *big.Rat) float64 { f, _ := a.Float64(); return f }

// Exact returns a as "p/q", or "p" when a is an integer.
func (Rat) Exact(a *big.Rat) (string, bool) { return a.RatString(), true }

// Float is the field of float64 numbers. Its Cmp treats numbers whose difference is within
// Tolerance times the larger magnitude (or within Tolerance of zero) as equal, so that exact ties
// of the models are not split by rounding.
type Float struct{}

// Tolerance is the relative tolerance of Float.Cmp.
const Tolerance = 1e-12

// FromInt returns the integer a.
func (Float) FromInt(a int64) float64 { return float64(a) }

// FromFrac returns num/den.
func (Float) FromFrac(num, den int64) float64 { return float64(num) / float64(den) }

// Add returns a + b.
func (Float) Add(a, b float64) float64 { return a + b }

// Sub returns a - b.
func (Float) Sub(a, b float64) float64 { return a - b }

// Mul returns a * b.
func (Float) Mul(a, b float64) float64 { return a * b }

// Div returns a / b.
func (Float) Div(a, b float64) float64 { return a / b }

// Cmp compares a and b within the relative Tolerance.
func (Float) Cmp(a, b float64) int {
	scale := math.Abs(a)
	if s := math.Abs(b); s > scale {
		scale = s
	}
	if scale < 1 {
		scale = 1
	}
	switch d := a - b; {
	case d > Tolerance*scale:
		return 1
	case d < -Tolerance*scale:
		return -1
	}
	return 0
}

// IsZero reports whether a is exactly zero.
func (Float) IsZero(a float64) bool { return a == 0 }

// Float64 returns a.
func (Float) Float64(a float64) float64 { return a }

// Exact returns the shortest decimal form of a and false: float values are not exact.
func (Float) Exact(a float64) (string, bool) { return strconv.FormatFloat(a, 'g', -1, 64), false }
