package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// CopiesWinChoiceValuesAt returns, for every position at the mover's lead so far leads[i], what
// CopiesWinChoiceValues returns for its state in model m with the turn limit set to its turns
// left (without a limit, for its state), from one copies solver, which solves each state and
// number of turns left once at every lead (docs/models.md §4.13, §4.16). The lineup mu has two
// players, a role playing to win; the values are those after no pass (a pass just after the
// other seat's is the stalemate, whose value is the lead so far).
func CopiesWinChoiceValuesAt[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, at []CopiesTurnState, leads []int) ([]WinChoices[T], error) {
	switch {
	case len(leads) != len(at):
		return nil, fmt.Errorf("%d leads for %d positions", len(leads), len(at))
	case mu.Players != 2 || mu.PerSeat:
		return nil, fmt.Errorf("players %d: win, draw and loss are computed for 2 players, one policy a role", mu.Players)
	case !mu.playsToWinCopies():
		return nil, fmt.Errorf("policies %s and %s: the values to win need a role that plays to win", mu.Policy, mu.Opponent)
	}
	if err := checkCopiesTurnStates(m, at); err != nil {
		return nil, err
	}
	s, err := newCopiesSolver(ctx, f, m, mu)
	if err != nil {
		return nil, err
	}
	out := make([]WinChoices[T], len(at))
	for i, p := range at {
		if out[i], err = s.winChoicesAt(p.State, p.TurnsLeft, leads[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// winChoicesAt returns the win values of every legal choice of the mover in state st, which has
// pairs left, with t turns left (0 without a limit), at lead so far lead, after no pass, on
// solver s (needWin), whose memo keeps what it solves for the next call.
func (s *copiesSolver[T]) winChoicesAt(st CopiesState, t, lead int) (WinChoices[T], error) {
	f, v := s.f, st.vec()
	c, err := s.get(v.key(), t)
	if err != nil {
		return WinChoices[T]{}, err
	}
	here := *c // with the outcomes, which the solved cell no longer holds
	if err := s.prepare(&here, v); err != nil {
		return WinChoices[T]{}, err
	}
	w := c.win
	i := w.at(lead)
	state := st.RulesState()
	state.Lead = lead
	out := WinChoices[T]{State: state, Value: winWDL(f, w.u[0][i], w.draw[0][i]), PolicyChoice: w.ch[0][i]}
	half := f.FromFrac(1, 2)
	decided := lead > st.Pairs() || -lead > st.Pairs()
	for _, ch := range rules.Choices() {
		if !here.legal[ch] {
			continue
		}
		u, dr, _ := s.winChoiceValue(&here, 0, ch, lead, false)
		if decided {
			u, dr = s.finalWin(lead)
		}
		p := winWDL(f, u, dr)
		out.Values = append(out.Values, WinChoiceValue[T]{Choice: ch, Win: p.Win, Draw: p.Draw, Loss: p.Loss,
			Score: f.Add(p.Win, f.Mul(half, p.Draw))})
	}
	out.markBest(f)
	return out, nil
}
