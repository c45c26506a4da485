package rules

import (
	"fmt"
	"math"
)

// LuckTable is a reference value function for luck-adjusted estimates (docs/models.md §5.6),
// written out state by state for one model (a shared memory, a pass rule, a number of
// singletons) and a number of seats. For every count state (n, j, s, f) with n <= MaxPairs and
// s = Singletons, once for a turn that follows a pass by the previous seat and once for any other
// turn, it holds:
//
//   - Value: the expected number of the pairs still on the table that each seat collects under
//     the reference play (offset r = 0 is the mover, r = 1 the next seat, ...);
//   - Advantage: for every choice legal there, the expected change of that value over the turn
//     begun with the choice (one step of the model's transitions, the reference play afterwards)
//     minus the value itself. The reference play's own choice has advantage zero.
//
// Solvers fill it in; the card-level engine reads it. A seat's luck-adjusted score is the value of
// the first state plus the advantages of the choices made along the game: the outcome with the
// luck of every card taken out.
type LuckTable struct {
	memory     Memory
	pass       PassRule
	singletons int
	players    int
	maxPairs   int
	reference  string
	value      []float64 // index: slot*players + r; NaN where unset
	advantage  []float64 // index: (slot*NumChoices + c)*players + r; NaN where unset
	// variant is the rule variant of the table's games (luckvariant.go); a table of a turn limit
	// holds a layer of slots per number of turns left, and a table of more than two copies of a
	// face a slot per state of faces, numbered in copiesSlot (a map per number of turns left
	// under a turn limit, copiesSlot[t-1] with t left, else one).
	variant    Variant
	copiesSlot []map[string]int
}

// NewLuckTable returns a table with nothing set, for the model of a shared memory, a pass rule and
// a number of singletons, games of players seats and states of at most maxPairs pairs. reference
// says in words what the values are (for reports), for example "optimal self-play".
func NewLuckTable(memory Memory, pass PassRule, singletons, players, maxPairs int, reference string) (*LuckTable, error) {
	switch {
	case maxPairs < 0 || singletons < 0:
		return nil, fmt.Errorf("luck table for %d pairs and %d singletons: must not be negative", maxPairs, singletons)
	case players < 1 || players > MaxPlayers:
		return nil, fmt.Errorf("luck table for %d players: must be between 1 and %d", players, MaxPlayers)
	}
	if err := memory.Validate(); err != nil {
		return nil, err
	}
	t := &LuckTable{memory: memory, pass: pass, singletons: singletons, players: players, maxPairs: maxPairs, reference: reference}
	slots := (maxPairs + 1) * (maxPairs + 1) * (singletons + 1) * 2
	t.value = make([]float64, slots*players)
	t.advantage = make([]float64, slots*int(NumChoices)*players)
	for i := range t.value {
		t.value[i] = math.NaN()
	}
	for i := range t.advantage {
		t.advantage[i] = math.NaN()
	}
	return t, nil
}

// Memory returns the shared memory of the table's model.
func (t *LuckTable) Memory() Memory { return t.memory }

// Pass returns the pass rule of the table's model.
func (t *LuckTable) Pass() PassRule { return t.pass }

// Singletons returns the number of singletons of the table's states.
func (t *LuckTable) Singletons() int { return t.singletons }

// Players returns the number of seats of the games the table is for.
func (t *LuckTable) Players() int { return t.players }

// MaxPairs returns the largest number of pairs the table covers.
func (t *LuckTable) MaxPairs() int { return t.maxPairs }

// Reference says in words what the table's values are, for reports.
func (t *LuckTable) Reference() string { return t.reference }

// slot returns the index of a state in the table, or -1 when the table does not cover it.
func (t *LuckTable) slot(st State, afterPass bool) int {
	if t.variant.TurnLimit > 0 || t.copiesSlot != nil {
		return -1 // read by the turns left or by the state of faces (luckvariant.go)
	}
	return t.countSlot(st, afterPass)
}

// countSlot returns the index of a count state within one layer, or -1.
func (t *LuckTable) countSlot(st State, afterPass bool) int {
	if st.N < 0 || st.N > t.maxPairs || st.J < 0 || st.J > st.N || st.S != t.singletons || st.F < 0 || st.F > st.S {
		return -1
	}
	i := ((st.N*(t.maxPairs+1)+st.J)*(t.singletons+1) + st.F) * 2
	if afterPass {
		i++
	}
	return i
}

// SetValue records every seat's value in st (values[r] for the seat r after the mover). It panics
// if the table does not cover st or values has not one entry per seat: tables are filled by
// solvers, over the states they are built for.
func (t *LuckTable) SetValue(st State, afterPass bool, values []float64) {
	i := t.mustSlot(st, afterPass, values)
	copy(t.value[i*t.players:(i+1)*t.players], values)
}

// SetAdvantage records every seat's advantage of choice c in st (see LuckTable). It panics as
// SetValue does.
func (t *LuckTable) SetAdvantage(st State, afterPass bool, c Choice, advantages []float64) {
	i := t.mustSlot(st, afterPass, advantages)
	if c >= NumChoices {
		panic(fmt.Sprintf("rules: luck table: choice %d", c))
	}
	k := i*int(NumChoices) + int(c)
	copy(t.advantage[k*t.players:(k+1)*t.players], advantages)
}

func (t *LuckTable) mustSlot(st State, afterPass bool, v []float64) int {
	i := t.slot(st, afterPass)
	if i < 0 || len(v) != t.players {
		panic(fmt.Sprintf("rules: luck table (%d pairs, %d singletons, %d players) cannot hold %d values for %v", t.maxPairs, t.singletons, t.players, len(v), st))
	}
	return i
}

// Value returns the value in st of the seat r seats after the mover (r = 0: the mover), and
// whether the table holds one.
func (t *LuckTable) Value(st State, afterPass bool, r int) (float64, bool) {
	i := t.slot(st, afterPass)
	if i < 0 || r < 0 || r >= t.players {
		return 0, false
	}
	v := t.value[i*t.players+r]
	return v, !math.IsNaN(v)
}

// Advantage returns the advantage of choice c in st for the seat r seats after the mover, and
// whether the table holds one (c legal in st).
func (t *LuckTable) Advantage(st State, afterPass bool, c Choice, r int) (float64, bool) {
	i := t.slot(st, afterPass)
	if i < 0 || r < 0 || r >= t.players || c >= NumChoices {
		return 0, false
	}
	v := t.advantage[(i*int(NumChoices)+int(c))*t.players+r]
	return v, !math.IsNaN(v)
}

// Biased returns a copy of the table in which every advantage of choice c is moved by delta pairs
// in the mover's favour, taken evenly from the other seats: luck terms whose expectation is
// wrong, for the negative controls of the checks that rely on the table.
func (t *LuckTable) Biased(c Choice, delta float64) *LuckTable {
	u := *t // values are not changed: shared
	u.advantage = append([]float64(nil), t.advantage...)
	u.reference = t.reference + fmt.Sprintf(" (biased: %+g pairs to the mover for every %s)", delta, c)
	k := t.players
	for i := int(c) * k; i < len(u.advantage); i += int(NumChoices) * k {
		if math.IsNaN(u.advantage[i]) {
			continue
		}
		u.advantage[i] += delta
		for r := 1; r < k; r++ {
			u.advantage[i+r] -= delta / float64(k-1)
		}
	}
	return &u
}

// Values returns every seat's value in st (index r: the seat r seats after the mover), or nil
// where the table does not cover st. The slice is the table's: it must not be changed.
func (t *LuckTable) Values(st State, afterPass bool) []float64 {
	i := t.slot(st, afterPass)
	if i < 0 {
		return nil
	}
	return t.value[i*t.players : (i+1)*t.players : (i+1)*t.players]
}

// Advantages returns every seat's advantage of c in st (index r: the seat r seats after the
// mover; NaN where unset), or nil where the table does not cover st. The slice is the table's.
func (t *LuckTable) Advantages(st State, afterPass bool, c Choice) []float64 {
	i := t.slot(st, afterPass)
	if i < 0 || c >= NumChoices {
		return nil
	}
	k := (i*int(NumChoices) + int(c)) * t.players
	return t.advantage[k : k+t.players : k+t.players]
}
