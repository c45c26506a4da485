package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Pass rules two-known and always for singletons under a fluctuating handover-uniform capacity
// (fluctsingles.go; docs/models.md §4.4 and §4.5), two seats. A capacity is drawn at every turn,
// a pass turn included. A pass shows no card and hands the turn over; the hand-over keeps the
// capacity c drawn, forgetting the excess of the memory over c one card at a time uniformly among
// the cards remembered (the memory may hold up to m + σ cards, so a pass with a small capacity
// drawn forgets): the other seat moves, just after a pass, in the state left, before its own
// draw. A pass just after a pass ends the game in a stalemate, the pairs left shared (lead 0), as
// the engine counts passes in a row. Every other turn clears the flag.
//
// Each state before the draw where the mover may pass has a second set of cells after the draw,
// just after a pass, solved in the same row as the state; a pass made without the flag leads to
// them (or, where the state left allows no pass, to the plain cells: the mover cannot pass there,
// so the flag changes nothing), a pass made with it to the stalemate cell of the row of no pairs.
// Fixed policies never pass; a maximiser (the optimum, best-response) chooses in both.

// addPassCells adds, under a pass rule, the cells just after a pass of every state of one or more
// pairs where the mover may pass, one per capacity drawn, and the stalemate cell (no pairs, lead 0).
func (s *fsSolver[T]) addPassCells() {
	m := s.m
	if m.Pass == rules.PassNever || s.seats {
		return
	}
	f := s.f
	for n := 1; n < len(s.rows); n++ {
		caps := fluctCapsTo(m.Memory, fsTop(m, n))
		for j := 0; j <= n; j++ {
			for fu := 0; fu <= m.Singletons; fu++ {
				st := rules.State{N: n, J: j, S: m.Singletons, F: fu}
				if _, ok := s.draws[st]; !ok || !m.Legal(st, rules.Pass) {
					continue
				}
				for _, cp := range caps {
					s.drawsPass[st] = append(s.drawsPass[st], fsDraw[T]{p: f.FromFrac(cp.p.Num, cp.p.Den), to: s.add(fsKey{st: st, c: cp.c, after: true})})
				}
			}
		}
	}
	s.add(s.stalemateKey())
}

// stalemateKey returns the key of the stalemate cell: no pairs left to play for, after a pass.
func (s *fsSolver[T]) stalemateKey() fsKey {
	return fsKey{st: rules.State{S: s.m.Singletons, F: s.m.Singletons}, after: true}
}

// addPassArcs sets the arcs of a pass in c: just after a pass, the stalemate; otherwise the
// hand-over's forgetting down to the capacity drawn, each state left expanded over the other
// seat's draw just after a pass.
func (s *fsSolver[T]) addPassArcs(c *fsCell[T]) {
	f := s.f
	if c.key.after {
		c.arcs[rules.Pass] = []fsArc[T]{{p: s.one, to: s.at[s.stalemateKey()]}}
		return
	}
	st := c.key.st
	k, ks := st.N-st.J, st.S-st.F
	at := func(n, half, seen int) rules.State { return rules.State{N: n, J: n - half, S: st.S, F: st.S - seen} }
	add := func(num, den int64, next rules.State, _ bool, _ int) {
		ds, ok := s.drawsPass[next]
		if !ok {
			ds = s.draws[next]
		}
		p := f.FromFrac(num, den)
		for _, d := range ds {
			c.arcs[rules.Pass] = append(c.arcs[rules.Pass], fsArc[T]{p: f.Mul(p, d.p), to: d.to})
		}
	}
	husForget(1, 1, st.N, k, ks, k, ks, 0, max(0, k+ks-c.key.c), add, at)
}

// fsTableSet records seat 0's choice in cell c in layer t (fsTableSetChoice).
func (s *fsSolver[T]) fsTableSet(t *rules.ChoiceTable, c *fsCell[T]) {
	s.fsTableSetChoice(t, c, c.ch[0])
}

// fsTableSetChoice records choice ch of cell c in layer t: just after a pass where c is flagged;
// under a pass rule, where the mover in c's state may not pass (so nobody has just passed there
// in a game of the model), its one choice for both.
func (s *fsSolver[T]) fsTableSetChoice(t *rules.ChoiceTable, c *fsCell[T], ch rules.Choice) {
	st := c.key.st
	if c.key.after {
		t.Set(st, true, ch)
		return
	}
	t.Set(st, false, ch)
	if _, ok := s.drawsPass[st]; !ok && s.m.Pass != rules.PassNever {
		t.Set(st, true, ch)
	}
}

// fluctSinglesChoiceValuesAfterPass is FluctChoiceValuesAfterPass for singletons under a
// fluctuating handover-uniform capacity. Where the mover may not pass (two-known, fewer than two
// cards remembered after the hand-over's forgetting) the values are those after no pass.
func fluctSinglesChoiceValuesAfterPass[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c int) (Choices[T], error) {
	if m.Pass == rules.PassNever {
		return Choices[T]{}, fmt.Errorf("pass rule %s: no pass is ever made, so there is no state just after one", m.Pass)
	}
	return fsChoiceValues(ctx, f, m, mu, st, c, true)
}

// beforePass returns role r's lead before the draw in st just after a pass by the other seat (the
// optimum's in self-play); where the mover may not pass, the lead after no pass.
func (s *fsSolver[T]) beforePass(st rules.State, r int, self bool) T {
	ds, ok := s.drawsPass[st]
	if !ok {
		return s.before(st, r, self)
	}
	v := s.zero
	for _, d := range ds {
		v = s.f.Add(v, s.f.Mul(d.p, s.cells[d.to].lead(r, self)))
	}
	return v
}
