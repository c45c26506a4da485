package exact

import (
	"fmt"
	"strconv"
	"strings"

	"memsim/sim/rules"
)

// Pass rules two-known and always in the copies model under a shared handover-uniform memory
// (copiesmem.go; docs/models.md §4.16, "A handover-uniform memory"), two seats. A pass shows no
// card and forgets nothing (the memory holds no more than its capacity, so the hand-over forgets
// nothing): it hands the same state of faces to the other seat, just after a pass; a pass just
// after a pass ends the game in a stalemate, the pairs left shared equally (lead 0). Every other
// turn clears the flag.

//
// At three to eight seats (docs/models.md §4.7) the flag is the pass streak l = 0 .. p-1, the
// number of seats that passed in a row just before this turn: a pass at l < p-1 hands the next
// seat the same state at streak l+1, and a pass at l = p-1 ends the game in a stalemate that
// gives every seat its share (1/p) of the pairs left, a cell of its own per number of pairs left.

// cmStalemateKey is the key of the stalemate cell (at three or more seats followed by the pairs
// left); a state's key at pass streak l >= 1 is its key followed by cmStreakSuffix(l), one byte:
// cmAfterPass for one pass.
const (
	cmStalemateKey = "stalemate"
	cmAfterPass    = "p"
)

// cmStreakSuffix returns what follows a state's key at pass streak l.
func cmStreakSuffix(l int) string {
	switch l {
	case 0:
		return ""
	case 1:
		return cmAfterPass
	}
	return string(rune('0' + l))
}

// cmKey returns the key of the cell of state v, just after a pass or not.
func cmKey(v copiesVec, after bool) string {
	return cmKeyAt(v, btoi(after))
}

// cmKeyAt returns the key of the cell of state v at pass streak l.
func cmKeyAt(v copiesVec, l int) string { return v.key() + cmStreakSuffix(l) }

// cmVecOfKey returns the state of a cell's key and whether the previous seat has just passed.
func cmVecOfKey(key string) (copiesVec, bool) {
	v, l := cmStreakOfKey(key)
	return v, l > 0
}

// cmStreakOfKey returns the state of a cell's key and its pass streak.
func cmStreakOfKey(key string) (copiesVec, int) {
	if len(key)%2 == 0 {
		return vecOfKey(key), 0
	}
	l := 1
	if b := key[len(key)-1]; b != cmAfterPass[0] {
		l = int(b - '0')
	}
	return vecOfKey(key[:len(key)-1]), l
}

// cmStalemateOf returns the key of the stalemate in v: at three or more seats it tells the pairs
// left, which the seats share.
func cmStalemateOf(v copiesVec, players int) string {
	if players < 3 {
		return cmStalemateKey
	}
	return fmt.Sprintf("%s%d", cmStalemateKey, v.state().Pairs())
}

// cmStalemateCell returns the cell of the stalemate key key.
func cmStalemateCell[T any](key string) *cmCell[T] {
	left, _ := strconv.Atoi(strings.TrimPrefix(key, cmStalemateKey))
	return &cmCell[T]{stalemate: true, left: left}
}

// cmLastStreak returns the last pass streak of a game of the given players: a pass there ends the
// game.
func cmLastStreak(players int) int { return max(players, 2) - 1 }

// cmPassOutcomes returns the one outcome of a pass in v at streak l: the next seat moves in the
// same state at the next streak, or, at the last streak, the stalemate.
func cmPassOutcomes(v copiesVec, l, players int) []cmOutcome {
	next := cmKeyAt(v, l+1)
	if l == cmLastStreak(players) {
		next = cmStalemateOf(v, players)
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
	return setMemChoiceSeats(tab, m, 2, c, ch)
}

// setMemChoiceSeats is setMemChoice at the given number of seats, c at its pass streak: where
// the mover may not pass, its one choice at every streak.
func setMemChoiceSeats[T any](tab *rules.CopiesTable, m Model, players int, c *cmCell[T], ch rules.Choice) error {
	if c.streak > 0 {
		return tab.SetAfterPasses(c.v, c.streak, ch)
	}
	if m.Pass != rules.PassNever && !c.legal[rules.Pass] {
		for l := 1; l <= cmLastStreak(players); l++ {
			if err := tab.SetAfterPasses(c.v, l, ch); err != nil {
				return err
			}
		}
	}
	return tab.Set(c.v, ch)
}
