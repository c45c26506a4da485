package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// Solitaire in the copies model under a shared handover-uniform memory (copiesmem.go;
// docs/models.md §4.16, "A handover-uniform memory", and §4.8). Every turn without a pair is a
// hand-over to the player itself and forgets as one between two seats does. A turn costs one, and
// a turn that leaves a pair known whole (its old card not forgotten) one more: the next turn
// takes it. The states of one number of pairs at a full memory refer to each other in cycles and
// are solved as one system; optimal minimises the expected turns by policy iteration over their
// choices (every policy ends the game: each choice takes a pair with a positive probability), the
// first of the fewest in the order of rules.Choices.

// checkCopiesMemSolo reports whether solitaire under a handover-uniform memory with copies solves
// mu: pass rule never, and optimal, safe or daring.
func checkCopiesMemSolo(m Model, mu Lineup) error {
	k := m.Variant.CopiesOf()
	if m.Pass != rules.PassNever {
		return fmt.Errorf("copies %d with %s: solitaire has nobody to hand a pass to (pass rule %s; allowed: never)", k, m.Memory, m.Pass)
	}
	switch mu.Policy {
	case rules.PolicyOptimal, rules.PolicySafe, rules.PolicyDaring:
		return nil
	}
	return fmt.Errorf("policy %s in solitaire with copies %d and %s has no exact model (allowed: optimal, safe, daring)", mu.Policy, k, m.Memory)
}

// soloEq returns the equation of the expected turns and lucky matches of choice ch in cell c:
// x = a + sum coef·x[to], with pos giving the unknown of a cell of the group being solved; the
// other cells are solved.
func (s *copiesMemSolver[T]) soloEq(c *cmCell[T], ch rules.Choice, pos map[int]int) decayEq[T] {
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

// soloChoiceOf returns the expected turns and lucky matches of choice ch in c, every cell it
// leads to solved.
func (s *copiesMemSolver[T]) soloChoiceOf(c *cmCell[T], ch rules.Choice) [2]T {
	e := s.soloEq(c, ch, nil)
	return [2]T{e.a[0], e.a[1]}
}

// solveSolo computes solitaire's expected turns and lucky matches in every cell, with the
// policy's choice.
func (s *copiesMemSolver[T]) solveSolo() error {
	return s.solveSoloIn(s.groups())
}

// solveSoloIn is solveSolo over the given groups of cells, each referring only to itself and to
// the groups before it (the decay memory's components, copiesdecay.go).
func (s *copiesMemSolver[T]) solveSoloIn(groups [][]int) error {
	f := s.f
	optimal := s.mu.Policy == rules.PolicyOptimal
	for _, idx := range groups {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		pos := make(map[int]int, len(idx))
		for k, i := range idx {
			pos[i] = k
		}
		ch := make([]rules.Choice, len(idx))
		for k, i := range idx {
			ch[k] = fixedChoiceOf(s.cells[i], s.mu.Policy)
		}
		x, err := solveSoloGroup(f, ch, optimal,
			func(k int, y rules.Choice) bool { c := s.cells[idx[k]]; return c.pairs > 0 && c.legal[y] },
			func(k int, y rules.Choice) decayEq[T] {
				if c := s.cells[idx[k]]; c.pairs > 0 {
					return s.soloEq(c, y, pos)
				}
				return decayEq[T]{a: []T{s.zero, s.zero}}
			})
		if err != nil {
			return fmt.Errorf("solitaire, copies with %s: %w", s.m.Memory, err)
		}
		for k, i := range idx {
			s.cells[i].solo, s.cells[i].soloChoice = [2]T{x[k][0], x[k][1]}, ch[k]
		}
	}
	return nil
}

// soloChoices returns every legal choice's expected turns and lucky matches in the start cell,
// the policy played afterwards.
func (s *copiesMemSolver[T]) soloChoices(st CopiesState) Choices[T] {
	c := s.cells[0]
	out := Choices[T]{State: st.RulesState(), Value: s.result(st), PolicyChoice: c.soloChoice}
	for _, ch := range rules.Choices() {
		if !c.legal[ch] {
			continue
		}
		x := s.soloChoiceOf(c, ch)
		out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Turns: x[0], Lucky: x[1]})
	}
	markBestUnlimited(s.f, &out, 1)
	return out
}
