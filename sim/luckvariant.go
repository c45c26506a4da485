package sim

import (
	"fmt"

	"memsim/sim/rules"
)

// Luck-adjusted scores under the rule variants (docs/models.md §1.7, §5.6). The engine adjusts a
// variant's games in the model's own mode only: every seat follows a table and they share one
// memory of the table's model, so that the variant's exact model (the copies model's states of
// faces, with the turns left under a turn limit; a turn limit's turns left; blind flips' pair of
// faces named together) gives the true conditional distribution of every turn. A turn's luck is
// then Φ after it minus Q(st, c), and the adjusted score is V(start) plus the advantages of the
// choices made, read from the table by the state the variant's model reads.

// checkVariantLuck reports whether the setup's luck table is of the game's rule variant and, for a
// variant other than the standard game, whether the model's own mode adjusts the games (model).
func (s Setup) checkVariantLuck(model bool) error {
	t, v := s.Luck, s.Variant.Normal()
	if tv := t.Variant(); tv != v {
		return fmt.Errorf("luck table of %s, the game has %s", tv, v)
	}
	if v.Standard() {
		return nil
	}
	if !model {
		return fmt.Errorf("luck table of %s: it adjusts games in which every seat follows a policy table and shares its model's %s memory under pass rule %s; other games of %s are not luck-adjusted",
			v, t.Memory(), t.Pass(), v)
	}
	for i, p := range s.Players {
		if p.Luck != nil {
			return fmt.Errorf("player %q (seat %d): a player's own luck table adjusts games of the standard game only, not %s", p.Name, i, v)
		}
	}
	return nil
}

// variantStart returns every seat's value at the start st of a game (seat 0 to move), or nil where
// the table has none.
func (s Setup) variantStart(st rules.State) []float64 {
	t, v := s.Luck, s.Variant
	switch {
	case v.CopiesOf() != rules.DefaultCopies:
		counts := make([]int, v.CopiesOf())
		counts[v.CopiesOf()-2] = v.Faces(s.Pairs) // every face unknown, all its cards on the table
		return t.CopiesTurnValues(rules.AppendCopiesKey(nil, counts), v.TurnLimit)
	case v.TurnLimit > 0:
		return t.TurnValues(st, false, v.TurnLimit)
	}
	return t.Values(st, false)
}

// luckAdvantages returns every seat's advantage of choice c made in st (after a pass or not) by
// the seat whose memory is m, from the position the variant's model reads: the state of faces
// m sees (with the turns left under a turn limit), or st with the turns left.
func (g *Game) luckAdvantages(m *memory, st rules.State, afterPass bool, c rules.Choice) []float64 {
	t := g.setup.Luck
	switch {
	case g.copies != rules.DefaultCopies:
		if ft := g.cs.faces; ft != nil && m == ft.m {
			return t.CopiesTurnAdvantages(ft.key(), g.turnsLeft(), c)
		}
		return t.CopiesTurnAdvantages(g.copiesKey(m), g.turnsLeft(), c)
	case g.limit > 0:
		return t.TurnAdvantages(st, afterPass, g.turnsLeft(), c)
	}
	return t.Advantages(st, afterPass, c)
}

// facesTrack keeps the state of faces a memory m sees (docs/models.md §4.16) up to date as cards
// are turned up and taken, so that a luck-adjusted game of more than two copies of a face reads it
// at every choice without counting the table: every pair face's cards on the table and its class
// (cards on the table - 2 + whether one is remembered; -1 once it has left), and the faces in each
// class. Between the two cards of a turn a face may have two cards remembered; it is read only at
// the start of a turn, where none has.
type facesTrack struct {
	m      *memory
	copies int
	left   []int32
	class  []int32
	counts []int
	keyBuf []byte
	stale  bool // counts changed since keyBuf was written
}

func newFacesTrack(m *memory, faces, copies int) *facesTrack {
	return &facesTrack{m: m, copies: copies, left: make([]int32, faces), class: make([]int32, faces), counts: make([]int, copies)}
}

// reset sets the start of a game up: every face unknown with all its cards on the table.
func (ft *facesTrack) reset() {
	for f := range ft.left {
		ft.left[f], ft.class[f] = int32(ft.copies), int32(ft.copies-2)
	}
	clear(ft.counts)
	ft.counts[ft.copies-2] = len(ft.left)
	ft.stale = true
}

// update moves face f (a pair face, or a singleton, which is ignored) to the class its cards on
// the table and the memory's remembered cards of it give.
func (ft *facesTrack) update(f int32) {
	if int(f) >= len(ft.left) {
		return
	}
	c := int32(-1)
	if r := ft.left[f]; r > 0 {
		c = r - 2 + int32(min(ft.m.count[f], 1))
	}
	if old := ft.class[f]; c != old {
		if old >= 0 {
			ft.counts[old]--
		}
		if c >= 0 {
			ft.counts[c]++
		}
		ft.class[f], ft.stale = c, true
	}
}

// took records a pair of face f taken from the table.
func (ft *facesTrack) took(f int32) {
	ft.left[f] -= 2
	ft.update(f)
}

// key returns the key (rules.AppendCopiesKey) of the state of faces.
func (ft *facesTrack) key() []byte {
	if ft.stale {
		ft.keyBuf = rules.AppendCopiesKey(ft.keyBuf[:0], ft.counts)
		ft.stale = false
	}
	return ft.keyBuf
}
