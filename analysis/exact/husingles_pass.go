package exact

import "memsim/sim/rules"

// Pass rules two-known and always for singletons under a shared handover-uniform memory
// (husingles.go; docs/models.md §4.4, "Singletons under a handover-uniform memory", and §4.5),
// two seats. A pass shows no card and hands the turn over; the hand-over forgets the memory's
// excess over its capacity, and since the memory holds no more than its capacity at the start of
// a turn and a pass adds no card, it forgets nothing: the other seat moves in the same state, just
// after a pass. A pass just after a pass ends the game in a stalemate, the pairs left shared
// equally (lead 0). Every other turn clears the flag. Each state where the mover may pass has a
// second cell, just after a pass, solved in the same row as the state (the row's cells refer to
// each other through forgetting already); fixed policies never pass, and a maximiser (the optimum,
// best-response) chooses in both cells.

// addPassCells adds, under a pass rule, the cell just after a pass of every state where the mover
// may pass, to the row of its pairs, and the stalemate cell (no pairs left to play for, lead 0) to
// the row of no pairs.
func (s *husSolver[T]) addPassCells() {
	if s.m.Pass == rules.PassNever || s.mu.Players >= 3 {
		return // three or more seats count the pass streak in their rows (husingles_seats.go)
	}
	for _, row := range s.rows {
		for _, i := range row {
			st := s.cells[i].st
			if st.N == 0 || !s.m.Legal(st, rules.Pass) {
				continue
			}
			s.atPass[st] = len(s.cells)
			s.rows[st.N] = append(s.rows[st.N], len(s.cells))
			s.cells = append(s.cells, &husCell[T]{st: st, after: true})
		}
	}
	s.rows[0] = append(s.rows[0], len(s.cells))
	s.cells = append(s.cells, &husCell[T]{st: rules.State{S: s.m.Singletons, F: s.m.Singletons}, after: true})
}

// stalemate returns the index of the stalemate cell (the last one).
func (s *husSolver[T]) stalemate() int { return len(s.cells) - 1 }

// passOutcome returns the one outcome of a pass in c: the other seat moves in the same state just
// after the pass, or, just after a pass, the stalemate.
func (s *husSolver[T]) passOutcome(c *husCell[T]) husOutcome {
	o := husOutcome{num: 1, den: 1, next: c.st, to: s.atPass[c.st]}
	if c.after {
		o.to = s.stalemate()
	}
	return o
}

// setHUSTable records seat 0's choice ch in cell c in t: just after a pass where c is flagged;
// under a pass rule, where the mover in c's state may not pass (so nobody has just passed there in
// a game of the model), its one choice for both.
func (s *husSolver[T]) setHUSTable(t *rules.ChoiceTable, c *husCell[T], ch rules.Choice) {
	if c.after {
		t.Set(c.st, true, ch)
		return
	}
	t.Set(c.st, false, ch)
	if _, ok := s.atPass[c.st]; !ok && s.m.Pass != rules.PassNever {
		t.Set(c.st, true, ch)
	}
}
