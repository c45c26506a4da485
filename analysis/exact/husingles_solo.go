package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// Solitaire with singletons under a shared handover-uniform memory (husingles.go; docs/models.md
// §4.4, "Singletons under a handover-uniform memory", and §4.8). Every turn without a pair is a
// hand-over to the player itself and forgets as one between two seats does. A turn costs one, and
// a turn that leaves a pair known whole (its old card not forgotten) one more: the next turn takes
// it. The states of one number of pairs refer to each other (forgetting, and seeing singletons)
// and are solved as one system; optimal minimises the expected turns by policy iteration over
// their choices (every policy ends the game: each choice takes a pair with a positive
// probability), the first of the fewest in the order of rules.Choices.

// checkHUSinglesSolo reports whether solitaire with singletons under a handover-uniform memory
// solves mu in m: pass rule never, and optimal, safe, daring or parity.
func checkHUSinglesSolo(m Model, mu Lineup) error {
	s := m.Singletons
	if m.Pass != rules.PassNever {
		return fmt.Errorf("singletons %d with %s: solitaire has nobody to hand a pass to (pass rule %s; allowed: never)", s, m.Memory, m.Pass)
	}
	switch mu.Policy {
	case rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring, rules.PolicyParity:
		return mu.Policy.CheckChoices(m.Choices)
	}
	return fmt.Errorf("policy %s in solitaire with singletons %d and %s has no exact model (allowed: optimal, safe, daring, parity)", mu.Policy, s, m.Memory)
}

// soloEq returns the equation of the expected turns and lucky matches of choice ch in cell c:
// x = a + sum coef·x[to], with pos giving the unknown of a cell of the row being solved; the other
// cells are solved.
func (s *husSolver[T]) soloEq(c *husCell[T], ch rules.Choice, pos map[int]int) decayEq[T] {
	f := s.f
	e := decayEq[T]{a: []T{s.zero, s.zero}}
	for i, o := range c.outs[ch] {
		p := c.probs[ch][i]
		e.a[0] = f.Add(e.a[0], f.Mul(p, f.FromInt(int64(1+o.handed))))
		if o.lucky {
			e.a[1] = f.Add(e.a[1], p)
		}
		if l, ok := pos[o.to]; ok {
			e.to = append(e.to, l)
			e.coef = append(e.coef, p)
			continue
		}
		next := s.cells[o.to]
		e.a[0] = f.Add(e.a[0], f.Mul(p, next.solo[0]))
		e.a[1] = f.Add(e.a[1], f.Mul(p, next.solo[1]))
	}
	e.merge(f)
	return e
}

// solveSolo computes solitaire's expected turns and lucky matches in every cell, row by row, with
// the policy's choice.
func (s *husSolver[T]) solveSolo() error {
	f := s.f
	optimal := s.mu.Policy == rules.PolicyOptimal
	for _, idx := range s.rows {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		if s.cells[idx[0]].st.N == 0 {
			for _, i := range idx {
				s.cells[i].solo = [2]T{s.zero, s.zero}
			}
			continue
		}
		pos := make(map[int]int, len(idx))
		for k, i := range idx {
			pos[i] = k
		}
		ch := make([]rules.Choice, len(idx))
		for k, i := range idx {
			ch[k] = rules.Daring
			if !optimal {
				ch[k] = s.mu.Policy.Decide(s.cells[i].st)
			}
		}
		x, err := solveSoloGroup(f, ch, optimal,
			func(k int, y rules.Choice) bool { return s.cells[idx[k]].legal[y] },
			func(k int, y rules.Choice) decayEq[T] { return s.soloEq(s.cells[idx[k]], y, pos) })
		if err != nil {
			return fmt.Errorf("solitaire, singletons with %s: %w", s.m.Memory, err)
		}
		for k, i := range idx {
			s.cells[i].solo, s.cells[i].soloChoice = [2]T{x[k][0], x[k][1]}, ch[k]
		}
	}
	return nil
}

// soloChoices returns every legal choice's expected turns and lucky matches in cell c, the policy
// played afterwards.
func (s *husSolver[T]) soloChoices(c *husCell[T]) Choices[T] {
	out := Choices[T]{State: c.st, Value: s.soloResult(c), PolicyChoice: c.soloChoice}
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		e := s.soloEq(c, ch, nil)
		out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Turns: e.a[0], Lucky: e.a[1]})
	}
	markBestUnlimited(s.f, &out, 1)
	return out
}

// soloResult returns solitaire's value in cell c.
func (s *husSolver[T]) soloResult(c *husCell[T]) Result[T] {
	return Result[T]{State: c.st, Players: 1, ExpectedTurns: c.solo[0], ExpectedLucky: c.solo[1]}
}
