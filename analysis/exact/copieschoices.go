package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// CopiesChoiceValues is ChoiceValues in the copies model (docs/models.md §4.16): the value of
// every legal choice of the mover (seat 0) in state st of model m, the choice made now and lineup
// mu played afterwards, and the lineup's own value from st, for every lineup EvaluateCopies
// takes. Under a turn limit (the turns left in st) the best choices are those of the optimum,
// as ChoiceValues has them: with two players the largest lead, with one the most pairs taken and
// then the fewest turns. State is st.RulesState().
func CopiesChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (Choices[T], error) {
	if isCopiesMem(m) {
		return copiesMemChoiceValues(ctx, f, m, mu, st) // copiesmem.go
	}
	if isCopiesDecay(m) {
		return copiesDecayChoiceValues(ctx, f, m, mu, st) // copiesdecay.go
	}
	if err := st.checkChoice(m); err != nil {
		return Choices[T]{}, err
	}
	s, err := newCopiesSolver(ctx, f, m, mu)
	if err != nil {
		return Choices[T]{}, err
	}
	return s.choiceValues(st, s.limit)
}

// checkChoice reports whether st is a state of model m's copies with a choice to make: a pair
// left.
func (st CopiesState) checkChoice(m Model) error {
	if err := st.Validate(); err != nil {
		return err
	}
	if k := m.Variant.CopiesOf(); k != st.Copies() {
		return fmt.Errorf("the state has %d copies of a face, the model %d", st.Copies(), k)
	}
	if unknownCards(st.vec()) == 0 {
		return fmt.Errorf("%v: no pair left, no choice to make", st)
	}
	return nil
}

// choiceValues is CopiesChoiceValues in state st, which has pairs left, with t turns left (0
// without a limit), on solver s, whose memo keeps what it solves for the next call.
func (s *copiesSolver[T]) choiceValues(st CopiesState, t int) (Choices[T], error) {
	var out Choices[T]
	f, mu, v := s.f, s.mu, st.vec()
	c, err := s.get(v.key(), t)
	if err != nil {
		return out, err
	}
	here := *c // with the outcomes, which the solved cell no longer holds
	if err := s.prepare(&here, v); err != nil {
		return out, err
	}
	out = Choices[T]{State: st.RulesState(), Value: s.result(st, c), PolicyChoice: s.policyChoice(c)}
	n, two := f.FromInt(int64(st.Pairs())), f.FromInt(2)
	for _, ch := range rules.Choices() {
		if !here.legal[ch] {
			continue
		}
		cv := ChoiceValue[T]{Choice: ch}
		switch {
		case s.needSolo:
			x := s.soloOf(&here, ch)
			cv.Turns, cv.Lucky = x[0], x[1]
			if s.limit > 0 {
				cv.Pairs, cv.PairsBySeat = x[2], []T{x[2]}
			}
		case s.needWin:
			_, _, cv.Lead = s.winChoiceValue(&here, 0, ch, 0, false)
			cv.Pairs = pairsFromLead(f, n, cv.Lead)
			cv.PairsBySeat = []T{cv.Pairs, f.Sub(n, cv.Pairs)}
		case s.needLead:
			role0 := func(x *copiesCell[T], next bool) T {
				if next {
					return x.lead[1]
				}
				return x.lead[0]
			}
			cv.Lead = s.leadOf(&here, ch, role0)
			if ch == rules.Pass {
				cv.Lead = s.passLead(&here, 0) // copiespass.go
			}
			cv.Pairs = pairsFromLead(f, n, cv.Lead)
			cv.PairsBySeat = []T{cv.Pairs, f.Sub(n, cv.Pairs)}
			if s.limit > 0 {
				total := s.passTotal(&here, 0, ch, false) // the choice's total, a pass included (copiespass.go)
				cv.Pairs = f.Div(f.Add(total, cv.Lead), two)
				cv.PairsBySeat = []T{cv.Pairs, f.Div(f.Sub(total, cv.Lead), two)}
			}
		case ch == rules.Pass && here.streak != nil:
			cv.PairsBySeat = s.passSeatsValue(&here) // copiespassseats.go
			cv.Pairs = cv.PairsBySeat[0]
		case s.needSeats:
			cv.PairsBySeat = s.seatsAfter(&here, 0, ch)
			cv.Pairs = cv.PairsBySeat[0]
		default:
			cv.PairsBySeat = s.vecAfter(&here, ch, func(x *copiesCell[T]) []T { return x.self })
			cv.Pairs = cv.PairsBySeat[0]
		}
		out.Values = append(out.Values, cv)
	}
	if s.limit > 0 {
		markBest(f, &out, mu.Players)
	} else {
		markBestUnlimited(f, &out, mu.Players)
	}
	return out, nil
}

// policyChoice returns seat 0's choice in c.
func (s *copiesSolver[T]) policyChoice(c *copiesCell[T]) rules.Choice {
	switch {
	case s.needSolo:
		return c.soloChoice
	case s.needWin:
		return c.win.ch[0][c.win.at(0)]
	case s.needLead:
		return c.brChoice[0]
	case s.needSeats:
		return s.seatChoice(c, 0)
	}
	return c.selfChoice
}

// markBestUnlimited sets the choices' Diff and Best without a turn limit (ChoiceValues, copies):
// the most expected pairs, or with one player the fewest expected turns.
func markBestUnlimited[T any](f field.Field[T], out *Choices[T], players int) {
	measure := func(v ChoiceValue[T]) T { return v.Pairs }
	if players == 1 {
		measure = func(v ChoiceValue[T]) T { return f.Sub(f.FromInt(0), v.Turns) }
	}
	best := measure(out.Values[0])
	for _, v := range out.Values[1:] {
		if f.Cmp(measure(v), best) > 0 {
			best = measure(v)
		}
	}
	for i := range out.Values {
		v := &out.Values[i]
		v.Diff = f.Sub(measure(*v), best)
		if players == 1 {
			v.Diff = f.Sub(f.FromInt(0), v.Diff)
		}
		if v.Best = f.Cmp(measure(*v), best) == 0; v.Best {
			out.Best = append(out.Best, v.Choice)
		}
	}
}
