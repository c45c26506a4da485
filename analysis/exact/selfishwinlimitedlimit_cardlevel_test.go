package exact_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"memsim/analysis/exact"
	"memsim/analysis/field"
	"memsim/sim/rules"
)

// lwSearch is the card-level search of the win objective at three or more seats under a shared
// lru, handover-uniform or decay memory, a pass rule and a turn limit (docs/models.md §4.7, §4.18): a
// position is a card-level table (cardWorld: the cards on it and the shared memory in recency
// order, each turn played and forgotten card by card by lwTurn), every seat's pairs so far, the
// turns left, the pass streak k (the seats that passed in a row just before) and the seat to
// move. Every turn uses a turn; a pair a turn leaves known whole is taken by the next seat first,
// a turn each, while one is left; with no turn left, or no pair, the pairs so far decide, a tie
// for the most shared. A pass at streak p-1 is the stalemate (each seat adds the pairs left over
// p, so the pairs so far decide), otherwise it hands the table to the next seat at k+1 with a turn
// fewer (under decay the table its hand-over's forgetting leaves). A seat that plays to win takes the first choice of largest own score in the order
// daring, safe, known-first, pass, against the others' play; a fixed policy decides by the count
// state read off the table, optimal by the solver's table of the pair objective (a model tested
// on its own). No count formula is used.
type lwSearch struct {
	m cardMemory
	// blind plays every turn under blind flips (blindCardTurn).
	blind bool
	rule  rules.PassRule
	pols  []rules.Policy
	opt   *rules.ChoiceTable // optimal's table under the limit, when a seat plays optimal
	memo  map[string]lwVals
}

// lwVals are a position's values by seat of the lineup: P(most pairs) with a tie shared, P(alone
// with the most), P(tied for the most) and the pairs still to take.
type lwVals struct{ score, win, draw, pairs []*big.Rat }

func (s *lwSearch) zero() lwVals {
	p := len(s.pols)
	v := lwVals{make([]*big.Rat, p), make([]*big.Rat, p), make([]*big.Rat, p), make([]*big.Rat, p)}
	for i := range p {
		v.score[i], v.win[i], v.draw[i], v.pairs[i] = new(big.Rat), new(big.Rat), new(big.Rat), new(big.Rat)
	}
	return v
}

// end returns the values of a game over with the pairs so far pairs, every seat taking share more.
func (s *lwSearch) end(pairs []int, share *big.Rat) lwVals {
	v := s.zero()
	most, top := -1, 0
	for _, x := range pairs {
		most = max(most, x)
	}
	for _, x := range pairs {
		top += btoi(x == most)
	}
	for i, x := range pairs {
		v.pairs[i].Set(share)
		if x == most {
			v.score[i].SetFrac64(1, int64(top))
			v.win[i].SetInt64(int64(btoi(top == 1)))
			v.draw[i].SetInt64(int64(btoi(top > 1)))
		}
	}
	return v
}

// add adds pr times v to acc, and gain pairs to seat who's pairs.
func (acc lwVals) add(pr *big.Rat, v lwVals, who, gain int) {
	for i := range acc.score {
		acc.score[i].Add(acc.score[i], new(big.Rat).Mul(pr, v.score[i]))
		acc.win[i].Add(acc.win[i], new(big.Rat).Mul(pr, v.win[i]))
		acc.draw[i].Add(acc.draw[i], new(big.Rat).Mul(pr, v.draw[i]))
		x := new(big.Rat).Set(v.pairs[i])
		if i == who {
			x.Add(x, big.NewRat(int64(gain), 1))
		}
		acc.pairs[i].Add(acc.pairs[i], new(big.Rat).Mul(pr, x))
	}
}

// choice returns the values of seat mv's choice ch on w with the pairs so far pairs, t >= 1
// turns left at streak k.
func (s *lwSearch) choice(w *cardWorld, pairs []int, t, k, mv int, ch rules.Choice) lwVals {
	p := len(s.pols)
	nx := (mv + 1) % p
	if ch == rules.Pass {
		switch {
		case k == p-1:
			return s.end(pairs, big.NewRat(int64(pairsOn(w)), int64(p)))
		case t == 1:
			return s.end(pairs, new(big.Rat))
		}
	}
	out := s.zero()
	turn := lwTurn
	if s.blind {
		turn = func(w *cardWorld, m cardMemory, ch rules.Choice, emit emitFunc) {
			blindCardTurn(w, m, ch, pickOldest, emit)
		}
	}
	turn(w, s.m, ch, func(pr *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
		next := append([]int(nil), pairs...)
		if cont {
			next[mv] += mg
			out.add(pr, s.val(w2, next, t-1, 0, mv), mv, mg)
			return
		}
		g := min(ng, t-1)
		next[nx] += g
		k2 := 0
		if ch == rules.Pass {
			k2 = k + 1
		}
		out.add(pr, s.val(w2, next, t-1-g, k2, nx), nx, g)
	})
	return out
}

// lwTurn plays choice ch on w card by card (cardTurn); under decay forgetting a pass hands over
// too, each remembered card forgotten with probability q (decayHandOver), where lru and
// handover-uniform forget nothing at a pass.
func lwTurn(w *cardWorld, m cardMemory, ch rules.Choice, emit emitFunc) {
	if ch != rules.Pass || m.forget != rules.ForgetDecay {
		cardTurn(w, m, ch, pickOldest, emit)
		return
	}
	w0 := w.clone()
	w0.old = make([]bool, len(w0.present))
	for _, x := range w0.mem {
		w0.old[x] = true
	}
	decayHandOver(w0, m, big.NewRat(1, 1), 0, emit)
}

// val returns the values with seat mv to move on w, the pairs so far pairs, t turns left, streak k.
func (s *lwSearch) val(w *cardWorld, pairs []int, t, k, mv int) lwVals {
	if t == 0 || pairsOn(w) == 0 {
		return s.end(pairs, new(big.Rat))
	}
	key := fmt.Sprint(worldKey(w), pairs, t, k, mv)
	if v, ok := s.memo[key]; ok {
		return v
	}
	st, err := w.countState()
	if err != nil {
		panic(err)
	}
	var best lwVals
	switch pol := s.pols[mv]; {
	case pol.PlaysToWin():
		have := false
		for _, c := range rules.Choices() {
			if !rules.Legal(st, c, s.rule) {
				continue
			}
			v := s.choice(w, pairs, t, k, mv, c)
			if !have || v.score[mv].Cmp(best.score[mv]) > 0 {
				best, have = v, true
			}
		}
	case pol == rules.PolicyOptimal:
		c, ok := s.opt.LookupTurnsLeftPasses(st, k, t)
		if !ok {
			panic(fmt.Sprintf("optimal's table has no choice in %v, streak %d, %d turns left", st, k, t))
		}
		best = s.choice(w, pairs, t, k, mv, c)
	default:
		best = s.choice(w, pairs, t, k, mv, pol.Decide(st))
	}
	s.memo[key] = best
	return best
}

// lwCompare reports every entry of got (in order from seat 0, the mover) that differs from want.
func lwCompare(t *testing.T, name string, got *exact.SelfWinValues[*big.Rat], want lwVals) {
	t.Helper()
	for _, c := range []struct {
		what      string
		got, want []*big.Rat
	}{{"P(most pairs)", got.Score, want.score}, {"alone", got.Win, want.win}, {"tied", got.Draw, want.draw}, {"pairs", got.Pairs, want.pairs}} {
		for s := range c.want {
			if c.got[s].Cmp(c.want[s]) != 0 {
				t.Errorf("%s: seat %d's %s %s, card level %s", name, s, c.what, c.got[s].RatString(), c.want[s].RatString())
			}
		}
	}
}

// lwCase is a configuration the card-level search is compared in: a memory, a pass rule, a
// lineup and the limits.
type lwCase struct {
	m      cardMemory
	rule   rules.PassRule
	pols   []rules.Policy
	limits []int
}

// newLwSearch returns the card-level search of the lineup pols under the card memory card (the
// model's memory mem) and the pass rule, with optimal's table under the largest limit top when
// seat 1 plays optimal.
func newLwSearch(ctx context.Context, t *testing.T, card cardMemory, mem rules.Memory, rule rules.PassRule, pols []rules.Policy, top int) *lwSearch {
	t.Helper()
	s := &lwSearch{m: card, rule: rule, pols: pols, memo: map[string]lwVals{}}
	if pols[1] == rules.PolicyOptimal {
		m := exact.Model{Pass: rule, Memory: mem, Variant: rules.Variant{TurnLimit: top}}
		var err error
		s.opt, err = exact.PolicyTable(ctx, field.Rat{}, m, exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}, 3)
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// compareStart compares the model m's values of the lineup mu from st at the standings, and those
// of every legal choice (valued exactly where legal), with the search's, the turns left being m's
// limit.
func (s *lwSearch) compareStart(ctx context.Context, t *testing.T, name string, m exact.Model, mu exact.Lineup, st rules.State, standings []int) {
	t.Helper()
	limit := m.Variant.TurnLimit
	got, err := exact.EvaluateStandings(ctx, field.Rat{}, m, mu, st, standings)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	w := newCardWorld(st, nil)
	lwCompare(t, name, &got.SelfWinValues, s.val(w, standings, limit, 0, 0))
	for _, ch := range rules.Choices() {
		legal := m.Legal(st, ch)
		if (got.Choices[ch] != nil) != legal {
			t.Errorf("%s: %s valued %v, legal %v", name, ch, got.Choices[ch] != nil, legal)
		}
		if legal && got.Choices[ch] != nil {
			lwCompare(t, fmt.Sprintf("%s: %s", name, ch), got.Choices[ch], s.choice(w, standings, limit, 0, 0, ch))
		}
	}
}

// lwCases lists the configurations of TestSelfWinLimitedLimitIsCardLevel: under -short three
// memories, each with another pass rule and lineup; otherwise every memory, pass rule and lineup,
// every seat win-optimal at limits 1 to 6 and the others at one limit each (3 to 6).
func lwCases(short bool) []lwCase {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := [][]rules.Policy{
		{W, W, W},
		{W, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyDaring, W, rules.PolicySafe},
		{W, rules.PolicyOptimal, W},
		{B, W, W},
	}
	lru, hu := rules.ForgetLRU, rules.ForgetHandoverUniform
	if short {
		return []lwCase{
			{cardMemory{capacity: 2, forget: lru}, rules.PassAlways, lineups[0], []int{5}},
			{cardMemory{capacity: 3, forget: hu}, rules.PassTwoKnown, lineups[1], []int{4}},
			{cardMemory{capacity: 3, forget: lru}, rules.PassNever, lineups[4], []int{6}},
		}
	}
	var out []lwCase
	for _, fg := range []rules.Forgetting{lru, hu} {
		for _, capacity := range []int{2, 3} {
			for _, rule := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
				for i, pols := range lineups {
					limits := []int{1, 2, 3, 4, 5, 6}
					if i > 0 {
						limits = []int{2 + i}
					}
					out = append(out, lwCase{cardMemory{capacity: capacity, forget: fg}, rule, pols, limits})
				}
			}
		}
	}
	return out
}

// TestSelfWinLimitedLimitIsCardLevel compares the win objective at three seats under lru and
// handover-uniform of capacity 2 and 3 and a turn limit of 1 to 6 with the card-level search
// (lwSearch), from the deal of three pairs and states of it part known, no pairs so far and
// uneven standings: every seat win-optimal, win-optimal beside fixed policies, beside optimal,
// and a seat of win-best-response beside win-optimal, under every pass rule (fewer cases under
// -short): every seat's P(most pairs), alone, tied and expected pairs, and those after each legal
// choice of the mover, exactly.
func TestSelfWinLimitedLimitIsCardLevel(t *testing.T) {
	ctx := context.Background()
	compared := 0
	for _, c := range lwCases(testing.Short()) {
		mu := exact.SeatLineup(c.pols...)
		top := c.limits[len(c.limits)-1]
		// One search serves every limit: a position's values depend on the turns left only.
		s := newLwSearch(ctx, t, c.m, memoryOf(c.m), c.rule, c.pols, top)
		for _, limit := range c.limits {
			m := exact.Model{Pass: c.rule, Memory: memoryOf(c.m), Variant: rules.Variant{TurnLimit: limit}}
			for j := 3; j >= max(0, 3-c.m.capacity); j-- {
				st := rules.State{N: 3, J: j}
				standings := []int{0, 0, 0}
				if (j+limit)%2 == 1 {
					standings = []int{1, 0, 2}
				}
				if testing.Short() && j < 2 {
					continue
				}
				name := fmt.Sprintf("%v, pass %s, %v, limit %d, %v, standings %v", c.m, c.rule, c.pols, limit, st, standings)
				s.compareStart(ctx, t, name, m, mu, st, standings)
				compared++
			}
		}
	}
	t.Logf("compared %d starts' values", compared)
}

// dlwCase is a configuration TestSelfWinDecayLimitIsCardLevel compares: a decay memory, a pass
// rule, a lineup, the limits and the starts.
type dlwCase struct {
	mem    decayCase
	rule   rules.PassRule
	pols   []rules.Policy
	limits []int
	starts []rules.State
}

// dlwCases lists the configurations of TestSelfWinDecayLimitIsCardLevel. Otherwise than under
// -short: every decay memory (q = 1/2 and 1/10, no capacity and a capacity of 2) and pass rule,
// every seat win-optimal at limits 1 to 5 from every state of 2 pairs and, under one memory a
// pass rule (q = 1/2 with a capacity, then q = 1/10 without and with one), at limit 5 from 3 pairs
// unknown, the other lineups at one limit each (2 to 5) from every state of 2 pairs. Under -short
// a memory, a limit and a lineup per pass rule, from the states of 2 pairs with a card known at
// most.
func dlwCases(short bool) []dlwCase {
	W, B := rules.PolicyWinOptimal, rules.PolicyWinBestResponse
	lineups := [][]rules.Policy{
		{W, W, W},
		{W, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyDaring, W, rules.PolicySafe},
		{W, rules.PolicyOptimal, W},
		{B, W, W},
	}
	two := []rules.State{{N: 2, J: 2}, {N: 2, J: 1}, {N: 2, J: 0}}
	passRules := []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways}
	mems := decayLimitMemories()
	var out []dlwCase
	if short {
		// q = 1/2 with no capacity, every seat win-optimal, under never; q = 1/2 and a capacity
		// of 2 beside safe and daring under two-known; q = 1/10 with a reply under always.
		for i, rule := range passRules {
			out = append(out, dlwCase{mems[i], rule, lineups[2*i], []int{3 + i}, two[:2]})
		}
		return out
	}
	for m, mem := range mems {
		for r, rule := range passRules {
			for i, pols := range lineups {
				c := dlwCase{mem, rule, pols, []int{1 + i}, two}
				if i == 0 {
					c.limits = []int{1, 2, 3, 4, 5}
					out = append(out, c)
					if m == (r+1)%len(mems) {
						out = append(out, dlwCase{mem, rule, pols, []int{5}, []rules.State{{N: 3, J: 3}}})
					}
					continue
				}
				out = append(out, c)
			}
		}
	}
	return out
}

// TestSelfWinDecayLimitIsCardLevel compares the win objective at three seats under decay
// forgetting (q = 1/2 and 1/10, without a capacity and with a capacity of 2) and a turn limit of 1
// to 5 with the card-level search (lwSearch, every remembered card forgotten with probability q at
// each hand-over, a pass's included), from states of 2 and 3 pairs with no pairs so far and with
// uneven standings: every seat win-optimal, win-optimal beside fixed policies and beside optimal,
// and a seat of win-best-response beside win-optimal, under every pass rule (dlwCases; fewer under
// -short): every seat's P(most pairs), alone, tied and expected pairs, and those after each legal
// choice of the mover, exactly.
func TestSelfWinDecayLimitIsCardLevel(t *testing.T) {
	ctx := context.Background()
	compared := 0
	for _, c := range dlwCases(testing.Short()) {
		mu := exact.SeatLineup(c.pols...)
		s := newLwSearch(ctx, t, c.mem.card, c.mem.mem, c.rule, c.pols, c.limits[len(c.limits)-1])
		for _, limit := range c.limits {
			m := exact.Model{Pass: c.rule, Memory: c.mem.mem, Variant: rules.Variant{TurnLimit: limit}}
			for _, st := range c.starts {
				if !c.mem.mem.Holds(st.Known()) {
					continue
				}
				standings := []int{0, 0, 0}
				if (st.J+limit)%2 == 1 {
					standings = []int{1, 0, 2}
				}
				name := fmt.Sprintf("%v, pass %s, %v, limit %d, %v, standings %v", c.mem.card, c.rule, c.pols, limit, st, standings)
				s.compareStart(ctx, t, name, m, mu, st, standings)
				compared++
			}
		}
	}
	t.Logf("compared %d starts' values", compared)
}
