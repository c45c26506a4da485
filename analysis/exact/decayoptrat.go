package exact

import (
	"fmt"
	"math"
	"math/big"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The exact self-play optimum of the decay model without a pass rule, row by row over integers.
//
// The values of a row are the solution of one linear system whose right-hand sides combine the
// values of the previous row, so their denominators multiply from row to row: about 0.6·n³ bits
// at n pairs, almost all of it the product of the rows' determinants, which no value shares a
// factor with. Reducing the values to lowest terms buys little and costs a greatest common
// divisor of numbers of that size per value. decayOptRat keeps each row as integer numerators
// over one common denominator, the previous row's times the row's determinant, and reduces only
// the values a caller reads (decayOptRat.keepAll, sweep.from, sweep.optAt).
//
// Each state's choices are compared without reducing either: the policy is found in float64,
// solved for exactly, and then every other choice is checked against it, in float64 where a
// rigorous bound on the rounding proves the order, exactly (cross-multiplied integers) where it
// does not (ties, above all: with no card known, safe is daring). A choice found better is
// switched to and the row solved again, as policy iteration does (choiceSys.iterate).

// decayRatRow is one row of optimal values: the value of the state with k known cards is
// num[k]/den, den > 0, not reduced; fl[k] is that value rounded to float64.
type decayRatRow struct {
	num      []*big.Int
	den, det *big.Int // det: den over the previous row's
	fl       []float64
}

// decayOptRat solves the rows of the decay model's self-play optimum in exact rationals (see
// above). keepAll asks for every state's values and choices' values in lowest terms (a visitor
// reads them); otherwise only those of sweep.from are, and sweep.optAt reduces the value of a
// state of the last row on demand.
type decayOptRat struct {
	keepAll bool
	// exactChecks compares every choice exactly, without the float64 bound (tests compare the
	// two).
	exactChecks bool
	n           int // the pairs of cur
	prev        decayRatRow
	cur         decayRatRow
}

func newDecayOptRat(keepAll bool) *decayOptRat {
	zero := decayRatRow{num: []*big.Int{new(big.Int)}, den: big.NewInt(1), fl: []float64{0}}
	return &decayOptRat{keepAll: keepAll, cur: zero}
}

// useDecayOptRat reports whether the decay sweep w computes its optimum with decayOptRat: exact
// arithmetic on field.Rat (field.Rat's generic path is kept for other fields), no pass rule.
func useDecayOptRat[T any](w *sweep[T]) bool {
	return w.exact() && w.needOpt && w.m.isDecay() && !w.decayPasses() && !w.blindFlips() && w.m.Singletons == 0
}

// value returns the value of st in lowest terms when st is in the last row solved.
func (d *decayOptRat) value(st rules.State) (*big.Rat, bool) {
	if st.N != d.n || st.N-st.J >= len(d.cur.num) || st.N == 0 {
		return nil, false
	}
	return new(big.Rat).SetFrac(d.cur.num[st.N-st.J], d.cur.den), true
}

// ratEq is the equation of a choice made in one state of a row, over integers: the choice's
// value v satisfies s·v = b/prevDen + sum_t c[t]·x[to[t]], x the row's values, s > 0.
type ratEq struct {
	s, b *big.Int
	to   []int
	c    []*big.Int
	fl   *decayEq[float64] // the same rounded: v = a + sum coef·x
}

// ratToFloat returns num/den rounded to float64: within a relative 2^-53 + 3·2^-64 of it (two
// roundings to 64 bits, a quotient, a rounding to 53), or within 2^-1074 below the normal range.
func ratToFloat(num, den *big.Int) float64 {
	if num.Sign() == 0 {
		return 0
	}
	var a, b big.Float
	a.SetPrec(64).SetInt(num)
	b.SetPrec(64).SetInt(den)
	v, _ := a.Quo(&a, &b).Float64()
	return v
}

// equation returns the integer equation of choice ch in cell c of the row of n pairs, the
// previous row's values in d.prev.
func (d *decayOptRat) equation(w *sweep[*big.Rat], c *decayCell[*big.Rat], ch rules.Choice, n int) *ratEq {
	e := &ratEq{s: big.NewInt(1), b: new(big.Int)}
	probs := c.probs[ch]
	for _, p := range probs {
		lcmInto(e.s, p.Denom())
	}
	// pL[i] = p_i·s, an integer.
	pL := make([]*big.Int, len(probs))
	for i, p := range probs {
		v := new(big.Int).Quo(e.s, p.Denom())
		pL[i] = v.Mul(v, p.Num())
	}
	at := map[int]int{}            // same-row successor -> index in e.to
	prevCoef := map[int]*big.Int{} // previous-row successor -> coefficient of its numerator
	var order []int
	gains := new(big.Int) // coefficient of prevDen: sum of ±p·s·gain
	var t big.Int
	one := big.NewInt(1)
	for i, o := range c.outs[ch] {
		if k := sameRow(o, n); k >= 0 {
			j, ok := at[k]
			if !ok {
				j = len(e.to)
				at[k] = j
				e.to = append(e.to, k)
				e.c = append(e.c, new(big.Int))
			}
			e.c[j].Sub(e.c[j], pL[i]) // the next seat's value counts against the mover
			continue
		}
		k := o.Next.N - o.Next.J
		sign, gain := 1, o.MoverGain
		if !o.Continue {
			sign, gain = -1, o.NextGain
		}
		if _, ok := prevCoef[k]; !ok {
			prevCoef[k] = new(big.Int)
			order = append(order, k)
		}
		t.Mul(pL[i], big.NewInt(int64(gain)))
		if sign > 0 {
			prevCoef[k].Add(prevCoef[k], pL[i])
			gains.Add(gains, &t)
		} else {
			prevCoef[k].Sub(prevCoef[k], pL[i])
			gains.Sub(gains, &t)
		}
	}
	e.b.Mul(gains, d.prev.den)
	for _, k := range order {
		if prevCoef[k].Sign() != 0 {
			t.Mul(prevCoef[k], d.prev.num[k])
			e.b.Add(e.b, &t)
		}
	}
	e.fl = &decayEq[float64]{a: []float64{ratToFloat(e.b, d.prev.den) / ratToFloat(e.s, one)}, to: e.to}
	for _, ci := range e.c {
		e.fl.coef = append(e.fl.coef, ratToFloat(ci, e.s))
	}
	return e
}

// row solves the self-play optimum of the row of n pairs, the previous row solved, and sets the
// cells' choices and the values asked for.
func (d *decayOptRat) row(w *sweep[*big.Rat], n int, cells []decayCell[*big.Rat]) error {
	d.prev, d.n = d.cur, n
	K := len(cells)
	eqs := make([][rules.NumChoices]*ratEq, K)
	fs := &choiceSys[float64]{fixed: make([]decayEq[float64], K), at: make([]int, K),
		eqs: make([][rules.NumChoices]*decayEq[float64], K), sign: 1}
	seed := make([]rules.Choice, K)
	for k := range cells {
		fs.at[k] = k
		for _, ch := range rules.Choices() {
			if cells[k].legal[ch] {
				eqs[k][ch] = d.equation(w, &cells[k], ch, n)
				fs.eqs[k][ch] = eqs[k][ch].fl
			}
		}
		seed[k] = firstOf(fs.eqs[k])
	}
	ch, _, _, err := fs.iterate(field.Float{}, seed)
	if err != nil {
		return err
	}
	for range decayIterations {
		if err := d.solve(eqs, ch); err != nil {
			return err
		}
		changed := false
		for k := range cells {
			if c, better := d.improve(eqs[k], ch[k], k); better {
				ch[k], changed = c, true
			}
		}
		if !changed {
			d.keep(w, cells, eqs, ch)
			return nil
		}
	}
	return fmt.Errorf("exact: policy iteration on the decay equations did not settle in %d steps", decayIterations)
}

// solve solves the row for the choices ch into d.cur: the integer system s·x_k - sum c·x = b /
// prevDen, eliminated fraction-free (Bareiss) from the last unknown to the first. An unknown
// refers to unknowns with at most band more known cards and to any with fewer (cards are
// forgotten), so that, eliminated from the last column, each column is removed from at most
// band rows above it and the system left is lower triangular: its forward substitution, one
// product of a large value by a minor of the system per entry, is the bulk of the work. The
// solution is X/(det·prevDen), X = det·x integers.
func (d *decayOptRat) solve(eqs [][rules.NumChoices]*ratEq, ch []rules.Choice) error {
	K := len(eqs)
	m := make([][]*big.Int, K)
	b := make([]*big.Int, K)
	band := 0
	for k := range K {
		e := eqs[k][ch[k]]
		m[k] = make([]*big.Int, K)
		for l := range m[k] {
			m[k][l] = new(big.Int)
		}
		m[k][k].Set(e.s)
		for t, l := range e.to {
			m[k][l].Sub(m[k][l], e.c[t])
			band = max(band, l-k)
		}
		b[k] = new(big.Int).Set(e.b)
	}
	// touched[r] says that row r has been brought up to date at some step: a row never touched
	// stands for itself times the previous pivot (Bareiss' rows are minors of the system), so it
	// is scaled by that pivot when first used.
	touched := make([]bool, K)
	pivots := make([]*big.Int, K) // pivots[s], the pivot of step s (column K-1-s)
	one := big.NewInt(1)
	prevPiv := func(s int) *big.Int {
		if s == 0 {
			return one
		}
		return pivots[s-1]
	}
	update := func(r, s int) {
		if !touched[r] && s > 0 {
			p := prevPiv(s)
			for l := range m[r] {
				if m[r][l].Sign() != 0 {
					m[r][l].Mul(m[r][l], p)
				}
			}
			b[r].Mul(b[r], p)
		}
		touched[r] = true
	}
	var t, u big.Int
	for s := range K {
		c := K - 1 - s
		update(c, s)
		piv := m[c][c]
		if piv.Sign() == 0 {
			return fmt.Errorf("exact: the decay equations are singular at unknown %d", c)
		}
		pivots[s] = piv
		prev := prevPiv(s)
		for r := max(0, c-band); r < c; r++ {
			update(r, s)
			mr, rc := m[r], m[r][c]
			for l := range c {
				if mr[l].Sign() == 0 && m[c][l].Sign() == 0 {
					continue
				}
				t.Mul(piv, mr[l])
				u.Mul(rc, m[c][l])
				t.Sub(&t, &u)
				mr[l].Quo(&t, prev)
			}
			t.Mul(piv, b[r])
			u.Mul(rc, b[c])
			t.Sub(&t, &u)
			b[r].Quo(&t, prev)
			rc.SetInt64(0)
		}
	}
	// A row is touched at every step from its first to its pivot's (the band's columns are
	// consecutive), so each holds its last step's result. The last pivot is the determinant.
	det := new(big.Int).Set(pivots[K-1])
	xs := make([]*big.Int, K)
	for c := range K {
		t.Mul(det, b[c])
		for l := range c {
			if m[c][l].Sign() != 0 {
				u.Mul(m[c][l], xs[l])
				t.Sub(&t, &u)
			}
		}
		xs[c] = new(big.Int).Quo(&t, m[c][c])
	}
	if det.Sign() < 0 {
		det.Neg(det)
		for _, x := range xs {
			x.Neg(x)
		}
	}
	den := new(big.Int).Mul(det, d.prev.den)
	fl := make([]float64, K)
	for k, x := range xs {
		fl[k] = ratToFloat(x, den)
	}
	d.cur = decayRatRow{num: xs, den: den, det: det, fl: fl}
	return nil
}

// choiceNum returns the numerator N of the value of equation e at the row's solution over
// e.s·den: v = N/(e.s·den).
func (d *decayOptRat) choiceNum(e *ratEq) *big.Int {
	n := new(big.Int).Mul(e.b, d.cur.det)
	var t big.Int
	for i, l := range e.to {
		t.Mul(e.c[i], d.cur.num[l])
		n.Add(n, &t)
	}
	return n
}

// cmpChoice returns the sign of v - x_k, v the value of equation e at the row's solution: from
// float64 where a bound on its rounding proves it, exactly otherwise.
func (d *decayOptRat) cmpChoice(e *ratEq, k int) int {
	if d.exactChecks {
		return d.cmpExact(e, k)
	}
	x := d.cur.fl
	sum, terms := e.fl.a[0]-x[k], math.Abs(e.fl.a[0])+math.Abs(x[k])
	for i, l := range e.to {
		p := e.fl.coef[i] * x[l]
		sum += p
		terms += math.Abs(p)
	}
	if bound := boundTerms(len(e.to)+2, terms); math.Abs(sum) > bound {
		if sum > 0 {
			return 1
		}
		return -1
	}
	return d.cmpExact(e, k)
}

// boundTerms bounds the rounding error of a sum of m terms (products of two operands, or one
// operand) computed in float64 from operands each within a relative 2^-51 = 4u of the exact
// ones (u = 2^-53; the right-hand side a is one quotient of two ratToFloat results, within 3u),
// terms being the sum of the computed terms' magnitudes T: each product's operands contribute at
// most 8.1u of its magnitude, its rounding u, and the m-1 additions at most 1.01·(m-1)·u·T, so
// the error is at most (m + 9)·u·T·1.01 (T within a small factor of the exact terms' sum). The
// bound doubles that and adds an absolute 2^-1000 per term for operands below the normal range.
func boundTerms(m int, terms float64) float64 {
	return float64(2*(m+10))*0x1p-53*terms + float64(m)*0x1p-1000
}

// cmpExact returns the sign of v - x_k exactly: N against e.s·X_k, both over e.s·den.
func (d *decayOptRat) cmpExact(e *ratEq, k int) int {
	var r big.Int
	r.Mul(e.s, d.cur.num[k])
	return d.choiceNum(e).Cmp(&r)
}

// improve returns the choice policy iteration switches state k to, if any: the first legal
// choice of the largest value when that value is larger than the current choice's, x_k.
func (d *decayOptRat) improve(eqs [rules.NumChoices]*ratEq, cur rules.Choice, k int) (rules.Choice, bool) {
	var better []rules.Choice
	for _, c := range rules.Choices() {
		if e := eqs[c]; e != nil && c != cur && d.cmpChoice(e, k) > 0 {
			better = append(better, c)
		}
	}
	if len(better) == 0 {
		return cur, false
	}
	// Among those better than x_k, the first of the largest value (cross-multiplied numerators).
	best := better[0]
	bn := d.choiceNum(eqs[best])
	var l, r big.Int
	for _, c := range better[1:] {
		cn := d.choiceNum(eqs[c])
		l.Mul(cn, eqs[best].s)
		r.Mul(bn, eqs[c].s)
		if l.Cmp(&r) > 0 {
			best, bn = c, cn
		}
	}
	return best, true
}

// keep sets the cells' choices (the first of the best, and which are best) and the values asked
// for, in lowest terms; the others are left nil.
func (d *decayOptRat) keep(w *sweep[*big.Rat], cells []decayCell[*big.Rat], eqs [][rules.NumChoices]*ratEq, ch []rules.Choice) {
	for k := range cells {
		c := &cells[k]
		all := d.keepAll || w.isFrom(c.st)
		var opt *big.Rat
		if all {
			opt = new(big.Rat).SetFrac(d.cur.num[k], d.cur.den)
		}
		w.at(c.st).opt = opt
		found := false
		for _, cc := range rules.Choices() {
			c.optBest[cc], c.optDev[cc] = false, nil
			e := eqs[k][cc]
			if e == nil {
				continue
			}
			switch {
			case cc == ch[k]:
				c.optBest[cc], c.optDev[cc] = true, opt
			case all:
				var den big.Int
				den.Mul(e.s, d.cur.den)
				c.optDev[cc] = new(big.Rat).SetFrac(d.choiceNum(e), &den)
				c.optBest[cc] = c.optDev[cc].Cmp(opt) == 0
			default:
				c.optBest[cc] = d.cmpChoice(e, k) == 0
			}
			if c.optBest[cc] && !found {
				c.optChoice, found = cc, true
			}
		}
	}
}
