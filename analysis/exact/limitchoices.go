package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The choices' values under a turn limit (docs/models.md §4.18): each legal choice of the mover
// with t turns left, valued by one step over the values of the states it leads to with fewer turns
// left, which the backward induction has computed when it reaches t.

// pairChoice returns the lead and the credited pairs of the mover (seat 0, role 0) after choice ch
// in st with t turns left, no pass just made, the two-player lineup played afterwards.
func (s *limitSweep[T]) pairChoice(st rules.State, t int, ch rules.Choice) (lead, total T) {
	switch {
	case s.needLeads:
		var v leadValues[T]
		if ch == rules.Pass {
			v = s.leadPass(st, t, 0, 0, st.Lead)
		} else {
			v = s.leadSum(st, t, 0, st.Lead, ch)
		}
		return v.lead, v.total
	case s.needRoles:
		if ch == rules.Pass {
			return s.passSum(st, t, 0, func(n *limitCell[T]) (T, T) { return n.lead[1][1], n.total[1][1] })
		}
		return s.pairSum(st, t, ch, func(n *limitCell[T], own bool) (T, T) {
			if own {
				return n.lead[0][0], n.total[0][0]
			}
			return n.lead[1][0], n.total[1][0]
		})
	}
	if ch == rules.Pass {
		return s.passSum(st, t, 0, func(n *limitCell[T]) (T, T) { return n.opt[1], n.optTotal[1] })
	}
	return s.pairSum(st, t, ch, func(n *limitCell[T], own bool) (T, T) { return n.opt[0], n.optTotal[0] })
}

// seatsChoice returns every seat's expected pairs, seat 0's first, after seat 0's choice ch in st
// with t turns left, no pass just made, three or more seats playing their policies afterwards (a
// pass only under a pass rule, limitpassseats.go).
func (s *limitSweep[T]) seatsChoice(st rules.State, t int, ch rules.Choice) []T {
	switch {
	case ch == rules.Pass && s.needSeats:
		return s.seatsVector(st, t, 0, 0, ch)
	case ch == rules.Pass:
		return s.passVector(st, t, 0, func(l *limitStreaks[T]) []T { return s.fromMover(l.self[1], false) })
	}
	if s.needSeats {
		get := func(n *limitCell[T], own bool) []T {
			if own {
				return n.seats[0]
			}
			return n.seats[1]
		}
		return s.vectorSum(st, t, ch, 0, 1, get, func(v []T, own bool) []T { return v })
	}
	p := s.mu.Players
	rot := func(v []T, own bool) []T {
		if own {
			return v
		}
		out := make([]T, p)
		for i := range out {
			out[i] = v[(i+p-1)%p]
		}
		return out
	}
	return s.vectorSum(st, t, ch, 0, 1, func(n *limitCell[T], own bool) []T { return n.self }, rot)
}

// policyChoice returns seat 0's choice in st with t turns left, no pass just made, in its cell c.
func (s *limitSweep[T]) policyChoice(st rules.State, c *limitCell[T]) rules.Choice {
	switch {
	case s.needLeads:
		return c.leads.choice[0][0][s.li(st.Lead)]
	case s.needSolo:
		return c.soloChoice
	case s.needSeats:
		switch p := s.pols[0]; {
		case s.mu.replySeat() == 0:
			return c.reply
		case p != rules.PolicyOptimal:
			return s.fixedChoice(0, p, st, 0)
		case s.mu.TwoPlayerOptimal:
			return c.optChoice[0]
		}
		return c.selfChoice
	case s.needSelf:
		return c.selfChoice
	case s.needRoles:
		return c.choice[0][0]
	}
	return c.optChoice[0]
}

// limitChoiceValues is ChoiceValues under a turn limit: the model's limit is the turns left in st.
// The best choices are those of the lineup's optimum (markBest): with two players by the lead.
func limitChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Choices[T], error) {
	s, err := newLimitSweep(f, m, mu, st)
	if err != nil {
		return Choices[T]{}, err
	}
	if err := s.run(ctx); err != nil {
		return Choices[T]{}, err
	}
	return s.choices(st, s.limit)
}

// choices reads the choices' values in st with t turns left off a sweep that has computed that
// layer.
func (s *limitSweep[T]) choices(st rules.State, t int) (Choices[T], error) {
	f, mu := s.f, s.mu
	c := s.cell(st, t)
	ls := &s.states[s.index(st)]
	out := Choices[T]{State: st, Value: s.result(st, t), PolicyChoice: s.policyChoice(st, c)}
	two := f.FromInt(2)
	for _, ch := range rules.Choices() {
		if !ls.legal[ch] || (ch == rules.Pass && mu.Players != 2 && !s.streaked()) {
			continue
		}
		v := ChoiceValue[T]{Choice: ch}
		switch {
		case mu.Players == 1:
			x := s.soloSum(st, t, ch)
			v.Pairs, v.Turns, v.Lucky = x[0], x[1], x[2]
			v.PairsBySeat = []T{x[0]}
		case mu.Players == 2:
			lead, total := s.pairChoice(st, t, ch)
			v.Lead = lead
			v.Pairs = f.Div(f.Add(total, lead), two)
			v.PairsBySeat = []T{v.Pairs, f.Div(f.Sub(total, lead), two)}
		default:
			v.PairsBySeat = s.seatsChoice(st, t, ch)
			v.Pairs = v.PairsBySeat[0]
		}
		out.Values = append(out.Values, v)
	}
	if len(out.Values) == 0 {
		return out, fmt.Errorf("%v: no legal choice", st)
	}
	markBest(f, &out, mu.Players)
	return out, nil
}

// markBest sets the choices' Diff and Best under a turn limit by what the lineup's optimum
// maximises: with two players the lead (the two seats' pairs need not add up to those on the
// table), with three or more the mover's pairs, and with one player (solo) the pairs taken and,
// among the choices that take the most, the fewest turns.
func markBest[T any](f field.Field[T], out *Choices[T], players int) {
	measure := func(v ChoiceValue[T]) T { return v.Pairs }
	if players == 2 {
		measure = func(v ChoiceValue[T]) T { return v.Lead }
	}
	solo := players == 1
	best := out.Values[0]
	for _, v := range out.Values[1:] {
		c := f.Cmp(measure(v), measure(best))
		if c > 0 || (c == 0 && solo && f.Cmp(v.Turns, best.Turns) < 0) {
			best = v
		}
	}
	for i := range out.Values {
		v := &out.Values[i]
		v.Diff = f.Sub(measure(*v), measure(best))
		v.Best = f.IsZero(v.Diff) && (!solo || f.Cmp(v.Turns, best.Turns) == 0)
		if v.Best {
			out.Best = append(out.Best, v.Choice)
		}
	}
}

// limitWinChoiceValues is WinChoiceValues under a turn limit: each choice's probabilities to win,
// draw and lose by the limit, the lineup played afterwards.
func limitWinChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (WinChoices[T], error) {
	s, err := newLimitSweep(f, m, mu, st)
	if err != nil {
		return WinChoices[T]{}, err
	}
	s.needLeads, s.needRoles = true, false
	if err := s.run(ctx); err != nil {
		return WinChoices[T]{}, err
	}
	return s.winChoices(st, s.limit), nil
}

// winChoices reads the choices' probabilities to win, draw and lose in st (at its lead) with t
// turns left off a sweep of the leads that has computed that layer.
func (s *limitSweep[T]) winChoices(st rules.State, t int) WinChoices[T] {
	f, d := s.f, st.Lead
	c := s.cell(st, t)
	ls := &s.states[s.index(st)]
	two := f.FromInt(2)
	wdl := func(v leadValues[T]) WDL[T] {
		rest := f.Sub(s.ints[1], v.draw)
		diff := f.Mul(two, v.win)
		return WDL[T]{Win: f.Div(f.Add(rest, diff), two), Draw: v.draw, Loss: f.Div(f.Sub(rest, diff), two)}
	}
	out := WinChoices[T]{State: st, Value: wdl(s.leadAt(c, 0, 0, d)), PolicyChoice: c.leads.choice[0][0][s.li(d)]}
	for _, ch := range rules.Choices() {
		if !ls.legal[ch] {
			continue
		}
		var v leadValues[T]
		if ch == rules.Pass {
			v = s.leadPass(st, t, 0, 0, d)
		} else {
			v = s.leadSum(st, t, 0, d, ch)
		}
		p := wdl(v)
		out.Values = append(out.Values, WinChoiceValue[T]{Choice: ch, Win: p.Win, Draw: p.Draw, Loss: p.Loss, Score: p.Score(f)})
	}
	out.markBest(f)
	return out
}

// limitTable is Table under a turn limit: the two-player optimum's cells in every state with at
// most maxPairs pairs and every number of turns left up to the limit, in order of the turns left,
// then n, j and f; a cell's values count the pairs taken within its turns left, and its best
// choices and code compare the choices by the mover's lead, which the optimum maximises.
func limitTable[T any](ctx context.Context, f field.Field[T], m Model, maxPairs int, visit func(*TableCell[T]) error) error {
	if maxPairs < 1 {
		return fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	mu := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	s, err := newLimitSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return err
	}
	two := f.FromInt(2)
	var tc TableCell[T]
	s.visit = func(st rules.State, t int, c *limitCell[T]) error {
		if st.N == 0 {
			return nil
		}
		ls := &s.states[s.index(st)]
		tc.State, tc.TurnsLeft, tc.Legal, tc.Choice = st, t, ls.legal, c.optChoice[0]
		tc.Value = f.Div(f.Add(c.optTotal[0], c.opt[0]), two)
		tc.Best = tc.Best[:0]
		var lead [rules.NumChoices]T
		for _, ch := range rules.Choices() {
			if !ls.legal[ch] {
				continue
			}
			var total T
			lead[ch], total = s.pairChoice(st, t, ch)
			tc.ChoiceValue[ch] = f.Div(f.Add(total, lead[ch]), two)
			if f.Cmp(lead[ch], c.opt[0]) == 0 {
				tc.Best = append(tc.Best, ch)
			}
		}
		tc.Code = CodeEqual
		if rules.HasDecision(st) && ls.legal[rules.Safe] {
			switch f.Cmp(lead[rules.Daring], lead[rules.Safe]) {
			case 1:
				tc.Code = CodeDaring
			case -1:
				tc.Code = CodeSafe
			}
		}
		return visit(&tc)
	}
	return s.run(ctx)
}
