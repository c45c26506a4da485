package exact

import (
	"fmt"
	"math/big"
	"strconv"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The decay model (docs/models.md §4.14): shared memory, any pass rule (decaypass.go), singletons
// under pass rule never (decaysingles.go). At every
// hand-over each remembered card, this turn's included, is forgotten independently with
// probability q; with a capacity m, the memory then forgets cards uniformly among those remembered
// before the turn until m remain. A forgotten card can leave the next seat in a state of the same
// size with more unknown pairs, so the states of one size form a system of linear equations,
// solved row by row (decayrow.go).

// DecayRationalLimit is the largest deal size for which memsim solves the decay model in exact
// rationals when it needs a whole table or a tournament's exact values: the solution of each row's
// equations multiplies the sizes of the numbers (about 0.15 s for 20 pairs, 1.2 s for 30), so larger
// tables are computed in float64. DecayWinRationalLimit is the same for a policy that plays to
// win, whose rows have a system per lead (1.1 s for 10 pairs, 3 s for 12).
const (
	DecayRationalLimit    = 16
	DecayWinRationalLimit = 8
)

// RationalLimit returns the largest deal size for which memsim solves model m in exact rationals
// for a table or a tournament's exact values: RationalLimit, or DecayRationalLimit under decay
// forgetting (under a turn limit also at most DecayLimitRationalWork / the limit, divided by
// s + 1 with s singletons, whose rows are s + 1 times longer), or
// FluctRationalLimit under a fluctuating capacity.
func (m Model) RationalLimit() int {
	if m.isDecay() && m.Variant.TurnLimit > 0 {
		return min(DecayRationalLimit, DecayLimitRationalWork/(m.Variant.TurnLimit*(m.Singletons+1)))
	}
	if m.isDecay() {
		return DecayRationalLimit
	}
	if m.Memory.Fluctuation > 0 {
		return FluctRationalLimit
	}
	if IsHUSingles(m) {
		return HUSinglesRationalLimit
	}
	return RationalLimit
}

// WinRationalLimit is RationalLimit for a matchup in which a seat plays to win: WinRationalLimit,
// or DecayWinRationalLimit under decay forgetting (under a turn limit also at most
// DecayLimitWinRationalWork / the limit), FluctWinRationalLimit under a fluctuating capacity.
func (m Model) WinRationalLimit() int {
	if m.isDecay() && m.Variant.TurnLimit > 0 {
		return min(DecayWinRationalLimit, DecayLimitWinRationalWork/m.Variant.TurnLimit)
	}
	if m.isDecay() {
		return DecayWinRationalLimit
	}
	if m.Memory.Fluctuation > 0 {
		return FluctWinRationalLimit
	}
	return WinRationalLimit
}

// DecayRate returns the decay probability q of a decay memory as the exact rational of its
// shortest decimal form, the number a configuration or a flag writes (0.1 is 1/10, not the
// float64 nearest to it): the exact model computes with it.
func DecayRate(mem rules.Memory) (*big.Rat, error) {
	s := strconv.FormatFloat(mem.Decay, 'g', -1, 64)
	q, ok := new(big.Rat).SetString(s)
	if !ok || q.Sign() <= 0 || q.Cmp(big.NewRat(1, 1)) > 0 {
		return nil, fmt.Errorf("decay probability q = %s: must be in (0, 1]", s)
	}
	if !q.Num().IsInt64() || !q.Denom().IsInt64() {
		return nil, fmt.Errorf("decay probability q = %s: too many decimal digits for the exact model", s)
	}
	return q, nil
}

// validateDecay reports whether a decay model has an exact solution: a decay probability with
// few enough digits. Under a pass rule other than never only two players' values and choices are
// solved (decaypass.go).
func (m Model) validateDecay() error {
	_, err := DecayRate(m.Memory)
	return err
}

// isDecay reports whether model m forgets by decay.
func (m Model) isDecay() bool { return m.Memory.Forget == rules.ForgetDecay }

// decayBucket is one result of a hand-over: known half-known pairs afterwards, whether the pair
// left fully known survived (and is taken by the next seat), and the probability.
type decayBucket[T any] struct {
	known int
	full  bool
	prob  T
}

// decayHand computes the distribution of a hand-over's result under decay forgetting, cached by
// the cards remembered when the turn passes.
type decayHand[T any] struct {
	f        field.Field[T]
	q, keep  T
	capacity int
	pmf      [][]T // pmf[o][a]: probability that a of o cards survive the decay
	cache    map[[3]int][]decayBucket[T]
	// blindCache holds the hand-overs of blind turns (blinddecay.go).
	blindCache map[[3]int][]blindDecayBucket[T]
	// singleCache holds the hand-overs with singletons (decaysingles.go).
	singleCache map[[5]int][]decaySingleBucket[T]
}

func newDecayHand[T any](f field.Field[T], mem rules.Memory, maxPairs int) (*decayHand[T], error) {
	q, err := DecayRate(mem)
	if err != nil {
		return nil, err
	}
	h := &decayHand[T]{f: f, capacity: mem.Capacity, cache: map[[3]int][]decayBucket[T]{}}
	h.q = f.FromFrac(q.Num().Int64(), q.Denom().Int64())
	h.keep = f.Sub(f.FromInt(1), h.q)
	h.pmf = [][]T{{f.FromInt(1)}}
	for o := 1; o <= maxPairs+2; o++ {
		prev, row := h.pmf[o-1], make([]T, o+1)
		for a := range row {
			v := f.FromInt(0)
			if a < o {
				v = f.Mul(prev[a], h.q)
			}
			if a > 0 {
				v = f.Add(v, f.Mul(prev[a-1], h.keep))
			}
			row[a] = v
		}
		h.pmf = append(h.pmf, row)
	}
	return h, nil
}

// buckets returns the results of a hand-over with old cards remembered from before the turn
// (each a half-known pair's), fresh cards seen this turn (each the only remembered card of its
// pair), and, when full, one more pair fully known through an old card and a card seen this turn.
// Buckets with the same result are merged; their probabilities sum to one.
func (h *decayHand[T]) buckets(old, fresh int, full bool) []decayBucket[T] {
	key := [3]int{old, fresh, 0}
	if full {
		key[2] = 1
	}
	if b, ok := h.cache[key]; ok {
		return b
	}
	f := h.f
	fullBits := 1
	if full {
		fullBits = 2
	}
	// acc[known][full]
	acc := make([][2]T, old+fresh+3)
	have := make([][2]bool, len(acc))
	add := func(known int, isFull bool, p T) {
		i := 0
		if isFull {
			i = 1
		}
		if have[known][i] {
			acc[known][i] = f.Add(acc[known][i], p)
		} else {
			acc[known][i], have[known][i] = p, true
		}
	}
	bit := func(v int) T {
		if v == 1 {
			return h.keep
		}
		return h.q
	}
	for a := 0; a <= old; a++ {
		for b := 0; b <= fresh; b++ {
			pab := f.Mul(h.pmf[old][a], h.pmf[fresh][b])
			for y := 0; y < fullBits; y++ { // the old card of the full pair survives
				for z := 0; z < fullBits; z++ { // its card seen this turn survives
					p := pab
					if full {
						p = f.Mul(p, f.Mul(bit(y), bit(z)))
					}
					if f.IsZero(p) {
						continue
					}
					h.settle(a, y, b+z, full && z == 1, p, add)
				}
			}
		}
	}
	var out []decayBucket[T]
	for k := range acc {
		for i := range 2 {
			if have[k][i] {
				out = append(out, decayBucket[T]{known: k, full: i == 1, prob: acc[k][i]})
			}
		}
	}
	h.cache[key] = out
	return out
}

// settle applies the capacity to a memory holding a old survivors besides the full pair's old card
// (y: whether it survived), and fresh survivors of this turn (freshFull: the full pair's new card
// among them), emitting the results with probability p. The excess is forgotten uniformly among
// the old survivors, the full pair's old card included.
func (h *decayHand[T]) settle(a, y, fresh int, freshFull bool, p T, add func(int, bool, T)) {
	f := h.f
	total, oldN := a+y+fresh, a+y
	emit := func(total, y int, p T) {
		if y == 1 && freshFull {
			add(total-2, true, p)
			return
		}
		add(total, false, p)
	}
	if h.capacity == 0 || total <= h.capacity {
		emit(total, y, p)
		return
	}
	x := total - h.capacity
	if y == 0 {
		emit(h.capacity, 0, p)
		return
	}
	// The full pair's old card is among the x forgotten with probability x/oldN.
	emit(h.capacity, 0, f.Mul(p, f.FromFrac(int64(x), int64(oldN))))
	if x < oldN {
		emit(h.capacity, 1, f.Mul(p, f.FromFrac(int64(oldN-x), int64(oldN))))
	}
}

// decayOutcomes appends to outs and probs the outcomes of a turn begun in st (pairs only) with
// choice c under decay forgetting, with their probabilities in the field; the outcomes' Prob is
// left zero. Outcomes with the same event and successor are merged.
func decayOutcomes[T any](h *decayHand[T], st rules.State, c rules.Choice, outs []Outcome, probs []T) ([]Outcome, []T) {
	f := h.f
	n, j := st.N, st.J
	k, u := n-j, int64(n+j)
	at := func(n, known int) rules.State { return rules.State{N: n, J: n - known} }
	emit := func(e Event, p T, next rules.State, cont bool, moverGain, nextGain int) {
		if f.IsZero(p) {
			return
		}
		outs = append(outs, Outcome{Event: e, Next: next, Continue: cont, MoverGain: moverGain, NextGain: nextGain})
		probs = append(probs, p)
	}
	frac := func(num, den int64) T { return f.FromFrac(num, den) }
	handOver := func(e Event, p T, old, fresh int, full bool) {
		if f.IsZero(p) {
			return
		}
		for _, b := range h.buckets(old, fresh, full) {
			if b.full {
				emit(e, f.Mul(p, b.prob), at(n-1, b.known), false, 0, 1)
			} else {
				emit(e, f.Mul(p, b.prob), at(n, b.known), false, 0, 0)
			}
		}
	}
	switch c {
	case rules.Pass:
		// The pass hands the turn over: the hand-over forgets among the k remembered cards.
		handOver(EventPass, f.FromInt(1), k, 0, false)
	case rules.KnownFirst:
		emit(EventKnownThenPartner, frac(1, u), at(n-1, k-1), true, 1, 0)
		if k > 1 {
			handOver(EventKnownThenKnownPartner, frac(int64(k-1), u), k-1, 0, true)
		}
		if j > 0 {
			handOver(EventKnownThenNew, frac(int64(2*j), u), k, 1, false)
		}
	case rules.Daring, rules.Safe:
		if k > 0 {
			emit(EventFirstHit, frac(int64(k), u), at(n-1, k-1), true, 1, 0)
		}
		if j == 0 {
			break
		}
		pNew := frac(int64(2*j), u)
		if c == rules.Safe && k >= 1 {
			handOver(EventNewThenKnown, pNew, k, 1, false)
			break
		}
		rest := u - 1
		emit(EventLucky, f.Mul(pNew, frac(1, rest)), at(n-1, k), true, 1, 0)
		if k > 0 {
			handOver(EventNewThenKnownPartner, f.Mul(pNew, frac(int64(k), rest)), k-1, 1, true)
		}
		if j > 1 {
			handOver(EventTwoNew, f.Mul(pNew, frac(int64(2*(j-1)), rest)), k, 2, false)
		}
	}
	return outs, probs
}
