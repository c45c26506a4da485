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

// dlSeats is the card-level search of three or more seats under decay forgetting, a pass rule and
// a turn limit (docs/models.md §4.7, §4.14, §4.18): positions are card-level tables (cardWorld)
// with the turns left, the pass streak k (the seats that passed in a row just before) and the
// seat to move; values are every seat's expected pairs taken within the limit. A pass at streak
// p-1 is the stalemate (the pairs on the table shared equally), otherwise it hands the next seat
// the table its forgetting leaves at streak k+1 with a turn fewer.
type dlSeats struct {
	m    cardMemory
	rule rules.PassRule
	pols []rules.Policy // per seat: optimal (every seat for itself's choice) or a fixed policy
	self *dlSeats       // the search in which every seat plays optimal, whose choices optimal makes
	memo map[string][]*big.Rat
	ch   map[string]rules.Choice
}

func newDLSeats(m cardMemory, rule rules.PassRule, pols []rules.Policy) *dlSeats {
	s := &dlSeats{m: m, rule: rule, pols: pols, memo: map[string][]*big.Rat{}, ch: map[string]rules.Choice{}}
	all := true
	for _, p := range pols {
		all = all && p == rules.PolicyOptimal
	}
	if all {
		s.self = s
	} else {
		opt := make([]rules.Policy, len(pols))
		for i := range opt {
			opt[i] = rules.PolicyOptimal
		}
		s.self = newDLSeats(m, rule, opt)
	}
	return s
}

func (s *dlSeats) zeros() []*big.Rat {
	v := make([]*big.Rat, len(s.pols))
	for i := range v {
		v[i] = new(big.Rat)
	}
	return v
}

// choiceVec is every seat's expected pairs after seat mv's choice ch on w with t turns left at
// streak k.
func (s *dlSeats) choiceVec(w *cardWorld, t, k, mv int, ch rules.Choice) []*big.Rat {
	p := len(s.pols)
	out := s.zeros()
	nx := (mv + 1) % p
	addScaled := func(pr *big.Rat, v []*big.Rat) {
		for i := range out {
			out[i].Add(out[i], new(big.Rat).Mul(pr, v[i]))
		}
	}
	if ch == rules.Pass {
		switch {
		case k == p-1:
			for i := range out {
				out[i].SetFrac64(int64(pairsOn(w)), int64(p))
			}
		case t > 1:
			w0 := w.clone()
			w0.old = make([]bool, len(w0.present))
			for _, x := range w0.mem {
				w0.old[x] = true
			}
			decayHandOver(w0, s.m, big.NewRat(1, 1), 0, func(pr *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
				addScaled(pr, s.val(w2, t-1, k+1, nx))
			})
		}
		return out
	}
	cardTurn(w, s.m, ch, pickOldest, func(pr *big.Rat, w2 *cardWorld, cont bool, mg, ng int) {
		var v []*big.Rat
		if cont {
			v = s.val(w2, t-1, 0, mv)
			v[mv] = new(big.Rat).Add(v[mv], big.NewRat(int64(mg), 1))
		} else {
			g := min(ng, t-1)
			v = s.val(w2, t-1-g, 0, nx)
			v[nx] = new(big.Rat).Add(v[nx], big.NewRat(int64(g), 1))
		}
		addScaled(pr, v)
	})
	return out
}

// val is every seat's expected pairs (a copy) with seat mv to move on w, t turns left, streak k.
func (s *dlSeats) val(w *cardWorld, t, k, mv int) []*big.Rat {
	if t == 0 || pairsOn(w) == 0 {
		return s.zeros()
	}
	key := fmt.Sprint(worldKey(w), t, k, mv)
	if v, ok := s.memo[key]; ok {
		return append([]*big.Rat(nil), v...)
	}
	var best []*big.Rat
	var ch rules.Choice
	switch {
	case s.self == s:
		st, _ := w.countState()
		for _, c := range rules.Choices() {
			if !rules.Legal(st, c, s.rule) {
				continue
			}
			v := s.choiceVec(w, t, k, mv, c)
			if best == nil || v[mv].Cmp(best[mv]) > 0 {
				best, ch = v, c
			}
		}
	case s.pols[mv] == rules.PolicyOptimal:
		ch = s.self.choice(w, t, k, mv)
		best = s.choiceVec(w, t, k, mv, ch)
	default:
		st, _ := w.countState()
		ch = s.pols[mv].Decide(st)
		best = s.choiceVec(w, t, k, mv, ch)
	}
	s.memo[key], s.ch[key] = best, ch
	return append([]*big.Rat(nil), best...)
}

// choice is the choice seat mv makes on w with t turns left at streak k.
func (s *dlSeats) choice(w *cardWorld, t, k, mv int) rules.Choice {
	s.val(w, t, k, mv)
	return s.ch[fmt.Sprint(worldKey(w), t, k, mv)]
}

// TestDecayLimitSeatsAreCardLevel compares three seats under decay forgetting and a turn limit with
// the card-level search: every seat for itself and optimal beside safe and daring, every pass
// rule, q = 1/10 and 1/2, with and without a capacity of 2, limits 1 to 5, every state of up to 3
// pairs (fewer cases under -short): every seat's expected pairs, and after each legal choice of
// seat 0, exactly.
func TestDecayLimitSeatsAreCardLevel(t *testing.T) {
	ctx := context.Background()
	maxN, maxT := 3, 5
	if testing.Short() {
		maxN, maxT = 2, 3
	}
	lineups := [][]rules.Policy{
		{rules.PolicyOptimal, rules.PolicyOptimal, rules.PolicyOptimal},
		{rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring},
		{rules.PolicyDaring, rules.PolicyOptimal, rules.PolicySafe},
	}
	compared := 0
	for i, dc := range decayLimitMemories() {
		for _, rule := range []rules.PassRule{rules.PassNever, rules.PassTwoKnown, rules.PassAlways} {
			// -short: q = 1/2 without a capacity under always, where a pass at (2, 1) forgets.
			if testing.Short() && (rule != rules.PassAlways || i != 0) {
				continue
			}
			for _, pols := range lineups {
				s := newDLSeats(dc.card, rule, pols)
				mu := exact.Lineup{Players: 3, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
				if pols[1] != rules.PolicyOptimal || pols[0] != rules.PolicyOptimal {
					mu.PerSeat = true
					copy(mu.Seats[:], pols)
				}
				for limit := 1; limit <= maxT; limit++ {
					m := exact.Model{Pass: rule, Memory: dc.mem, Variant: rules.Variant{TurnLimit: limit}}
					for n := 1; n <= maxN; n++ {
						for j := 0; j <= n; j++ {
							st := rules.State{N: n, J: j}
							if !dc.mem.Holds(st.Known()) {
								continue
							}
							got, err := exact.Evaluate(ctx, field.Rat{}, m, mu, st)
							if err != nil {
								t.Fatalf("%v, %v, %v: %v", dc.mem, rule, pols, err)
							}
							want := s.val(newCardWorld(st, nil), limit, 0, 0)
							for seat := range want {
								if got.PairsBySeat[seat].Cmp(want[seat]) != 0 {
									t.Errorf("%v, pass %v, %v, %v, %d turns, seat %d: %s pairs, card level %s", dc.mem, rule, pols, st, limit, seat,
										got.PairsBySeat[seat].RatString(), want[seat].RatString())
								}
							}
							compared++
							cv, err := exact.ChoiceValues(ctx, field.Rat{}, m, mu, st)
							if err != nil {
								t.Fatalf("%v, %v, %v, %v: %v", dc.mem, rule, pols, st, err)
							}
							w := newCardWorld(st, nil)
							for _, ch := range rules.Choices() {
								v, ok := cv.Of(ch)
								if ok != rules.Legal(st, ch, rule) {
									t.Errorf("%v, pass %v, %v, %v: choice %v valued %v", dc.mem, rule, pols, st, ch, ok)
								}
								if !ok {
									continue
								}
								cw := s.choiceVec(w, limit, 0, 0, ch)
								for seat := range cw {
									if v.PairsBySeat[seat].Cmp(cw[seat]) != 0 {
										t.Errorf("%v, pass %v, %v, %v, %d turns, choice %v, seat %d: %s pairs, card level %s", dc.mem, rule, pols, st, limit, ch, seat,
											v.PairsBySeat[seat].RatString(), cw[seat].RatString())
									}
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("compared %d states' seat values", compared)
}
