package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// FluctChoiceValuesAfterPass is FluctChoiceValues just after a pass by the other seat, under the
// pass rules two-known and always (docs/models.md §4.4): st is the state after the draw of
// capacity c, seat 0 to move with the other seat's pass just made, so that a pass now ends the
// game in a stalemate (lead 0) and every other choice is valued as FluctChoiceValues values it.
// PolicyChoice is the lineup's choice there (optimal, best-response and the policies that play to
// win have one of their own just after a pass). Under pass rule never it is an error, and so it is
// with three or more players, whose turn after a pass depends on how many seats passed in a row
// (FluctSeatsChoiceValues takes that streak).
func FluctChoiceValuesAfterPass[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c int) (Choices[T], error) {
	if mu.Players != 2 {
		return Choices[T]{}, fmt.Errorf("players %d: just after a pass is for two players (FluctSeatsChoiceValues takes the pass streak of 3 or more)", mu.Players)
	}
	if IsFluctSingles(m) {
		return fluctSinglesChoiceValuesAfterPass(ctx, f, m, mu, st, c) // fluctsingles_pass.go
	}
	if mu.Players == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin()) {
		out, _, err := FluctWinChoiceValuesAfterPass(ctx, f, m, mu, st, c) // fluctwinpass.go
		return out, err
	}
	if m.fluctLimited() {
		return fluctLimitChoiceValues(ctx, f, m, mu, st, c, 1) // fluctlimitchoices.go
	}
	s, err := newFluctSweep(f, m, mu)
	if err != nil {
		return Choices[T]{}, err
	}
	if !s.passes() {
		return Choices[T]{}, fmt.Errorf("pass rule %s: no pass is ever made, so there is no state just after one", m.Pass)
	}
	return fluctPassChoiceValues(ctx, s, st, c, 1)
}

// fluctPassChoiceValues is FluctChoiceValues under a pass rule, with the pass flag flag (1: just
// after a pass by the other seat): it solves the rows up to st's, then reads every legal choice's
// equation at (st, c) (passChoiceEqs) in the row's values before the draw, the other role's
// without the flag for a turn and with it for a pass.
func fluctPassChoiceValues[T any](ctx context.Context, s *fluctSweep[T], st rules.State, c, flag int) (Choices[T], error) {
	var out Choices[T]
	f := s.f
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
	// The other role's values before the draw in the row: without the flag at k', with it at
	// K + k'.
	plainOther, afterOther := s.roleValues(s.cur, 1), s.roleAfter(s.cur, 1)
	K := len(plainOther)
	vals := append(append([]T(nil), plainOther...), afterOther...)
	plain := func(k2, _ int) int { return k2 }
	afterPass := func(k2 int) int { return K + k2 }
	eqs := s.passChoiceEqs(st.N, fluctNode{k: k, c: cn}, flag, s.roleValues(prev, 0), s.roleValues(prev, 1), s.roleValues(prev2, 1), 1, plain, afterPass)
	if out.PolicyChoice, err = s.choiceAt(0, st.N, k, cn, flag); err != nil {
		return out, err
	}
	n := f.FromInt(int64(st.N))
	out.State = st
	for _, ch := range rules.Choices() {
		e := eqs[ch]
		if e == nil {
			continue
		}
		appendEqValue(f, &out, n, ch, e, vals)
	}
	markBestUnlimited(f, &out, 2)
	return out, nil
}

// roleAfter returns role r's leads before the draw just after a pass by the other seat in a row
// solved under a pass rule: the optimum's in self-play.
func (s *fluctSweep[T]) roleAfter(row fluctRow[T], r int) []T {
	if !s.needPair {
		return row.afterOpt
	}
	return row.afterW[r]
}
