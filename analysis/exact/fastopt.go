package exact

import (
	"fmt"
	"math/big"
	"math/bits"
	"sync/atomic"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fastExact enables the smooth-denominator path of the exact optimal sweep (ratOpt); tests turn
// it off to compare with the general path.
var fastExact = func() *atomic.Bool { b := new(atomic.Bool); b.Store(true); return b }()

// ratOpt computes the two-player optimal values of a model without forgetting in exact rationals,
// for the exact field, faster than the general path and with the same results.
//
// Without forgetting no turn returns to the state it began in (but a pass), so a choice's lead
// is a_c = sum over its outcomes of probability times (gain + successor's value), with no
// self-reference to solve, and the value is the largest a_c (or 0 where a pass is legal and
// every a_c is negative). Every probability's denominator is a product of counts of face-down
// cards, at most 2n + S, so every value's denominator has no prime factor above that bound: the
// values are kept as field.SmoothRat, numerators with the exponent vectors of their denominators.
// In each state, the successors' values (a handful, shared by the choices) are brought to their
// least common denominator times the least common denominator q of the probabilities, once; each
// choice's lead is then an integer combination of them, its numerator over that one denominator
// (field.Combination.Sum). So the choices are compared exactly by comparing numerators, with no
// rounding and no tolerance, and only the values that are kept are brought to lowest terms: the
// state's value, and each choice's lead when a strategy table asks for them.
type ratOpt struct {
	s    *field.Smooth
	comb *field.Combination
	rows [2][]field.SmoothRat
	one  field.SmoothRat

	// The current state: its operands (1, then the distinct successors), where each successor's
	// operand is, each choice's coefficients on them and its numerator over the common
	// denominator.
	ops  []*field.SmoothRat
	keys []int
	coef [rules.NumChoices][]int64
	x    [rules.NumChoices]big.Int
	red  [rules.NumChoices]field.SmoothRat

	// cmpDS compares daring's lead with safe's (when both are legal) in the last state.
	cmpDS int
}

// useFastOpt reports whether the optimal values of w can be computed by ratOpt: exact arithmetic
// on big.Rat and a model without forgetting.
func useFastOpt[T any](w *sweep[T]) bool {
	return fastExact.Load() && w.exact() && w.needOpt && w.m.Memory.Perfect() && !w.blindFlips()
}

func newRatOpt(maxPairs, singletons, cells int) *ratOpt {
	e := &ratOpt{s: field.NewSmooth(2*maxPairs + singletons)}
	e.comb = e.s.NewCombination()
	e.one.SetInt64(1)
	for r := range e.rows {
		e.rows[r] = make([]field.SmoothRat, cells)
	}
	return e
}

// key numbers the value of state st in the rows.
func (w *sweep[T]) key(st rules.State) int {
	return (st.N&1)*len(w.rows[0]) + st.J*w.stride + st.F
}

func (e *ratOpt) value(key, cells int) *field.SmoothRat { return &e.rows[key/cells][key%cells] }

// fastOptimal is sweep.optimal on ratOpt: it sets the optimal choice, the best choices, the
// comparison of daring with safe and, when the sweep needs them (a strategy table), each legal
// choice's lead with optimal play afterwards. The state's value is read with optAt or pairsAt,
// the choices' with choicePairs; optDev is not set.
func (w *sweep[T]) fastOptimal(st rules.State) {
	e := w.fast
	cells := len(w.rows[0])
	cur := e.value(w.key(st), cells)
	// The operands: 1 (for the gains), then each distinct successor; q, the least common
	// denominator of the probabilities.
	e.ops = append(e.ops[:0], &e.one)
	e.keys = append(e.keys[:0], -1)
	q := uint64(1)
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		for _, o := range w.outs[ch] {
			if selfLoop(o, st) {
				panic(fmt.Sprintf("exact: %v returns to itself in a model without forgetting", st))
			}
			q = lcm64(q, uint64(o.Prob.Den))
			k := w.key(o.Next)
			found := false
			for _, kk := range e.keys {
				if kk == k {
					found = true
					break
				}
			}
			if !found {
				e.keys = append(e.keys, k)
				e.ops = append(e.ops, e.value(k, cells))
			}
		}
	}
	// Each choice's coefficients: probability * q on its successor and gain * probability * q
	// on 1, with the sign of the seat that moves there (the mover's own value after a pair,
	// the negated value of the next seat otherwise).
	best, have := rules.Daring, false
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		coef := e.coef[ch][:0]
		for range e.ops {
			coef = append(coef, 0)
		}
		for _, o := range w.outs[ch] {
			mult := mulCheck(uint64(o.Prob.Num), q/uint64(o.Prob.Den))
			sign, gain := int64(-1), int64(o.NextGain)
			if o.Continue {
				sign, gain = 1, int64(o.MoverGain)
			}
			k := w.key(o.Next)
			for i, kk := range e.keys {
				if kk == k {
					coef[i] += sign * mult
				}
			}
			coef[0] += sign * mult * gain
		}
		e.coef[ch] = coef
		if !have {
			e.comb.Reset(q, e.ops...)
		}
		e.comb.Sum(&e.x[ch], coef)
		if !have || e.x[ch].Cmp(&e.x[best]) > 0 {
			best, have = ch, true
		}
	}
	e.cmpDS = 0
	if w.legal[rules.Daring] && w.legal[rules.Safe] {
		e.cmpDS = e.x[rules.Daring].Cmp(&e.x[rules.Safe])
	}
	// The best choices: those with the largest lead; where a pass is legal it splits the table,
	// worth 0, and is best when no other choice is worth more (docs/models.md §4.5).
	sb := e.x[best].Sign()
	pass := w.legal[rules.Pass]
	found := false
	for _, ch := range rules.Choices() {
		switch {
		case !w.legal[ch]:
			w.optBest[ch] = false
		case ch == rules.Pass:
			w.optBest[ch] = sb <= 0
		default:
			w.optBest[ch] = (!pass || sb >= 0) && e.x[ch].Cmp(&e.x[best]) == 0
		}
		if w.optBest[ch] && !found {
			w.optChoice, found = ch, true
		}
	}
	clamped := pass && sb < 0
	if !w.needDev && !w.isFrom(st) {
		if clamped {
			cur.SetInt64(0)
		} else {
			e.comb.Reduce(cur, &e.x[best])
		}
		return
	}
	// Every legal choice's lead, in lowest terms (each distinct numerator reduced once), for
	// choicePairs.
	var done [rules.NumChoices]bool
	for _, ch := range rules.Choices() {
		if !w.legal[ch] || ch == rules.Pass {
			continue
		}
		for prev := range ch {
			if done[prev] && e.x[prev].Cmp(&e.x[ch]) == 0 {
				e.red[ch].Set(&e.red[prev])
				done[ch] = true
				break
			}
		}
		if !done[ch] {
			e.comb.Reduce(&e.red[ch], &e.x[ch])
			done[ch] = true
		}
	}
	if clamped {
		cur.SetInt64(0)
	} else {
		cur.Set(&e.red[best])
	}
}

// pairsAt returns the mover's expected pairs in st with optimal play: (n + lead)/2.
func (w *sweep[T]) pairsAt(st rules.State) T {
	if w.fast == nil || st.N == 0 {
		return pairsFromLead(w.f, w.f.FromInt(int64(st.N)), w.optAt(st))
	}
	return any(w.fast.value(w.key(st), len(w.rows[0])).Halve(int64(st.N), false)).(T)
}

// choicePairs returns the mover's expected pairs in the last state st, after legal choice ch and
// optimal play afterwards; value is pairsAt(st).
func (w *sweep[T]) choicePairs(st rules.State, ch rules.Choice, value T) T {
	if w.fast == nil {
		f := w.f
		return f.Div(f.Add(f.FromInt(int64(st.N)), w.optDev[ch]), f.FromInt(2))
	}
	e := w.fast
	switch {
	case ch == rules.Pass:
		// The other seat answers in the same state: (n - lead)/2.
		return any(e.value(w.key(st), len(w.rows[0])).Halve(int64(st.N), true)).(T)
	case w.optBest[ch]:
		return value // a best choice other than a pass: the state's value
	}
	return any(e.red[ch].Halve(int64(st.N), false)).(T)
}

// optAt returns the optimal value (the mover's lead) of st, of the current row or the one before.
func (w *sweep[T]) optAt(st rules.State) T {
	if w.decayRat != nil {
		if v, ok := w.decayRat.value(st); ok {
			return any(v).(T)
		}
	}
	if w.fast == nil || st.N == 0 {
		return w.at(st).opt
	}
	v := w.fast.value(w.key(st), len(w.rows[0]))
	if v.Sign() == 0 {
		return w.zero
	}
	return any(v.Rat()).(T)
}

// cmpDaringSafe compares the leads of daring and safe in the last state (both legal).
func (w *sweep[T]) cmpDaringSafe() int {
	if w.fast != nil {
		return w.fast.cmpDS
	}
	return w.f.Cmp(w.optDev[rules.Daring], w.optDev[rules.Safe])
}

func lcm64(a, b uint64) uint64 { return uint64(mulCheck(a/uint64(gcd(int64(a), int64(b))), b)) }

// mulCheck returns a*b, which must be below 2^62 (so that sums of a few such products fit in an
// int64): products of counts of cards, far from it for any table the solver can sweep.
func mulCheck(a, b uint64) int64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 || lo >= 1<<62 {
		panic(fmt.Sprintf("exact: %d * %d overflows the probabilities' arithmetic", a, b))
	}
	return int64(lo)
}
