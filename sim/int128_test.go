package sim_test

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"memsim/sim"
)

// int128 parses a decimal into an Int128.
func int128(t *testing.T, s string) sim.Int128 {
	t.Helper()
	var a sim.Int128
	if err := a.UnmarshalText([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestInt128 checks Add, Neg, Big, Float64 and the text form against math/big on random values
// across the whole range, and the text form's errors.
func TestInt128(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	random := func() *big.Int {
		// 125 random bits, then a sign.
		b := new(big.Int).SetUint64(r.Uint64() >> 3)
		b.Lsh(b, 64).Add(b, new(big.Int).SetUint64(r.Uint64()))
		if r.IntN(2) == 0 {
			b.Neg(b)
		}
		if r.IntN(4) == 0 {
			b.Rsh(b, uint(r.IntN(125))) // small ones too
		}
		return b
	}
	for range 2000 {
		x, y := random(), random()
		a, b := int128(t, x.String()), int128(t, y.String())
		if a.Big().Cmp(x) != 0 || a.String() != x.String() {
			t.Fatalf("%s round trip gives %s", x, a)
		}
		if got, want := a.Add(b).Big(), new(big.Int).Add(x, y); got.Cmp(want) != 0 {
			t.Fatalf("%s + %s = %s, want %s", x, y, got, want)
		}
		if got, want := a.Neg().Big(), new(big.Int).Neg(x); got.Cmp(want) != 0 {
			t.Fatalf("-%s = %s", x, got)
		}
		if f, _ := new(big.Float).SetInt(x).Float64(); a.Float64() != f && (a.Float64()-f)/f > 1e-15 {
			t.Fatalf("%s as float64 %g, want %g", x, a.Float64(), f)
		}
	}
	for _, bad := range []string{"", "1.5", "x", "1e3", new(big.Int).Lsh(big.NewInt(1), 127).String(), "-" + new(big.Int).Lsh(big.NewInt(1), 128).String()} {
		var a sim.Int128
		if err := a.UnmarshalText([]byte(bad)); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("UnmarshalText(%q): error %v", bad, err)
		}
	}
}
