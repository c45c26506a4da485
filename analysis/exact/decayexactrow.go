package exact

import (
	"math/big"

	"memsim/analysis/field"
)

// The exact path of the decay model's rows. A row's equations combine the values of the previous
// row, and the checks of policy iteration the values of the row itself, in sums of many terms
// p·v whose factors p are the model's small probabilities and whose values v are large fractions
// sharing most of their denominators (a row's values are the solution of one system). Summed term
// by term in big.Rat, every addition reduces a fraction of the values' size by a greatest common
// divisor; dot brings the terms over one denominator instead, adds integers, and reduces once.

// dot returns init + sum_i cs[i]·vs[i] in field f: in exact rationals over a common denominator
// (ratDot), otherwise term by term in order.
func dot[T any](f field.Field[T], init T, cs, vs []T) T {
	if _, ok := any(f).(field.Rat); ok {
		return any(ratDot(any(init).(*big.Rat), any(cs).([]*big.Rat), any(vs).([]*big.Rat))).(T)
	}
	acc := init
	for i, c := range cs {
		acc = f.Add(acc, f.Mul(c, vs[i]))
	}
	return acc
}

// ratDot returns init + sum_i cs[i]·vs[i] in lowest terms. The coefficients' denominators are
// brought to their least common multiple l, the values' (init's included) to their least common
// multiple d, found by exact division where one denominator divides the other (the common case,
// at the cost of a division) and by a greatest common divisor otherwise; the numerators are then
// summed as integers and the sum over l·d reduced once.
func ratDot(init *big.Rat, cs, vs []*big.Rat) *big.Rat {
	d := new(big.Int).Set(init.Denom())
	for _, v := range vs {
		lcmInto(d, v.Denom())
	}
	l := big.NewInt(1)
	for _, c := range cs {
		lcmInto(l, c.Denom())
	}
	var sum, t, u big.Int
	scaled := func(v *big.Rat, dst *big.Int) *big.Int { // v's numerator over d
		if v.Denom().Cmp(d) == 0 {
			return dst.Set(v.Num())
		}
		dst.Quo(d, v.Denom())
		return dst.Mul(dst, v.Num())
	}
	sum.Mul(scaled(init, &t), l)
	for i, c := range cs {
		if c.Sign() == 0 || vs[i].Sign() == 0 {
			continue
		}
		scaled(vs[i], &t)
		if c.Denom().Cmp(l) == 0 {
			u.Set(c.Num())
		} else {
			u.Quo(l, c.Denom())
			u.Mul(&u, c.Num())
		}
		t.Mul(&t, &u)
		sum.Add(&sum, &t)
	}
	den := new(big.Int).Mul(l, d)
	return new(big.Rat).SetFrac(&sum, den)
}

// lcmInto sets m to the least common multiple of m and d (both positive).
func lcmInto(m, d *big.Int) {
	if d.Cmp(m) == 0 || (d.IsInt64() && d.Int64() == 1) {
		return
	}
	var q, r big.Int
	if d.CmpAbs(m) < 0 {
		if q.QuoRem(m, d, &r); r.Sign() == 0 {
			return
		}
	} else if q.QuoRem(d, m, &r); r.Sign() == 0 {
		m.Set(d)
		return
	}
	g := new(big.Int).GCD(nil, nil, m, d)
	m.Mul(m, q.Quo(d, g))
}
