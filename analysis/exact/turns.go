package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The choices' values at many positions of one game (docs/models.md §4.16, §4.18). Under a turn
// limit the values of a state with t turns left are the same whatever limit they were counted
// from, and the copies model keeps every state it solves: so one backward induction over the turns
// left, or one copies solver, values every position a game passes through, where a call per
// position would solve the game again from each.

// TurnState is a position of a game of two copies of a face under a turn limit: its state (with
// the mover's lead, which the policies that play to win read) and the turns left in it, its own
// turn included.
type TurnState struct {
	State     rules.State
	TurnsLeft int
}

// CopiesTurnState is a position of a game in the copies model: its state of faces and, under a
// turn limit, the turns left in it, its own turn included (0 without a limit).
type CopiesTurnState struct {
	State     CopiesState
	TurnsLeft int
}

// ChoiceValuesAt returns, for every position, what ChoiceValues returns for its state in model m
// with the turn limit set to its turns left, from one backward induction over the turns left up
// to the largest. The model's turn limit must be set and at least every position's turns left.
func ChoiceValuesAt[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, at []TurnState) ([]Choices[T], error) {
	out := make([]Choices[T], len(at))
	err := sweepTurns(ctx, f, m, mu, at, false, func(s *limitSweep[T], i int) error {
		var err error
		out[i], err = s.choices(at[i].State, at[i].TurnsLeft)
		return err
	})
	return out, err
}

// WinChoiceValuesAt is ChoiceValuesAt for WinChoiceValues: every position's choices' probabilities
// to win, draw and lose by the limit, at the position's lead.
func WinChoiceValuesAt[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, at []TurnState) ([]WinChoices[T], error) {
	switch {
	case mu.Players != 2:
		return nil, fmt.Errorf("players %d: win, draw and loss are computed for 2 players", mu.Players)
	case mu.hasBestResponse():
		return nil, fmt.Errorf("policy best-response: the values to win of the choices are computed with the policies that play to win (win-best-response) or follow a table")
	}
	out := make([]WinChoices[T], len(at))
	err := sweepTurns(ctx, f, m, mu, at, true, func(s *limitSweep[T], i int) error {
		out[i] = s.winChoices(at[i].State, at[i].TurnsLeft)
		return nil
	})
	return out, err
}

// sweepTurns runs one limit sweep over every state with as many pairs as the largest position and
// every number of turns left up to the largest, the values at every lead when leads is set, and
// calls read with the index of each position once its layer is computed.
func sweepTurns[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, at []TurnState, leads bool, read func(s *limitSweep[T], i int) error) error {
	if m.Variant.TurnLimit < 1 {
		return fmt.Errorf("the choices' values by turns left need a turn limit")
	}
	type key struct {
		st rules.State
		t  int
	}
	wanted := map[key][]int{}
	maxN, maxT := 0, 0
	for i, p := range at {
		switch {
		case p.State.N < 1:
			return fmt.Errorf("%v: no pair left, no choice to make", p.State)
		case p.TurnsLeft < 1 || p.TurnsLeft > m.Variant.TurnLimit:
			return fmt.Errorf("%v: %d turns left, must be 1 to the turn limit %d", p.State, p.TurnsLeft, m.Variant.TurnLimit)
		case p.State.S != m.Singletons:
			return fmt.Errorf("%v: the state has %d singletons, the model %d", p.State, p.State.S, m.Singletons)
		}
		if err := p.State.Validate(m.Memory); err != nil {
			return err
		}
		k := key{p.State.Counts(), p.TurnsLeft}
		wanted[k] = append(wanted[k], i)
		maxN, maxT = max(maxN, p.State.N), max(maxT, p.TurnsLeft)
	}
	if len(at) == 0 {
		return nil
	}
	S := m.Singletons
	top := m
	top.Variant.TurnLimit = maxT
	s, err := newLimitSweep(f, top, mu, rules.State{N: maxN, J: maxN, S: S, F: S})
	if err != nil {
		return err
	}
	if leads {
		s.needLeads, s.needRoles = true, false
	}
	s.visit = func(st rules.State, t int, _ *limitCell[T]) error {
		for _, i := range wanted[key{st, t}] {
			if err := read(s, i); err != nil {
				return err
			}
		}
		return nil
	}
	return s.run(ctx)
}

// CopiesChoiceValuesAt returns, for every position, what CopiesChoiceValues returns for its state
// in model m with the turn limit set to its turns left (without a limit, for its state), from one
// copies solver, which solves each state and number of turns left once.
func CopiesChoiceValuesAt[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, at []CopiesTurnState) ([]Choices[T], error) {
	if err := checkCopiesTurnStates(m, at); err != nil {
		return nil, err
	}
	s, err := newCopiesSolver(ctx, f, m, mu)
	if err != nil {
		return nil, err
	}
	out := make([]Choices[T], len(at))
	for i, p := range at {
		if out[i], err = s.choiceValues(p.State, p.TurnsLeft); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkCopiesTurnStates reports whether every position of at is a state of faces of model m in
// which a choice is made, with turns left from 1 to m's turn limit (none without a limit).
func checkCopiesTurnStates(m Model, at []CopiesTurnState) error {
	lim := m.Variant.TurnLimit
	for _, p := range at {
		if err := p.State.checkChoice(m); err != nil {
			return err
		}
		switch {
		case lim == 0 && p.TurnsLeft != 0:
			return fmt.Errorf("%v: %d turns left without a turn limit", p.State, p.TurnsLeft)
		case lim > 0 && (p.TurnsLeft < 1 || p.TurnsLeft > lim):
			return fmt.Errorf("%v: %d turns left, must be 1 to the turn limit %d", p.State, p.TurnsLeft, lim)
		}
	}
	return nil
}
