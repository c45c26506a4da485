package rules

import (
	"fmt"
	"math"
)

// Luck tables of the rule variants (docs/models.md §1.7, §5.6). A table of blind flips is indexed
// as the standard game's, by the count state. A table of a turn limit holds a layer per number of
// turns left, t = 1 .. TurnLimit (this turn included; with none left the game is over and every
// value is 0). A table of more than two copies of a face is indexed by the state of faces
// (CopiesTable's counts and keys), with sequential or blind flips and pass rule never, so that no
// state follows a pass; under a turn limit too it holds a layer of states of faces per number of
// turns left.

// NewVariantLuckTable returns a table with nothing set, as NewLuckTable does, for games of the
// rule variant v: the standard game, blind flips, a turn limit (alone or with blind flips), or
// more than two copies of a face (alone, with a turn limit, with blind flips or both).
func NewVariantLuckTable(v Variant, memory Memory, pass PassRule, singletons, players, maxPairs int, reference string) (*LuckTable, error) {
	if err := v.Validate(); err != nil {
		return nil, err
	}
	v = v.Normal()
	if v.CopiesOf() != DefaultCopies {
		if pass != PassNever {
			return nil, fmt.Errorf("luck table for %s: only pass rule never has an exact model, not %s", v, pass)
		}
	}
	t, err := NewLuckTable(memory, pass, singletons, players, maxPairs, reference)
	if err != nil {
		return nil, err
	}
	t.variant = v
	switch {
	case v.CopiesOf() != DefaultCopies:
		t.value, t.advantage = nil, nil
		t.copiesSlot = make([]map[string]int, max(v.TurnLimit, 1))
		for i := range t.copiesSlot {
			t.copiesSlot[i] = map[string]int{}
		}
	case v.TurnLimit > 0:
		t.value = nanSlice(len(t.value) * v.TurnLimit)
		t.advantage = nanSlice(len(t.advantage) * v.TurnLimit)
	}
	return t, nil
}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// Variant returns the rule variant of the table's games (Copies written out).
func (t *LuckTable) Variant() Variant { return t.variant.Normal() }

// layerSlots returns the number of slots of one layer of count states.
func (t *LuckTable) layerSlots() int {
	return (t.maxPairs + 1) * (t.maxPairs + 1) * (t.singletons + 1) * 2
}

// turnSlot returns the index of st with left turns left (this one included), or -1 when the table
// is not of a turn limit or does not cover it.
func (t *LuckTable) turnSlot(st State, afterPass bool, left int) int {
	i := t.countSlot(st, afterPass)
	if t.variant.TurnLimit == 0 || t.copiesSlot != nil || i < 0 || left < 1 || left > t.variant.TurnLimit {
		return -1
	}
	return (left-1)*t.layerSlots() + i
}

// SetTurnValue records every seat's value in st with left turns left (a table of a turn limit).
// It panics where SetValue does, or for a table of no turn limit.
func (t *LuckTable) SetTurnValue(st State, afterPass bool, left int, values []float64) {
	i := t.mustTurnSlot(st, afterPass, left, values)
	copy(t.value[i*t.players:(i+1)*t.players], values)
}

// SetTurnAdvantage records every seat's advantage of choice c in st with left turns left. It
// panics as SetTurnValue does.
func (t *LuckTable) SetTurnAdvantage(st State, afterPass bool, left int, c Choice, advantages []float64) {
	i := t.mustTurnSlot(st, afterPass, left, advantages)
	t.setAdvantage(i, c, advantages)
}

func (t *LuckTable) mustTurnSlot(st State, afterPass bool, left int, v []float64) int {
	i := t.turnSlot(st, afterPass, left)
	if i < 0 || len(v) != t.players {
		panic(fmt.Sprintf("rules: luck table (%d pairs, %d singletons, %d players, %s) cannot hold %d values for %v with %d turns left",
			t.maxPairs, t.singletons, t.players, t.variant, len(v), st, left))
	}
	return i
}

func (t *LuckTable) setAdvantage(slot int, c Choice, advantages []float64) {
	if c >= NumChoices {
		panic(fmt.Sprintf("rules: luck table: choice %d", c))
	}
	k := slot*int(NumChoices) + int(c)
	copy(t.advantage[k*t.players:(k+1)*t.players], advantages)
}

// TurnValues returns every seat's value in st with left turns left (index r: the seat r seats
// after the mover), or nil where the table does not cover it. The slice is the table's.
func (t *LuckTable) TurnValues(st State, afterPass bool, left int) []float64 {
	return t.valuesAt(t.turnSlot(st, afterPass, left))
}

// TurnAdvantages returns every seat's advantage of c in st with left turns left (NaN where
// unset), or nil where the table does not cover it. The slice is the table's.
func (t *LuckTable) TurnAdvantages(st State, afterPass bool, left int, c Choice) []float64 {
	return t.advantagesAt(t.turnSlot(st, afterPass, left), c)
}

func (t *LuckTable) valuesAt(i int) []float64 {
	if i < 0 {
		return nil
	}
	return t.value[i*t.players : (i+1)*t.players : (i+1)*t.players]
}

func (t *LuckTable) advantagesAt(i int, c Choice) []float64 {
	if i < 0 || c >= NumChoices {
		return nil
	}
	k := (i*int(NumChoices) + int(c)) * t.players
	return t.advantage[k : k+t.players : k+t.players]
}

// copiesLayer returns the slots of the states of faces with left turns left (0 and any other for a
// table of no turn limit), or nil where the table holds none.
func (t *LuckTable) copiesLayer(left int) map[string]int {
	switch {
	case t.copiesSlot == nil:
		return nil
	case t.variant.TurnLimit == 0:
		return t.copiesSlot[0]
	case left < 1 || left > t.variant.TurnLimit:
		return nil
	}
	return t.copiesSlot[left-1]
}

// copiesSlotOf returns the slot of the state of faces counts with left turns left, adding one
// where there is none.
func (t *LuckTable) copiesSlotOf(counts []int, left int, v []float64) int {
	layer := t.copiesLayer(left)
	if layer == nil || len(counts) != t.variant.CopiesOf() || len(v) != t.players {
		panic(fmt.Sprintf("rules: luck table (%d players, %s) cannot hold %d values for the state of faces %v with %d turns left",
			t.players, t.variant, len(v), counts, left))
	}
	key := string(AppendCopiesKey(nil, counts))
	i, ok := layer[key]
	if !ok {
		i = len(t.value) / t.players
		layer[key] = i
		t.value = append(t.value, nanSlice(t.players)...)
		t.advantage = append(t.advantage, nanSlice(int(NumChoices)*t.players)...)
	}
	return i
}

// SetCopiesValue records every seat's value in the state of faces counts (CopiesTable's: counts[2i+b]
// the faces with 2(i+1) cards on the table, b of them remembered). It panics for a table not of
// more than two copies, or values without one entry per seat.
func (t *LuckTable) SetCopiesValue(counts []int, values []float64) {
	t.SetCopiesTurnValue(counts, 0, values)
}

// SetCopiesAdvantage records every seat's advantage of choice c in the state of faces counts. It
// panics as SetCopiesValue does.
func (t *LuckTable) SetCopiesAdvantage(counts []int, c Choice, advantages []float64) {
	t.SetCopiesTurnAdvantage(counts, 0, c, advantages)
}

// SetCopiesTurnValue records every seat's value in the state of faces counts with left turns
// left, this one included (a table of copies under a turn limit; left is ignored without one). It
// panics as SetCopiesValue does, or for left outside 1 .. TurnLimit under a limit.
func (t *LuckTable) SetCopiesTurnValue(counts []int, left int, values []float64) {
	i := t.copiesSlotOf(counts, left, values)
	copy(t.value[i*t.players:(i+1)*t.players], values)
}

// SetCopiesTurnAdvantage records every seat's advantage of choice c in the state of faces counts
// with left turns left. It panics as SetCopiesTurnValue does.
func (t *LuckTable) SetCopiesTurnAdvantage(counts []int, left int, c Choice, advantages []float64) {
	t.setAdvantage(t.copiesSlotOf(counts, left, advantages), c, advantages)
}

// CopiesStates returns the number of states of faces the table holds, counted once per number of
// turns left under a turn limit (0 for other tables).
func (t *LuckTable) CopiesStates() int {
	n := 0
	for _, layer := range t.copiesSlot {
		n += len(layer)
	}
	return n
}

// CopiesValues returns every seat's value in the state of faces whose key (AppendCopiesKey) is
// key, or nil where the table holds none (or is of a turn limit: see CopiesTurnValues). The slice
// is the table's.
func (t *LuckTable) CopiesValues(key []byte) []float64 {
	if t.variant.TurnLimit > 0 {
		return nil
	}
	return t.CopiesTurnValues(key, 0)
}

// CopiesAdvantages returns every seat's advantage of c in the state of faces whose key is key
// (NaN where unset), or nil where the table holds none (or is of a turn limit). The slice is the
// table's.
func (t *LuckTable) CopiesAdvantages(key []byte, c Choice) []float64 {
	if t.variant.TurnLimit > 0 {
		return nil
	}
	return t.CopiesTurnAdvantages(key, 0, c)
}

// CopiesTurnValues returns every seat's value in the state of faces whose key is key with left
// turns left, this one included (left is ignored by a table of no turn limit), or nil where the
// table holds none. The slice is the table's.
func (t *LuckTable) CopiesTurnValues(key []byte, left int) []float64 {
	i, ok := t.copiesLayer(left)[string(key)]
	if !ok {
		return nil
	}
	return t.valuesAt(i)
}

// CopiesTurnAdvantages returns every seat's advantage of c in the state of faces whose key is key
// with left turns left (NaN where unset), or nil where the table holds none. The slice is the
// table's.
func (t *LuckTable) CopiesTurnAdvantages(key []byte, left int, c Choice) []float64 {
	i, ok := t.copiesLayer(left)[string(key)]
	if !ok {
		return nil
	}
	return t.advantagesAt(i, c)
}
