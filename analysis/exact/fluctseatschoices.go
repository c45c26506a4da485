package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// FluctSeatsChoiceValues returns the value of every legal choice of the mover (seat 0) at three
// to eight seats under the fluctuating capacity of model m (docs/models.md §4.4, §4.7) in state
// st with capacity c drawn for the turn, after passes seats passed in a row just before it (0
// under pass rule never; 0 to players-1 under two-known and always): the choice made now, then
// lineup mu afterwards (every seat for itself, or optimal, safe, daring and parity per seat), as every
// seat's expected pairs, seat 0's first. st is the state the mover sees after the draw: under
// lru it holds at most c known cards. A pass at streak players-1 ends the game in a stalemate;
// one at a smaller streak hands the next seat the state at the next streak. Value is the
// lineup's own value in st with c drawn and PolicyChoice its choice there (for every seat for
// itself, the equilibrium's choice, which may not be a best reply where FluctSelfishGaps lists the
// state). The work is that of Evaluate from st, the last row's system kept.
func FluctSeatsChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c, passes int) (Choices[T], error) {
	var out Choices[T]
	if mu.Players < 3 {
		return out, fmt.Errorf("players %d: FluctSeatsChoiceValues is for 3 to %d players (FluctChoiceValues: 2)", mu.Players, rules.MaxPlayers)
	}
	if IsFluctSingles(m) {
		return fluctSinglesSeatsChoiceValues(ctx, f, m, mu, st, c, passes) // fluctsingles_seats.go
	}
	if m.fluctLimited() {
		return fluctLimitSeatsChoiceValues(ctx, f, m, mu, st, c, passes) // fluctlimitseats.go
	}
	s, err := newFluctSeats(f, m, mu)
	if err != nil {
		return out, err
	}
	p := s.p
	switch {
	case passes < 0 || passes >= p:
		return out, fmt.Errorf("pass streak %d: must be 0 to %d (the seats that passed in a row before the turn)", passes, p-1)
	case passes > 0 && !s.passes():
		return out, fmt.Errorf("pass streak %d under pass rule never: no pass is ever made", passes)
	}
	k, err := fluctDrawnKnown(m.Memory, s.maxK, st, c)
	if err != nil {
		return out, err
	}
	s.keepLast = true
	if err := s.run(ctx, st.N-1, nil); err != nil {
		return out, err
	}
	// The row of st solved last, the previous row's values stay those its equations read.
	if err := s.row(st.N); err != nil {
		return out, err
	}
	cn := min(c, fluctTop(m, st.N)) // the capacities of a row are merged from the top up (fluctTop)
	at := -1
	for i, nd := range s.lastNodesOf(st.N) {
		if nd.k == k && nd.c == cn {
			at = i
		}
	}
	if at < 0 {
		return out, fmt.Errorf("%v with capacity %d drawn: not a state of the model", st, c)
	}
	out.State = st
	switch {
	case s.reply == 0:
		out.PolicyChoice = s.replyProf[at*s.streaks()+passes]
	case s.needMulti:
		out.PolicyChoice, err = s.seatChoiceAt(0, st.N, k, cn, passes)
	default:
		out.PolicyChoice = s.lastSol.ch[at*s.streaks()+passes]
	}
	if err != nil {
		return out, err
	}
	for _, ch := range rules.Choices() {
		if !m.Legal(st, ch) {
			continue
		}
		var vec []T
		if s.needMulti {
			vec = s.multiChoiceVec(st.N, at, passes, ch)
		} else {
			vec = s.selfChoiceVec(at*s.streaks()+passes, ch)
		}
		v := ChoiceValue[T]{Choice: ch, Pairs: vec[0], PairsBySeat: vec}
		out.Values = append(out.Values, v)
		if ch == out.PolicyChoice {
			out.Value = Result[T]{State: st, Players: p, ExpectedPairs: vec[0], PairsBySeat: vec}
		}
	}
	markBestUnlimited(f, &out, p)
	return out, nil
}

// streaks returns the positions a state after the draw has in a row of every seat for itself:
// one per pass streak under a pass rule, one under pass rule never.
func (s *fluctSeats[T]) streaks() int {
	if s.passes() {
		return s.p
	}
	return 1
}

// lastNodesOf returns the states after the draw of the last row, of n pairs.
func (s *fluctSeats[T]) lastNodesOf(n int) []fluctNode {
	if s.lastNodes != nil {
		return s.lastNodes
	}
	nodes, _, _ := s.rowLayout(n)
	return nodes
}

// selfChoiceVec returns every seat's expected pairs, in order from the mover, when the mover at
// position pos of the last row of every seat for itself makes choice ch once, the row's
// equilibrium played afterwards: the choice's equation read in the row's solution, the next
// seat's vector turned to the mover's order.
func (s *fluctSeats[T]) selfChoiceVec(pos int, ch rules.Choice) []T {
	f, p := s.f, s.p
	e := s.lastRow.eqs[pos][ch]
	vec := append([]T(nil), e.a...)
	for i, j := range e.to {
		for t := range vec {
			// Seat t from the mover is seat t-1 from the next seat.
			vec[t] = f.Add(vec[t], f.Mul(e.coef[i], s.lastSol.x[j*p+(t+p-1)%p][0]))
		}
	}
	return vec
}

// multiChoiceVec returns every seat's expected pairs, seat 0 first, when seat 0, to move at state
// at of the last row (of n pairs) after passes seats passed in a row, makes choice ch once, the
// lineup played afterwards: the choice's equation read in the row's solution (fluctSeats.multiRow,
// multiPassRow).
func (s *fluctSeats[T]) multiChoiceVec(n, at, passes int, ch rules.Choice) []T {
	f, p := s.f, s.p
	nodes, _, before := s.rowLayout(n)
	// ref numbers the unknown of a state after the draw at streak l with seat 1 to move.
	ref := func(i, l int) int { return i*p + 1 }
	if s.passes() {
		ref = func(i, l int) int { return (i*p+l)*p + 1 }
	}
	e := s.seatChoiceEq(n, nodes[at], 0, passes, ch, before, ref)
	vec := append([]T(nil), e.a...)
	for i, j := range e.to {
		for t := range vec {
			vec[t] = f.Add(vec[t], f.Mul(e.coef[i], s.lastMulti[j][t]))
		}
	}
	return vec
}
