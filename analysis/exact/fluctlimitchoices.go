package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// fluctLimitChoiceValues is FluctChoiceValues (flag 0) and FluctChoiceValuesAfterPass (flag 1)
// under a fluctuating capacity and a turn limit (docs/models.md §4.4): the value of every legal
// choice of seat 0 in st, the state after the draw of capacity c, with the model's turn limit as
// the turns left (this turn included), lineup mu afterwards. A value is a lead and the pairs each
// seat takes within the limit (the pairs left at the limit count for nobody), and the best choice
// is the one of largest lead, as under a fixed capacity (markBest).
func fluctLimitChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c, flag int) (Choices[T], error) {
	var out Choices[T]
	s, err := newFluctLimitSweep(f, m, mu, st.N)
	if err != nil {
		return out, err
	}
	if flag == 1 && m.Pass == rules.PassNever {
		return out, fmt.Errorf("pass rule %s: no pass is ever made, so there is no state just after one", m.Pass)
	}
	k, err := fluctDrawnKnown(m.Memory, s.maxK, st, c)
	if err != nil {
		return out, err
	}
	left := s.limit
	// The layers up to left - 1 turns left are the successors' values; the turn itself is
	// computed from them.
	s.limit = left - 1
	if err := s.run(ctx); err != nil {
		return out, err
	}
	n := st.N
	cn := min(c, fluctTop(m, n)) // the capacities of a row are merged from n + 1 up (fluctTop)
	cell, optCh, roleCh, err := s.after(n, k, cn, left)
	if err != nil {
		return out, err
	}
	own := func(x *flLimitCell[T]) flLimitVal[T] { return x.opt[0] }
	other, ap := own, func(x *flLimitCell[T]) flLimitVal[T] { return x.opt[1] }
	out.PolicyChoice = optCh[flag]
	val := cell.opt[flag]
	if s.needRoles {
		own = func(x *flLimitCell[T]) flLimitVal[T] { return x.role[0][0] }
		other = func(x *flLimitCell[T]) flLimitVal[T] { return x.role[1][0] }
		ap = func(x *flLimitCell[T]) flLimitVal[T] { return x.role[1][1] }
		out.PolicyChoice, val = roleCh[0][flag], cell.role[0][flag]
	}
	out.State = st
	out.Value = fluctLimitResult(f, st, val)
	legal := s.legal(n, k)
	for _, ch := range rules.Choices() {
		if !legal[ch] {
			continue
		}
		r := fluctLimitResult(f, st, s.value(n, k, cn, left, flag, ch, own, other, ap))
		out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Lead: r.ExpectedLead, Pairs: r.ExpectedPairs, PairsBySeat: r.PairsBySeat})
	}
	if len(out.Values) == 0 {
		return out, fmt.Errorf("%v: no legal choice", st)
	}
	markBest(f, &out, 2)
	return out, nil
}

// fluctLimitResult returns the two-seat result of value v in st: seat 0's pairs (total + lead) / 2,
// seat 1's (total - lead) / 2.
func fluctLimitResult[T any](f field.Field[T], st rules.State, v flLimitVal[T]) Result[T] {
	two := f.FromInt(2)
	res := Result[T]{State: st, Players: 2, ExpectedLead: v.lead}
	res.ExpectedPairs = f.Div(f.Add(v.total, v.lead), two)
	res.PairsBySeat = []T{res.ExpectedPairs, f.Div(f.Sub(v.total, v.lead), two)}
	return res
}
