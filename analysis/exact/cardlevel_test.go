package exact_test

// An independent check of Model.Outcomes against the rules of docs/models.md §1 and §2, played
// out card by card.
//
// A position at the start of a turn is an explicit table: every card has an identity (pair i owns
// cards 2i and 2i+1, singleton k is card 2n+k), and the shared memory is a list of remembered cards,
// least recently seen first. The faces of the cards nobody remembers are, by the modelling
// convention, a uniformly random assignment of the cards not remembered to the positions not
// remembered, and the mover flips a uniformly random position it does not remember. By
// exchangeability of that assignment, flipping such a position shows each individual card not
// remembered with equal probability, and the positions still face down and not remembered again
// hold a uniform assignment of the remaining cards. The enumeration below therefore branches, at
// every flip of an unremembered position, over every individual card that can lie there (each
// with probability 1/(number of such cards)), including a card forgotten earlier in the same turn.
// Forgetting is applied card by card: handover-uniform enumerates which old card is forgotten, one
// at a time; lru keeps the actual recency order. Nothing here uses the count formulas of the
// models: the count state is only read off the table at the end.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// cardWorld is a table and a shared memory at card level.
type cardWorld struct {
	pairs   int    // pair cards are 0 .. 2*pairs-1, partner of c is c^1
	singles int    // singleton cards are 2*pairs .. 2*pairs+singles-1
	present []bool // card still on the table
	mem     []int  // remembered cards, least recently seen first
	old     []bool // remembered when the turn began (handover-uniform forgets only these)
	pending []int  // lru: cards seen and recognised (partner remembered) but not stored
}

func (w *cardWorld) clone() *cardWorld {
	return &cardWorld{
		pairs:   w.pairs,
		singles: w.singles,
		present: append([]bool(nil), w.present...),
		mem:     append([]int(nil), w.mem...),
		old:     append([]bool(nil), w.old...),
		pending: append([]int(nil), w.pending...),
	}
}

func (w *cardWorld) partner(c int) int {
	if c < 2*w.pairs {
		return c ^ 1
	}
	return -1
}

func (w *cardWorld) remembered(c int) bool {
	for _, x := range w.mem {
		if x == c {
			return true
		}
	}
	return false
}

// unremembered lists the cards on the table that nobody remembers, except the ones in skip (face
// up this turn).
func (w *cardWorld) unremembered(skip ...int) []int {
	var out []int
next:
	for c, on := range w.present {
		if !on || w.remembered(c) {
			continue
		}
		for _, s := range skip {
			if s == c {
				continue next
			}
		}
		out = append(out, c)
	}
	return out
}

func (w *cardWorld) forget(c int) {
	for i, x := range w.mem {
		if x == c {
			w.mem = append(w.mem[:i], w.mem[i+1:]...)
			return
		}
	}
}

func (w *cardWorld) remove(c int) {
	w.present[c] = false
	w.forget(c)
}

// touch makes a remembered card the most recently seen one.
func (w *cardWorld) touch(c int) {
	if w.remembered(c) {
		w.forget(c)
		w.mem = append(w.mem, c)
	}
}

// cardMemory is the memory discipline played at card level.
type cardMemory struct {
	capacity int // 0: perfect, or decay without a capacity
	forget   rules.Forgetting
	q        *big.Rat // decay: the probability of forgetting each card at a hand-over
}

func (m cardMemory) lru() bool { return m.capacity > 0 && m.forget == rules.ForgetLRU }
func (m cardMemory) handover() bool {
	return m.capacity > 0 && m.forget == rules.ForgetHandoverUniform
}

func (m cardMemory) String() string {
	if m.forget == rules.ForgetDecay {
		return fmt.Sprintf("decay(q=%s)/m=%d", m.q.RatString(), m.capacity)
	}
	if m.capacity == 0 {
		return "perfect"
	}
	return fmt.Sprintf("%s/m=%d", m.forget, m.capacity)
}

// see records a newly seen card c that is not recognised (its partner is not remembered, or the
// memory is not lru): it is stored as the most recent card; lru then forgets the least recently
// seen card at once if the memory is over capacity.
func (w *cardWorld) see(c int, m cardMemory) {
	if w.remembered(c) {
		w.touch(c)
		return
	}
	w.mem = append(w.mem, c)
	if m.lru() && len(w.mem) > m.capacity {
		w.mem = w.mem[1:]
	}
}

// newSecond records a newly seen second card c whose partner may be remembered: under lru a
// recognised card is not stored (the pair is left for the next player), otherwise it is stored.
func (w *cardWorld) newSecond(c int, m cardMemory) {
	if p := w.partner(c); m.lru() && p >= 0 && w.remembered(p) {
		w.pending = append(w.pending, c)
		return
	}
	w.see(c, m)
}

// pickRule says which remembered card the mover flips when the rules leave the choice open (the
// known card of the safe move, the first card of known-first). The result must not depend on it.
type pickRule int

const (
	pickOldest pickRule = iota // the least recently seen eligible card
	pickNewest                 // the most recently seen eligible card
)

func (p pickRule) String() string { return [...]string{"oldest", "newest"}[p] }

func (w *cardWorld) pick(p pickRule, ok func(c int) bool) int {
	var cands []int
	for _, c := range w.mem {
		if ok(c) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return -1
	}
	if p == pickOldest {
		return cands[0]
	}
	return cands[len(cands)-1]
}

// newCardWorld lays out the state st: half-known pairs 0 .. n-j-1 (one card of each remembered,
// alternately the first and the second), unknown pairs n-j .. n-1, seen singletons first. order is
// a permutation of the remembered cards' indices giving the recency order (least recent first);
// nil means the layout order.
func newCardWorld(st rules.State, order []int) *cardWorld {
	w := &cardWorld{pairs: st.N, singles: st.S}
	total := 2*st.N + st.S
	w.present = make([]bool, total)
	for i := range w.present {
		w.present[i] = true
	}
	var known []int
	for i := 0; i < st.N-st.J; i++ {
		known = append(known, 2*i+i%2)
	}
	for k := 0; k < st.S-st.F; k++ {
		known = append(known, 2*st.N+k)
	}
	if order == nil {
		w.mem = known
	} else {
		for _, i := range order {
			w.mem = append(w.mem, known[i])
		}
	}
	return w
}

// countState reads the count state (n, j, s, f) off the table. It fails if a pair is fully
// remembered or a card is pending.
func (w *cardWorld) countState() (rules.State, error) {
	var st rules.State
	if len(w.pending) > 0 {
		return st, fmt.Errorf("cards %v still pending", w.pending)
	}
	for i := 0; i < w.pairs; i++ {
		a, b := 2*i, 2*i+1
		if w.present[a] != w.present[b] {
			return st, fmt.Errorf("pair %d half removed", i)
		}
		if !w.present[a] {
			continue
		}
		st.N++
		switch k := btoi(w.remembered(a)) + btoi(w.remembered(b)); k {
		case 0:
			st.J++
		case 2:
			return st, fmt.Errorf("pair %d fully remembered at the start of a turn", i)
		}
	}
	for k := 0; k < w.singles; k++ {
		c := 2*w.pairs + k
		if !w.present[c] {
			return st, fmt.Errorf("singleton %d removed", k)
		}
		st.S++
		if !w.remembered(c) {
			st.F++
		}
	}
	return st, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// emitFunc receives one end of a turn: its probability, the table at the start of the next turn,
// whether the mover goes on, the pairs the mover took and the pairs the next player takes first.
type emitFunc func(p *big.Rat, w *cardWorld, cont bool, moverGain, nextGain int)

func ratMul(p *big.Rat, num, den int) *big.Rat {
	return new(big.Rat).Mul(p, big.NewRat(int64(num), int64(den)))
}

// cardTurn enumerates one turn begun on w with choice c.
func cardTurn(w0 *cardWorld, m cardMemory, c rules.Choice, pick pickRule, emit emitFunc) {
	w0 = w0.clone()
	w0.old = make([]bool, len(w0.present))
	for _, x := range w0.mem {
		w0.old[x] = true
	}
	w0.pending = nil
	one := big.NewRat(1, 1)
	switch c {
	case rules.Pass:
		emit(one, w0, false, 0, 0)
	case rules.Daring, rules.Safe:
		pool := w0.unremembered()
		for _, a := range pool {
			pa := ratMul(one, 1, len(pool))
			w := w0.clone()
			if q := w.partner(a); q >= 0 && w.remembered(q) {
				// The first card's partner is remembered: flip it and take the pair.
				w.remove(a)
				w.remove(q)
				emit(pa, w, true, 1, 0)
				continue
			}
			w.see(a, m)
			single := w.partner(a) < 0
			other := func(x int) bool { return x != a }
			if (single || c == rules.Safe) && w.pick(pick, other) >= 0 {
				// Second card: a remembered card (the safe move, or after an unseen singleton).
				w.touch(w.pick(pick, other))
				handOver(w, m, pa, 0, emit)
				continue
			}
			if c == rules.Safe && !single {
				panic(fmt.Sprintf("safe move with no other remembered card: mem %v, first %d", w.mem, a))
			}
			// Second card: another position nobody remembers (possibly one just forgotten).
			pool2 := w.unremembered(a)
			for _, b := range pool2 {
				pb := ratMul(pa, 1, len(pool2))
				w2 := w.clone()
				if w2.partner(b) == a && a >= 0 {
					w2.remove(a)
					w2.remove(b)
					emit(pb, w2, true, 1, 0)
					continue
				}
				w2.newSecond(b, m)
				handOver(w2, m, pb, 0, emit)
			}
		}
	case rules.KnownFirst:
		w := w0.clone()
		k := w.pick(pick, func(x int) bool { return w.partner(x) >= 0 })
		if k < 0 {
			k = w.pick(pick, func(int) bool { return true })
		}
		if k < 0 {
			panic("known-first with nothing remembered")
		}
		w.touch(k)
		pool := w.unremembered()
		for _, b := range pool {
			pb := ratMul(one, 1, len(pool))
			w2 := w.clone()
			if w2.partner(b) == k && k >= 0 {
				w2.remove(k)
				w2.remove(b)
				emit(pb, w2, true, 1, 0)
				continue
			}
			w2.newSecond(b, m)
			handOver(w2, m, pb, 0, emit)
		}
	default:
		panic(fmt.Sprintf("unknown choice %v", c))
	}
}

// handOver passes the turn: handover-uniform forgets old cards one at a time, uniformly, until the
// capacity remains; then a pair whose two cards are known (remembered or recognised) is taken
// first by the next player.
func handOver(w *cardWorld, m cardMemory, p *big.Rat, moverGain int, emit emitFunc) {
	if m.forget == rules.ForgetDecay {
		decayHandOver(w, m, p, moverGain, emit)
		return
	}
	if m.handover() && len(w.mem) > m.capacity {
		var cands []int
		for _, x := range w.mem {
			if w.old[x] {
				cands = append(cands, x)
			}
		}
		if len(cands) == 0 {
			panic(fmt.Sprintf("handover: %d cards over capacity %d and none is old", len(w.mem), m.capacity))
		}
		for _, x := range cands {
			w2 := w.clone()
			w2.forget(x)
			handOver(w2, m, ratMul(p, 1, len(cands)), moverGain, emit)
		}
		return
	}
	if m.capacity > 0 && len(w.mem) > m.capacity {
		panic(fmt.Sprintf("memory %v over capacity %d at hand-over", w.mem, m.capacity))
	}
	nextGain := 0
	known := func(c int) bool {
		if w.remembered(c) {
			return true
		}
		for _, x := range w.pending {
			if x == c {
				return true
			}
		}
		return false
	}
	for i := 0; i < w.pairs; i++ {
		if w.present[2*i] && known(2*i) && known(2*i+1) {
			w.remove(2 * i)
			w.remove(2*i + 1)
			nextGain++
		}
	}
	var still []int
	for _, x := range w.pending {
		if w.present[x] {
			still = append(still, x)
		}
	}
	if len(still) > 0 {
		panic(fmt.Sprintf("recognised cards %v not taken", still))
	}
	w.pending = nil
	emit(p, w, false, moverGain, nextGain)
}

// outKey identifies an outcome up to its event label.
type outKey struct {
	cont      bool
	moverGain int
	nextGain  int
	next      rules.State
}

func (k outKey) String() string {
	return fmt.Sprintf("cont=%v mover+%d next+%d -> %v", k.cont, k.moverGain, k.nextGain, k.next)
}

type dist map[outKey]*big.Rat

func (d dist) add(k outKey, p *big.Rat) {
	if d[k] == nil {
		d[k] = new(big.Rat)
	}
	d[k].Add(d[k], p)
}

func (d dist) total() *big.Rat {
	s := new(big.Rat)
	for _, p := range d {
		s.Add(s, p)
	}
	return s
}

// pruned drops zero entries.
func (d dist) pruned() dist {
	out := dist{}
	for k, p := range d {
		if p.Sign() != 0 {
			out[k] = p
		}
	}
	return out
}

func (d dist) equal(e dist) bool {
	a, b := d.pruned(), e.pruned()
	if len(a) != len(b) {
		return false
	}
	for k, p := range a {
		if q, ok := b[k]; !ok || p.Cmp(q) != 0 {
			return false
		}
	}
	return true
}

func (d dist) String() string {
	keys := make([]outKey, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, "\n    %-50s %s", k, d[k].RatString())
	}
	return sb.String()
}

// cardDist enumerates one turn at card level and aggregates it by outcome key.
func cardDist(st rules.State, order []int, m cardMemory, c rules.Choice, pick pickRule) (d dist, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("card-level enumeration: %v", r)
		}
	}()
	d = dist{}
	cardTurn(newCardWorld(st, order), m, c, pick, func(p *big.Rat, w *cardWorld, cont bool, mg, ng int) {
		next, err := w.countState()
		if err != nil {
			panic(err)
		}
		d.add(outKey{cont, mg, ng, next}, p)
	})
	return d, nil
}

// modelDist aggregates Model.Outcomes by outcome key, checking each probability.
func modelDist(model exact.Model, st rules.State, c rules.Choice) (d dist, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("Outcomes panicked: %v", r)
		}
	}()
	d = dist{}
	// Outcomes appends to dst: a prefix must survive and the appended part be the same.
	sentinel := exact.Outcome{Prob: exact.Frac{Num: 7, Den: 9}, Next: rules.State{N: 99}}
	plain := model.Outcomes(st, c, nil)
	withPrefix := model.Outcomes(st, c, []exact.Outcome{sentinel})
	if len(withPrefix) != len(plain)+1 || withPrefix[0] != sentinel {
		return d, fmt.Errorf("Outcomes did not append to dst: %d outcomes with a prefix of 1, %d without", len(withPrefix), len(plain))
	}
	for i := range plain {
		if withPrefix[i+1] != plain[i] {
			return d, fmt.Errorf("Outcomes differ with a prefix in dst: %+v vs %+v", withPrefix[i+1], plain[i])
		}
	}
	if len(plain) == 0 {
		return d, fmt.Errorf("no outcomes")
	}
	for _, o := range plain {
		if o.Prob.Den <= 0 || o.Prob.Num < 0 || o.Prob.Num > o.Prob.Den {
			return d, fmt.Errorf("outcome %+v: probability %d/%d out of range", o, o.Prob.Num, o.Prob.Den)
		}
		d.add(outKey{o.Continue, o.MoverGain, o.NextGain, o.Next}, big.NewRat(o.Prob.Num, o.Prob.Den))
	}
	return d, nil
}

// permutations returns every permutation of 0 .. k-1.
func permutations(k int) [][]int {
	if k == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(k - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int(nil), p[:i]...), k-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

func memoryOf(m cardMemory) rules.Memory {
	if m.capacity == 0 {
		return rules.Memory{}
	}
	return rules.Memory{Capacity: m.capacity, Forget: m.forget}
}

// oneTurnCase is one (memory, state, choice, pass rule) to compare.
type oneTurnCase struct {
	mem    cardMemory
	st     rules.State
	choice rules.Choice
	pass   rules.PassRule
}

func (tc oneTurnCase) name() string {
	s := tc.mem.String() + "/"
	if tc.st.S == 0 {
		s += fmt.Sprintf("n=%d,j=%d", tc.st.N, tc.st.J)
	} else {
		s += fmt.Sprintf("n=%d,j=%d,s=%d,f=%d", tc.st.N, tc.st.J, tc.st.S, tc.st.F)
	}
	s += "/" + tc.choice.String()
	if tc.choice == rules.Pass {
		s += "-" + tc.pass.String()
	}
	return s
}

// appendCases appends the cases of st: daring always; safe and known-first with a remembered
// card; pass under two-known (when allowed) and under always.
func appendCases(cases []oneTurnCase, m cardMemory, st rules.State) []oneTurnCase {
	for _, c := range []rules.Choice{rules.Daring, rules.Safe, rules.KnownFirst} {
		if rules.Legal(st, c, rules.PassNever) {
			cases = append(cases, oneTurnCase{m, st, c, rules.PassNever})
		}
	}
	for _, pr := range []rules.PassRule{rules.PassTwoKnown, rules.PassAlways} {
		if pr.Allows(st) {
			cases = append(cases, oneTurnCase{m, st, rules.Pass, pr})
		}
	}
	return cases
}

func oneTurnCases() []oneTurnCase {
	var cases []oneTurnCase
	perfect := cardMemory{}
	for s := 0; s <= 3; s++ {
		for n := 1; n <= 5; n++ {
			for j := 0; j <= n; j++ {
				for f := 0; f <= s; f++ {
					cases = appendCases(cases, perfect, rules.State{N: n, J: j, S: s, F: f})
				}
			}
		}
	}
	for _, fg := range []rules.Forgetting{rules.ForgetHandoverUniform, rules.ForgetLRU} {
		for capacity := 2; capacity <= 4; capacity++ {
			m := cardMemory{capacity: capacity, forget: fg}
			for n := 1; n <= 6; n++ {
				for j := 0; j <= n; j++ {
					if n-j <= capacity {
						cases = appendCases(cases, m, rules.State{N: n, J: j})
					}
				}
			}
		}
	}
	return cases
}

// TestCardLevelOutcomes compares Model.Outcomes with an exact card-level enumeration of the turn,
// for every state and legal choice in range. Under lru every recency order of the remembered cards
// and both ways of picking an open remembered card are enumerated separately, and each must give
// the model's distribution.
func TestCardLevelOutcomes(t *testing.T) {
	compared := 0
	for _, tc := range oneTurnCases() {
		t.Run(tc.name(), func(t *testing.T) {
			model := exact.Model{Pass: tc.pass, Memory: memoryOf(tc.mem), Singletons: tc.st.S}
			if err := model.Validate(); err != nil {
				t.Fatalf("model %+v: %v", model, err)
			}
			if err := tc.st.Validate(model.Memory); err != nil {
				t.Fatalf("state %v: %v", tc.st, err)
			}
			want, err := modelDist(model, tc.st, tc.choice)
			if err != nil {
				t.Fatalf("state %v, choice %v: %v", tc.st, tc.choice, err)
			}
			if tot := want.total(); tot.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("state %v, choice %v: Outcomes probabilities sum to %s, want 1:%v", tc.st, tc.choice, tot.RatString(), want)
			}
			orders := [][]int{nil}
			if tc.mem.lru() {
				orders = permutations(tc.st.Known())
			}
			for _, order := range orders {
				recency := "layout order"
				if order != nil {
					recency = fmt.Sprintf("recency permutation %v", order)
				}
				for _, pick := range []pickRule{pickOldest, pickNewest} {
					got, err := cardDist(tc.st, order, tc.mem, tc.choice, pick)
					if err != nil {
						t.Fatalf("state %v, choice %v, %s, pick %v: %v", tc.st, tc.choice, recency, pick, err)
					}
					if tot := got.total(); tot.Cmp(big.NewRat(1, 1)) != 0 {
						t.Fatalf("card level: probabilities sum to %s", tot.RatString())
					}
					compared++
					if !got.equal(want) {
						t.Fatalf("memory %v, state %v, choice %v (%s, pick %v):\n  card level:%v\n  Outcomes:%v",
							tc.mem, tc.st, tc.choice, recency, pick, got, want)
					}
				}
			}
		})
	}
	if compared == 0 {
		t.Fatal("no case compared")
	}
	t.Logf("compared %d card-level turn distributions with Outcomes", compared)
}

// ---------------------------------------------------------------------------------------------
// Game level, perfect memory: every deal played out card by card.

// dealsOf lists every arrangement of the faces of n pairs (faces 0 .. n-1, twice each) and s
// singletons (faces n .. n+s-1) on 2n+s positions.
func dealsOf(n, s int) [][]int {
	count := make([]int, n+s)
	for i := range count {
		count[i] = 1
		if i < n {
			count[i] = 2
		}
	}
	total := 2*n + s
	var out [][]int
	cur := make([]int, 0, total)
	var rec func()
	rec = func() {
		if len(cur) == total {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for f := range count {
			if count[f] > 0 {
				count[f]--
				cur = append(cur, f)
				rec()
				cur = cur[:len(cur)-1]
				count[f]++
			}
		}
	}
	rec()
	return out
}

// gameTally is what one deal (or the sum over deals) gives: pairs per seat, turns and lucky turns.
type gameTally struct {
	pairs        []int64
	turns, lucky int64
}

// playDeal plays a deal to the end with perfect shared memory, pass rule never, seat 0 playing
// policy and the others opponent.
func playDeal(face []int, n, players int, policy, opponent rules.Policy) gameTally {
	return playDealWith(face, n, players, func(seat int, st rules.State) rules.Choice {
		if seat == 0 {
			return policy.Decide(st)
		}
		return opponent.Decide(st)
	})
}

// playDealWith plays a deal to the end with perfect shared memory, pass rule never, the mover
// making the choice decide gives for its seat and the state (whose Lead is the mover's pairs minus
// the other seat's, with two players), daring or safe. The mover always flips the lowest-index
// position nobody has seen, which with a uniformly random deal is a uniformly random unseen
// position.
func playDealWith(face []int, n, players int, decide func(seat int, st rules.State) rules.Choice) gameTally {
	L := len(face)
	partner := make([]int, L)
	for i := range partner {
		partner[i] = -1
		for k := range face {
			if k != i && face[k] == face[i] && face[i] < n {
				partner[i] = k
			}
		}
	}
	present := make([]bool, L)
	known := make([]bool, L)
	for i := range present {
		present[i] = true
	}
	res := gameTally{pairs: make([]int64, players)}
	pairsLeft, mover := n, 0
	remove := func(a, b int) {
		present[a], present[b] = false, false
		res.pairs[mover]++
		pairsLeft--
	}
	firstUnseen := func(skip int) int {
		for i := 0; i < L; i++ {
			if present[i] && !known[i] && i != skip {
				return i
			}
		}
		panic("no unseen card")
	}
	for pairsLeft > 0 {
		// A pair with both cards seen is taken first (a turn of its own).
		fullyKnown := -1
		for i := 0; i < L; i++ {
			if present[i] && partner[i] >= 0 && known[i] && known[partner[i]] {
				fullyKnown = i
				break
			}
		}
		if fullyKnown >= 0 {
			res.turns++
			remove(fullyKnown, partner[fullyKnown])
			continue
		}
		var st rules.State
		for i := 0; i < L; i++ {
			if !present[i] {
				continue
			}
			if partner[i] < 0 {
				st.S++
				if !known[i] {
					st.F++
				}
			} else if i < partner[i] {
				st.N++
				if !known[i] && !known[partner[i]] {
					st.J++
				}
			}
		}
		if players == 2 {
			st.Lead = int(res.pairs[mover] - res.pairs[1-mover])
		}
		choice := decide(mover, st)
		res.turns++
		a := firstUnseen(-1)
		known[a] = true
		switch {
		case partner[a] >= 0 && known[partner[a]]:
			remove(a, partner[a])
			continue
		case partner[a] < 0 && st.Known() >= 1:
			// An unseen singleton, then a remembered card: nothing new.
		case partner[a] >= 0 && choice == rules.Safe:
			// The safe move: a remembered card second (Decide made sure one exists).
		default:
			b := firstUnseen(a)
			known[b] = true
			if partner[a] == b {
				res.lucky++
				remove(a, b)
				continue
			}
		}
		mover = (mover + 1) % players
	}
	return res
}

var fixedPolicies = []rules.Policy{rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity}

// TestCardLevelGamePerfect plays every deal of small games at card level and compares the exact
// averages with Evaluate: two and three players (every seat's expected pairs) and solitaire
// (turns and lucky turns).
func TestCardLevelGamePerfect(t *testing.T) {
	type size struct{ n, s int }
	sizes := []size{{1, 0}, {2, 0}, {3, 0}, {4, 0}, {1, 1}, {2, 1}, {3, 1}, {1, 2}, {2, 2}, {3, 2}, {1, 3}, {2, 3}}
	switch {
	case exact.RaceEnabled:
		sizes = []size{{1, 0}, {2, 0}, {3, 0}, {1, 1}, {2, 1}, {1, 2}, {1, 3}}
	case !testing.Short():
		sizes = append(sizes, size{4, 1})
	}
	ctx := context.Background()
	compared := 0
	for _, sz := range sizes {
		deals := dealsOf(sz.n, sz.s)
		model := exact.Model{Pass: rules.PassNever, Memory: rules.Memory{}, Singletons: sz.s}
		start := rules.State{N: sz.n, J: sz.n, S: sz.s, F: sz.s}
		for _, players := range []int{1, 2, 3} {
			for _, pol := range fixedPolicies {
				for _, opp := range fixedPolicies {
					if players == 1 && opp != pol {
						continue
					}
					name := fmt.Sprintf("perfect/n=%d,s=%d/p=%d/%v-vs-%v", sz.n, sz.s, players, pol, opp)
					t.Run(name, func(t *testing.T) {
						sum := gameTally{pairs: make([]int64, players)}
						for _, d := range deals {
							r := playDeal(d, sz.n, players, pol, opp)
							for i, v := range r.pairs {
								sum.pairs[i] += v
							}
							sum.turns += r.turns
							sum.lucky += r.lucky
						}
						avg := func(x int64) *big.Rat { return big.NewRat(x, int64(len(deals))) }
						mu := exact.Lineup{Players: players, Policy: pol, Opponent: opp}
						res, err := exact.Evaluate[*big.Rat](ctx, field.Rat{}, model, mu, start)
						if err != nil {
							t.Fatalf("Evaluate(%+v, %+v, %v): %v", model, mu, start, err)
						}
						check := func(what string, got *big.Rat, want *big.Rat) {
							t.Helper()
							compared++
							if got == nil || got.Cmp(want) != 0 {
								gs := "<nil>"
								if got != nil {
									gs = got.RatString()
								}
								t.Errorf("state %v, %d players, %v vs %v: %s = %s from Evaluate, %s over %d card-level deals",
									start, players, pol, opp, what, gs, want.RatString(), len(deals))
							}
						}
						if players == 1 {
							check("ExpectedTurns", res.ExpectedTurns, avg(sum.turns))
							check("ExpectedLucky", res.ExpectedLucky, avg(sum.lucky))
							return
						}
						if len(res.PairsBySeat) != players {
							t.Fatalf("PairsBySeat has %d entries, want %d", len(res.PairsBySeat), players)
						}
						check("ExpectedPairs", res.ExpectedPairs, avg(sum.pairs[0]))
						for i := range players {
							check(fmt.Sprintf("PairsBySeat[%d]", i), res.PairsBySeat[i], avg(sum.pairs[i]))
						}
						if players == 2 {
							check("ExpectedLead", res.ExpectedLead, avg(sum.pairs[0]-sum.pairs[1]))
						}
					})
				}
			}
		}
	}
	if compared == 0 {
		t.Fatal("no value compared")
	}
	t.Logf("compared %d exact values with card-level play over every deal", compared)
}

// ---------------------------------------------------------------------------------------------
// Game level, limited memory: value iteration on the card-level turn.

// cardChain holds, for every count state with at most maxN pairs, the card-level turn
// distribution of each choice.
type cardChain map[rules.State]map[rules.Choice][]cardStep

type cardStep struct {
	p   float64
	key outKey
}

func buildCardChain(m cardMemory, maxN int) (cardChain, error) {
	ch := cardChain{}
	for n := 1; n <= maxN; n++ {
		for j := 0; j <= n; j++ {
			st := rules.State{N: n, J: j}
			if n-j > m.capacity {
				continue
			}
			ch[st] = map[rules.Choice][]cardStep{}
			for _, c := range []rules.Choice{rules.Daring, rules.Safe} {
				if !rules.Legal(st, c, rules.PassNever) {
					continue
				}
				d, err := cardDist(st, nil, m, c, pickOldest)
				if err != nil {
					return nil, err
				}
				for k, p := range d.pruned() {
					f, _ := p.Float64()
					ch[st][c] = append(ch[st][c], cardStep{f, k})
				}
			}
		}
	}
	return ch, nil
}

// valueIterate returns, for every state, every seat's expected pairs when seat 0 is about to move
// (seat 0 playing policy, the others opponent), by iterating to a fixed point (the chain can come
// back to a state through forgetting).
func (ch cardChain) valueIterate(players int, policy, opponent rules.Policy) (map[rules.State][]float64, error) {
	seats := make([]rules.Policy, players)
	for r := range seats {
		seats[r] = opponent
	}
	seats[0] = policy
	return ch.valueIterateSeats(seats)
}

// valueIterateSeats is valueIterate with seat r playing the fixed policy seats[r].
func (ch cardChain) valueIterateSeats(seats []rules.Policy) (map[rules.State][]float64, error) {
	players := len(seats)
	// v[mover][st][seat]: expected pairs of seat when seat mover is about to move in st.
	v := make([]map[rules.State][]float64, players)
	for r := range v {
		v[r] = map[rules.State][]float64{}
		for st := range ch {
			v[r][st] = make([]float64, players)
		}
	}
	get := func(r int, st rules.State) []float64 {
		if st.N == 0 {
			return make([]float64, players)
		}
		x, ok := v[r][st]
		if !ok {
			panic(fmt.Sprintf("state %v outside the chain", st))
		}
		return x
	}
	states := make([]rules.State, 0, len(ch))
	for st := range ch {
		states = append(states, st)
	}
	sort.Slice(states, func(a, b int) bool {
		if states[a].N != states[b].N {
			return states[a].N < states[b].N
		}
		return states[a].J < states[b].J
	})
	for iter := 0; iter < 1_000_000; iter++ {
		delta := 0.0
		for _, st := range states {
			for r := 0; r < players; r++ {
				pol := seats[r]
				steps := ch[st][pol.Decide(st)]
				if len(steps) == 0 {
					return nil, fmt.Errorf("state %v: no card-level steps for %v", st, pol.Decide(st))
				}
				nv := make([]float64, players)
				for _, s := range steps {
					nv[r] += s.p * float64(s.key.moverGain)
					nr := r
					if !s.key.cont {
						nr = (r + 1) % players
						nv[nr] += s.p * float64(s.key.nextGain)
					}
					for seat, x := range get(nr, s.key.next) {
						nv[seat] += s.p * x
					}
				}
				for seat := range nv {
					delta = math.Max(delta, math.Abs(nv[seat]-v[r][st][seat]))
				}
				v[r][st] = nv
			}
		}
		if delta < 1e-13 {
			return v[0], nil
		}
	}
	return nil, fmt.Errorf("value iteration did not converge")
}

// TestCardLevelGameLimitedMemory compares Evaluate (float64) under handover-uniform and lru
// forgetting with value iteration on the card-level turns, from every state with up to 5 pairs.
func TestCardLevelGameLimitedMemory(t *testing.T) {
	const maxN = 5
	ctx := context.Background()
	compared := 0
	for _, fg := range []rules.Forgetting{rules.ForgetHandoverUniform, rules.ForgetLRU} {
		for _, capacity := range []int{2, 3} {
			m := cardMemory{capacity: capacity, forget: fg}
			chain, err := buildCardChain(m, maxN)
			if err != nil {
				t.Fatalf("%v: %v", m, err)
			}
			model := exact.Model{Pass: rules.PassNever, Memory: memoryOf(m)}
			for _, players := range []int{2, 3} {
				for _, pol := range fixedPolicies {
					for _, opp := range fixedPolicies {
						if players == 3 && testing.Short() && pol != opp {
							continue
						}
						name := fmt.Sprintf("%v/p=%d/%v-vs-%v", m, players, pol, opp)
						t.Run(name, func(t *testing.T) {
							want, err := chain.valueIterate(players, pol, opp)
							if err != nil {
								t.Fatal(err)
							}
							mu := exact.Lineup{Players: players, Policy: pol, Opponent: opp}
							for st, w := range want {
								res, err := exact.Evaluate[float64](ctx, field.Float{}, model, mu, st)
								if err != nil {
									t.Fatalf("Evaluate(%+v, %+v, %v): %v", model, mu, st, err)
								}
								if len(res.PairsBySeat) != players {
									t.Fatalf("state %v: PairsBySeat has %d entries, want %d", st, len(res.PairsBySeat), players)
								}
								compared++
								bad := math.Abs(res.ExpectedPairs-w[0]) > 1e-9
								for seat := range players {
									bad = bad || math.Abs(res.PairsBySeat[seat]-w[seat]) > 1e-9
								}
								if players == 2 {
									bad = bad || math.Abs(res.ExpectedLead-(w[0]-w[1])) > 1e-9
								}
								if bad {
									t.Errorf("%v, state %v, %d players, %v vs %v: Evaluate pairs by seat %v (expected pairs %v, lead %v), card-level value iteration %v",
										m, st, players, pol, opp, res.PairsBySeat, res.ExpectedPairs, res.ExpectedLead, w)
								}
							}
						})
					}
				}
			}
		}
	}
	if compared == 0 {
		t.Fatal("no value compared")
	}
	t.Logf("compared %d values with card-level value iteration", compared)
}

// TestCardLevelGameWin plays every deal of small games at card level between policies that play
// to win (each seat following the choice table the solver writes out for it, read at the lead so
// far) and compares the share of deals won, drawn and lost by seat 0 with WinDrawLoss and
// Distribution. The choice set is {daring, safe}, the moves playDealWith knows. Seat 0 starts
// with a lead of -3 .. 3 pairs, as if earlier pairs had been taken: the win objective's choices
// depend on the lead only where it is large against the pairs left.
func TestCardLevelGameWin(t *testing.T) {
	type size struct{ n, s int }
	sizes := []size{{1, 0}, {2, 0}, {3, 0}, {1, 1}, {2, 1}, {3, 1}, {2, 2}}
	switch {
	case exact.RaceEnabled:
		sizes = sizes[:5]
	case !testing.Short():
		sizes = append(sizes, size{4, 0}, size{5, 0}, size{4, 1})
	}
	matchups := []exact.Lineup{
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyOptimal},
		{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyWinOptimal, Opponent: rules.PolicyParity},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyParity},
		{Players: 2, Policy: rules.PolicyWinBestResponse, Opponent: rules.PolicyWinOptimal},
		{Players: 2, Policy: rules.PolicyDaring, Opponent: rules.PolicyWinOptimal},
	}
	ctx := context.Background()
	daringSafe := rules.NewChoiceSet(rules.Daring, rules.Safe)
	compared := 0
	for si, sz := range sizes {
		deals := dealsOf(sz.n, sz.s)
		model := exact.Model{Pass: rules.PassNever, Singletons: sz.s, Choices: daringSafe}
		i := 0
		for lead0, mu := range leadsAndMatchups(matchups) {
			// Under -short each size plays every other lead and matchup, in turn by size.
			if i++; testing.Short() && (i+si)%2 != 0 {
				continue
			}
			start := rules.State{N: sz.n, J: sz.n, S: sz.s, F: sz.s, Lead: lead0}
			t.Run(fmt.Sprintf("n=%d,s=%d,lead=%d/%v-vs-%v", sz.n, sz.s, lead0, mu.Policy, mu.Opponent), func(t *testing.T) {
				// Each seat's table: a policy that answers another is solved against it.
				var tables [2]*rules.ChoiceTable
				for seat, pair := range [2][2]rules.Policy{{mu.Policy, mu.Opponent}, {mu.Opponent, mu.Policy}} {
					own := exact.Lineup{Players: 2, Policy: pair[0]}
					if len(pair[0].Opponents()) > 0 {
						own.Opponent = pair[1]
					}
					tab, err := exact.PolicyTable(ctx, field.Rat{}, model, own, sz.n)
					if err != nil {
						t.Fatalf("PolicyTable(%+v): %v", own, err)
					}
					tables[seat] = tab
				}
				var win, draw, loss int64
				for _, d := range deals {
					r := playDealWith(d, sz.n, 2, func(seat int, st rules.State) rules.Choice {
						st.Lead += [2]int{lead0, -lead0}[seat]
						c, ok := tables[seat].Lookup(st, false)
						if !ok || (c != rules.Daring && c != rules.Safe) {
							t.Fatalf("seat %d in %+v: choice %v (found %v)", seat, st, c, ok)
						}
						return c
					})
					switch lead := int(r.pairs[0]-r.pairs[1]) + lead0; {
					case lead > 0:
						win++
					case lead == 0:
						draw++
					default:
						loss++
					}
				}
				want := [3]*big.Rat{big.NewRat(win, int64(len(deals))), big.NewRat(draw, int64(len(deals))), big.NewRat(loss, int64(len(deals)))}
				wdl, err := exact.WinDrawLoss[*big.Rat](ctx, field.Rat{}, model, mu, start)
				if err != nil {
					t.Fatal(err)
				}
				dist, err := exact.Distribution[*big.Rat](ctx, field.Rat{}, model, mu, start)
				if err != nil {
					t.Fatal(err)
				}
				for _, got := range []struct {
					how string
					v   [3]*big.Rat
				}{{"WinDrawLoss", [3]*big.Rat{wdl[0].Win, wdl[0].Draw, wdl[0].Loss}}, {"Distribution", [3]*big.Rat{dist.Win, dist.Draw, dist.Loss}}} {
					for k, name := range []string{"win", "draw", "loss"} {
						compared++
						if got.v[k].Cmp(want[k]) != 0 {
							t.Errorf("%s: %s %s, card level over %d deals %s", got.how, name, got.v[k].RatString(), len(deals), want[k].RatString())
						}
					}
				}
			})
		}
	}
	t.Logf("compared %d exact probabilities with card-level play over every deal", compared)
}

// leadsAndMatchups yields every starting lead -3 .. 3 of seat 0 with every matchup.
func leadsAndMatchups(mus []exact.Lineup) func(yield func(int, exact.Lineup) bool) {
	return func(yield func(int, exact.Lineup) bool) {
		for lead := -3; lead <= 3; lead++ {
			for _, mu := range mus {
				if !yield(lead, mu) {
					return
				}
			}
		}
	}
}
