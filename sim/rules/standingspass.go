package rules

import "fmt"

// NewStandingsPassTable returns a standings table with no choice set for a pass rule other than
// never: besides the count state and the standings, a choice for every pass streak k = 0 ..
// players-1, the number of seats that passed in a row just before the turn (docs/models.md §4.7).
func NewStandingsPassTable(players, maxPairs, singletons int) (*StandingsTable, error) {
	t, err := NewStandingsTable(players, maxPairs, singletons)
	if err != nil {
		return nil, err
	}
	t.more = make([]Choice, (players-1)*len(t.choice))
	for i := range t.more {
		t.more[i] = noChoice
	}
	return t, nil
}

// PassLevels returns the number of pass streaks the table tells apart: 1 for a table made by
// NewStandingsTable, its seats for one made by NewStandingsPassTable.
func (t *StandingsTable) PassLevels() int {
	return 1 + len(t.more)/max(len(t.choice), 1)
}

// SetPasses records the choice made in st with the standings d after k seats passed in a row. It
// panics if the table does not cover them, as Set does.
func (t *StandingsTable) SetPasses(st State, d []int, k int, c Choice) {
	if k < 0 || k >= t.PassLevels() {
		panic(fmt.Sprintf("rules: standings table of %d pass streaks has no streak %d", t.PassLevels(), k))
	}
	if k == 0 {
		t.Set(st, d, c)
		return
	}
	i := t.slot(st, d)
	if i < 0 {
		panic(fmt.Sprintf("rules: standings table (%d seats, %d pairs, %d singletons) does not cover %v with standings %v", t.players, t.maxPairs, t.singletons, st, d))
	}
	t.more[(k-1)*len(t.choice)+i] = c
}

// LookupPasses returns the choice made in st after k seats passed in a row when seat s, in order
// from the mover, has taken pairs[s] pairs so far, and whether the table holds one. A table that
// does not tell streak k apart reads its last streak.
func (t *StandingsTable) LookupPasses(st State, pairs []int, k int) (Choice, bool) {
	k = min(max(k, 0), t.PassLevels()-1)
	if k == 0 {
		return t.Lookup(st, pairs)
	}
	if len(pairs) != t.players {
		return 0, false
	}
	var buf [MaxPlayers]int
	d := buf[:t.players]
	Deficits(d, pairs, st.N)
	i := t.slot(st, d)
	if i < 0 || t.more[(k-1)*len(t.choice)+i] == noChoice {
		return 0, false
	}
	return t.more[(k-1)*len(t.choice)+i], true
}

// WithStates returns a copy of t in which every count state st the table covers holds the choices
// of near(st), a state the table covers with as many pairs, at every standings and pass streak
// (a memory whose capacity is drawn below the cards a state remembers plays the state brought
// down to it).
func (t *StandingsTable) WithStates(near func(State) State) *StandingsTable {
	out := *t
	out.choice = make([]Choice, len(t.choice))
	out.more = make([]Choice, len(t.more))
	for n := 0; n <= t.maxPairs; n++ {
		k := StandingsCount(t.players, n)
		for j := 0; j <= n; j++ {
			for f := 0; f <= t.singletons; f++ {
				src := near(State{N: n, J: j, S: t.singletons, F: f})
				to := t.base[n] + (j*(t.singletons+1)+f)*k
				from := t.base[n] + (src.J*(t.singletons+1)+src.F)*k
				copy(out.choice[to:to+k], t.choice[from:from+k])
				for l := 0; l < len(t.more); l += len(t.choice) {
					copy(out.more[l+to:l+to+k], t.more[l+from:l+from+k])
				}
			}
		}
	}
	return &out
}
