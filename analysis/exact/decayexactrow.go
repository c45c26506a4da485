package exact

import (
	"fmt"
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

// solveRowRat is solveRow in exact rationals, fraction-free. Each equation is scaled to integers
// (its coefficients by the least common multiple of their denominators, the right-hand sides by
// that of all of theirs, d), and the integer system is eliminated by Bareiss' method: every step
// divides exactly by the previous pivot, so the entries stay minors of the system, and no greatest
// common divisor is taken until the solution, X/(det·d), is reduced once per value. The entries of
// a row beyond the band that the elimination has not reached yet are only multiplied by each
// pivot over the previous one, so they are kept as they are and scaled by the last pivot when the
// band reaches them.
func solveRowRat(eqs []decayEq[*big.Rat]) ([][]*big.Rat, error) {
	n := len(eqs)
	if n == 0 {
		return nil, nil
	}
	comps := len(eqs[0].a)
	d := big.NewInt(1)
	for _, e := range eqs {
		for _, v := range e.a {
			lcmInto(d, v.Denom())
		}
	}
	m := make([][]*big.Int, n)
	b := make([][]*big.Int, n)
	band := 1
	for i, e := range eqs {
		row := make([]*big.Rat, n)
		row[i] = big.NewRat(1, 1)
		for t, l := range e.to {
			if row[l] == nil {
				row[l] = new(big.Rat)
			}
			row[l].Sub(row[l], e.coef[t])
			band = max(band, l-i)
		}
		scale := big.NewInt(1)
		for _, v := range row {
			if v != nil {
				lcmInto(scale, v.Denom())
			}
		}
		m[i] = make([]*big.Int, n)
		for l, v := range row {
			m[i][l] = new(big.Int)
			if v != nil {
				m[i][l].Quo(scale, v.Denom())
				m[i][l].Mul(m[i][l], v.Num())
			}
		}
		b[i] = make([]*big.Int, comps)
		for s, v := range e.a {
			x := new(big.Int).Quo(d, v.Denom())
			x.Mul(x, v.Num())
			b[i][s] = x.Mul(x, scale)
		}
	}
	prev := big.NewInt(1)
	var t, u big.Int
	for c := range n {
		piv := m[c][c]
		if piv.Sign() == 0 {
			return nil, fmt.Errorf("exact: the decay equations are singular at unknown %d", c)
		}
		end := min(n-1, c+band)
		if c > 0 && end == c+band {
			// The band reaches column end: scale it by the steps it was left out of, in the pivot
			// row and below.
			for r := c; r < n; r++ {
				m[r][end].Mul(m[r][end], prev)
			}
		}
		for r := c + 1; r < n; r++ {
			mr, rc := m[r], m[r][c]
			for l := c + 1; l <= end; l++ {
				if mr[l].Sign() == 0 && m[c][l].Sign() == 0 {
					continue
				}
				t.Mul(piv, mr[l])
				u.Mul(rc, m[c][l])
				t.Sub(&t, &u)
				mr[l].Quo(&t, prev)
			}
			for s := range comps {
				t.Mul(piv, b[r][s])
				u.Mul(rc, b[c][s])
				t.Sub(&t, &u)
				b[r][s].Quo(&t, prev)
			}
			rc.SetInt64(0)
		}
		prev = piv
	}
	// Back substitution: X = det·y, with det the last pivot, in integers.
	det := prev
	xs := make([][]*big.Int, n)
	for c := n - 1; c >= 0; c-- {
		xs[c] = make([]*big.Int, comps)
		for s := range comps {
			t.Mul(det, b[c][s])
			for l := c + 1; l <= min(n-1, c+band); l++ {
				if m[c][l].Sign() != 0 {
					u.Mul(m[c][l], xs[l][s])
					t.Sub(&t, &u)
				}
			}
			xs[c][s] = new(big.Int).Quo(&t, m[c][c])
		}
	}
	den := new(big.Int).Mul(det, d)
	x := make([][]*big.Rat, n)
	for c := range xs {
		x[c] = make([]*big.Rat, comps)
		for s, v := range xs[c] {
			x[c][s] = new(big.Rat).SetFrac(v, den)
		}
	}
	return x, nil
}
