package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// FluctChoiceValues returns the value of every legal choice of the mover (seat 0) under the
// fluctuating capacity of model m (docs/models.md §4.4) in state st with capacity c drawn for
// the turn: the choice made now, then lineup mu (two players: optimal, safe, daring, parity, or
// best-response to one of them) afterwards, in expected pairs and lead. st is the state the
// mover sees after the draw: under lru it holds at most c known cards. c is one the model draws,
// max(2, m - σ) to m + σ. Value is the lineup's own value in st with c drawn (its policy's
// choice's), and PolicyChoice that choice. Under the pass rules two-known and always the turn
// follows no pass (FluctChoiceValuesAfterPass: just after one). With three to eight players it is
// FluctSeatsChoiceValues at pass streak 0. With one player (solitaire, pass rule never) a value
// is the expected turns and lucky matches, and the best choice the one of fewest turns. Under a
// turn limit (two seats) the turns left are the limit, this turn included; a value is a lead and
// the pairs each seat takes within the limit, and the best choice the one of largest lead.
func FluctChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c int) (Choices[T], error) {
	var out Choices[T]
	if IsFluctSingles(m) {
		return fluctSinglesChoiceValues(ctx, f, m, mu, st, c) // fluctsingles.go
	}
	if mu.Players == 1 && !m.fluctLimited() {
		return fluctSoloChoiceValues(ctx, f, m, mu, st, c) // fluctsolo.go
	}
	if mu.Players >= 3 {
		return FluctSeatsChoiceValues(ctx, f, m, mu, st, c, 0)
	}
	if mu.Players == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin()) {
		out, _, err := FluctWinChoiceValues(ctx, f, m, mu, st, c)
		return out, err
	}
	if m.fluctLimited() {
		return fluctLimitChoiceValues(ctx, f, m, mu, st, c, 0) // fluctlimitchoices.go
	}
	s, err := newFluctSweep(f, m, mu)
	if err != nil {
		return out, err
	}
	if s.passes() {
		return fluctPassChoiceValues(ctx, s, st, c, 0)
	}
	k, err := s.checkDrawn(st, c)
	if err != nil {
		return out, err
	}
	if err := s.run(ctx, st.N-1, nil); err != nil {
		return out, err
	}
	prev, prev2 := s.prev, s.prev2
	if err := s.row(st.N); err != nil {
		return out, err
	}
	cn := min(c, fluctTop(s.m, st.N))
	own, other := s.roleValues(prev, 0), s.roleValues(prev, 1)
	after := s.roleValues(s.cur, 1)
	index := func(k2, _ int) int { return k2 }
	n := f.FromInt(int64(st.N))
	out.State = st
	if out.PolicyChoice, err = s.choice(0, st.N, k, cn); err != nil {
		return out, err
	}
	for _, ch := range rules.Choices() {
		if !s.m.Legal(st, ch) {
			continue
		}
		appendEqValue(f, &out, n, ch, s.choiceEq(st.N, k, cn, ch, own, other, s.roleValues(prev2, 1), 1, index), after)
	}
	markBestUnlimited(f, &out, 2)
	return out, nil
}

// appendEqValue appends to out, the two-seat choices of a state of n pairs, the value of choice
// ch whose equation e reads the leads vals, and makes it out's value when ch is the policy's
// choice.
func appendEqValue[T any](f field.Field[T], out *Choices[T], n T, ch rules.Choice, e *decayEq[T], vals []T) {
	lead := e.a[0]
	for i, to := range e.to {
		lead = f.Add(lead, f.Mul(e.coef[i], vals[to]))
	}
	v := ChoiceValue[T]{Choice: ch, Lead: lead, Pairs: pairsFromLead(f, n, lead)}
	v.PairsBySeat = []T{v.Pairs, f.Sub(n, v.Pairs)}
	out.Values = append(out.Values, v)
	if ch == out.PolicyChoice {
		out.Value = Result[T]{State: out.State, Players: 2, ExpectedLead: v.Lead, ExpectedPairs: v.Pairs, PairsBySeat: v.PairsBySeat}
	}
}

// checkDrawn checks a state after the draw of capacity c and returns its known cards.
func (s *fluctSweep[T]) checkDrawn(st rules.State, c int) (int, error) {
	return fluctDrawnKnown(s.m.Memory, s.maxK, st, c)
}

// fluctDrawnKnown checks st, a state seen after the draw of capacity c under the fluctuating
// memory mem of largest capacity maxK, and returns its known cards.
func fluctDrawnKnown(mem rules.Memory, maxK int, st rules.State, c int) (int, error) {
	if st.S != 0 || st.F != 0 {
		return 0, fmt.Errorf("state has %d singletons, the model 0", st.S)
	}
	if err := st.Validate(rules.Memory{}); err != nil {
		return 0, err
	}
	if st.N < 1 {
		return 0, fmt.Errorf("%v: no pair left, no choice to make", st)
	}
	lo, hi := max(2, mem.Capacity-mem.Fluctuation), fluctMaxKnown(mem)
	if c < lo || c > hi {
		return 0, fmt.Errorf("capacity %d: %s draws %d to %d", c, mem, lo, hi)
	}
	k := st.N - st.J
	if mem.Forget == rules.ForgetLRU && k > c {
		return 0, fmt.Errorf("%d known cards exceed the capacity %d drawn (lru forgets beyond it at the draw)", k, c)
	}
	if k > maxK {
		return 0, fmt.Errorf("%d known cards (n - j) exceed the largest capacity %d", k, maxK)
	}
	return k, nil
}

// roleValues returns role r's leads before the draw in a row: the optimum's in self-play.
func (s *fluctSweep[T]) roleValues(row fluctRow[T], r int) []T {
	if !s.needPair {
		return row.opt
	}
	return row.w[r]
}
