package field

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"
)

// checkArithmetic evaluates ((1/3 + 1/6) * 4 - 1) / (2/5) = 5/2 in any field.
func checkArithmetic[T any, F Field[T]](t *testing.T, f F) {
	t.Helper()
	x := f.Add(f.FromFrac(1, 3), f.FromFrac(1, 6))
	x = f.Sub(f.Mul(x, f.FromInt(4)), f.FromInt(1))
	x = f.Div(x, f.FromFrac(2, 5))
	if got := f.Float64(x); got != 2.5 {
		t.Errorf("%T: got %v, want 2.5", f, got)
	}
	if f.Cmp(x, f.FromFrac(5, 2)) != 0 || f.Cmp(x, f.FromInt(2)) != 1 || f.Cmp(f.FromInt(2), x) != -1 {
		t.Errorf("%T: Cmp inconsistent with 5/2", f)
	}
	if !f.IsZero(f.Sub(x, x)) || f.IsZero(x) {
		t.Errorf("%T: IsZero wrong", f)
	}
}

func TestArithmetic(t *testing.T) {
	checkArithmetic[*big.Rat](t, Rat{})
	checkArithmetic[float64](t, Float{})
}

func TestRatDoesNotAlias(t *testing.T) {
	var f Rat
	a, b := f.FromInt(2), f.FromInt(3)
	_ = f.Add(a, b)
	_ = f.Mul(a, b)
	if a.Cmp(big.NewRat(2, 1)) != 0 || b.Cmp(big.NewRat(3, 1)) != 0 {
		t.Fatalf("operands modified: %v %v", a, b)
	}
}

func TestFloatToleranceSeparatesRealDifferences(t *testing.T) {
	var f Float
	tests := []struct {
		a, b float64
		want int
	}{
		{1, 1 + 1e-15, 0},
		{1e6, 1e6 * (1 + 1e-14), 0},
		{1, 1 + 1e-9, -1},
		{0, 1e-13, 0},
		{0, 1e-10, -1},
	}
	for _, tt := range tests {
		if got := f.Cmp(tt.a, tt.b); got != tt.want {
			t.Errorf("Cmp(%g, %g) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func ExampleRat() {
	var f Rat
	x := f.Div(f.Add(f.FromFrac(1, 2), f.FromFrac(1, 3)), f.FromInt(5))
	s, exact := f.Exact(x)
	fmt.Println(s, exact)
	// Output: 1/6 true
}

// TestRatAgreesWithBigRat compares the field's exact operations with math/big's own on a grid of
// fractions, including zero, integers, negative values and shared factors in the denominators.
func TestRatAgreesWithBigRat(t *testing.T) {
	var f Rat
	var vals []*big.Rat
	for _, num := range []int64{-12, -7, -1, 0, 1, 2, 5, 9, 30, 1 << 40} {
		for _, den := range []int64{1, 2, 3, 6, 35, 1 << 20, 999999937} {
			vals = append(vals, big.NewRat(num, den))
		}
	}
	big1 := new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(3), 200), new(big.Int).Lsh(big.NewInt(7), 190))
	vals = append(vals, big1, new(big.Rat).Neg(big1))
	checks := 0
	for _, a := range vals {
		for _, b := range vals {
			ops := []struct {
				name      string
				got, want *big.Rat
			}{
				{"add", f.Add(a, b), new(big.Rat).Add(a, b)},
				{"sub", f.Sub(a, b), new(big.Rat).Sub(a, b)},
				{"mul", f.Mul(a, b), new(big.Rat).Mul(a, b)},
			}
			if b.Sign() != 0 {
				ops = append(ops, struct {
					name      string
					got, want *big.Rat
				}{"div", f.Div(a, b), new(big.Rat).Quo(a, b)})
			}
			for _, op := range ops {
				checks++
				// Compare the representation too: lowest terms, positive denominator.
				if op.got.Num().Cmp(op.want.Num()) != 0 || op.got.Denom().Cmp(op.want.Denom()) != 0 {
					t.Fatalf("%s(%s, %s) = %s/%s, want %s", op.name, a.RatString(), b.RatString(),
						op.got.Num(), op.got.Denom(), op.want.RatString())
				}
			}
		}
	}
	if checks < 1000 {
		t.Fatalf("only %d checks", checks)
	}
}

// TestRatAgreesWithBigRatRandom compares the field's exact operations with math/big's own on
// random fractions of up to a few thousand bits whose parts share small prime factors (so that
// every reduction path is taken: one-word operands, coprime and common denominators, integers),
// and checks that the operands are left unchanged.
func TestRatAgreesWithBigRatRandom(t *testing.T) {
	var f Rat
	rng := rand.New(rand.NewSource(7))
	smallPrimes := []int64{2, 3, 5, 7, 11, 13, 101, 997}
	part := func() *big.Int {
		x := big.NewInt(1)
		switch rng.Intn(4) {
		case 0: // one word
			x.SetInt64(1 + rng.Int63n(1<<40))
		case 1: // large
			x.Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(64+rng.Intn(3000))))
			x.Add(x, big.NewInt(1))
		}
		for range rng.Intn(12) {
			x.Mul(x, big.NewInt(smallPrimes[rng.Intn(len(smallPrimes))]))
		}
		return x
	}
	value := func() *big.Rat {
		if rng.Intn(10) == 0 {
			return new(big.Rat)
		}
		num, den := part(), part()
		if rng.Intn(2) == 0 {
			num.Neg(num)
		}
		if rng.Intn(5) == 0 {
			den.SetInt64(1)
		}
		return new(big.Rat).SetFrac(num, den)
	}
	trials := 3000
	if testing.Short() {
		trials = 500
	}
	for range trials {
		a, b := value(), value()
		a0, b0 := new(big.Rat).Set(a), new(big.Rat).Set(b)
		ops := []struct {
			name      string
			got, want *big.Rat
		}{
			{"add", f.Add(a, b), new(big.Rat).Add(a, b)},
			{"sub", f.Sub(a, b), new(big.Rat).Sub(a, b)},
			{"mul", f.Mul(a, b), new(big.Rat).Mul(a, b)},
		}
		if b.Sign() != 0 {
			ops = append(ops, struct {
				name      string
				got, want *big.Rat
			}{"div", f.Div(a, b), new(big.Rat).Quo(a, b)})
		}
		for _, op := range ops {
			if op.got.Num().Cmp(op.want.Num()) != 0 || op.got.Denom().Cmp(op.want.Denom()) != 0 {
				t.Fatalf("%s(%s, %s) = %s/%s, want %s", op.name, a.RatString(), b.RatString(),
					op.got.Num(), op.got.Denom(), op.want.RatString())
			}
		}
		if a.Cmp(a0) != 0 || b.Cmp(b0) != 0 {
			t.Fatalf("operands changed: %s %s, were %s %s", a.RatString(), b.RatString(), a0.RatString(), b0.RatString())
		}
	}
}
