package exact

import "memsim/sim/rules"

// Pass rules two-known and always in the copies model under a shared handover-uniform memory
// (copiesmem.go; docs/models.md §4.16, "A handover-uniform memory"), two seats. A pass shows no
// card and forgets nothing (the memory holds no more than its capacity, so the hand-over forgets
// nothing): it hands the same state of faces to the other seat, just after a pass; a pass just
// after a pass ends the game in a stalemate, the pairs left shared equally (lead 0). Every other
// turn clears the flag.

// cmStalemateKey is the key of the stalemate cell; a state's key just after a pass is its
// key followed by cmAfterPass.
const (
	cmStalemateKey = "stalemate"
	cmAfterPass    = "p"
)

// cmKey returns the key of the cell of state v, just after a pass or not.
func cmKey(v copiesVec, after bool) string {
	if after {
		return v.key() + cmAfterPass
	}
	return v.key()
}

// cmVecOfKey returns the state of a cell's key and whether the other seat has just passed.
func cmVecOfKey(key string) (copiesVec, bool) {
	if len(key)%2 == 1 {
		return vecOfKey(key[:len(key)-1]), true
	}
	return vecOfKey(key), false
}

// cmPassOutcomes returns the one outcome of a pass in v: the other seat moves in the same state
// just after the pass, or, after a pass, the stalemate.
func cmPassOutcomes(v copiesVec, after bool) []cmOutcome {
	next := cmKey(v, true)
	if after {
		next = cmStalemateKey
	}
	return []cmOutcome{{num: 1, den: 1, next: next}}
}

// setMemTable records in tab seat 0's choice in cell c, role 0's of the two-seat solve: just
// after a pass where c is flagged; under a pass rule, where the mover in c's state may not pass
// (so nobody has just passed there in a game of the model), its one choice for both.
func setMemTable[T any](tab *rules.CopiesTable, m Model, c *cmCell[T]) error {
	return setMemChoice(tab, m, c, c.ch[0])
}

// setMemChoice is setMemTable with the choice ch in c.
func setMemChoice[T any](tab *rules.CopiesTable, m Model, c *cmCell[T], ch rules.Choice) error {
	if c.after {
		return tab.SetAfterPass(c.v, ch)
	}
	if m.Pass != rules.PassNever && !c.legal[rules.Pass] {
		if err := tab.SetAfterPass(c.v, ch); err != nil {
			return err
		}
	}
	return tab.Set(c.v, ch)
}
