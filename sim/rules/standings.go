package rules

import "fmt"

// Standings: what a policy that plays to win at three or more seats reads besides the counts
// (docs/models.md §4.7, "Win objective"). Every seat's score is P(it ends with the most pairs),
// a tie for the most shared equally, so only the seats' pairs so far relative to the most matter:
// the deficit of each seat, the most pairs minus its own. A seat more than n pairs behind with n
// pairs left can no longer reach the most, so every deficit beyond n + 1 is n + 1: the standings
// of a state are the deficits, in order from the mover, each 0 .. n + 1, at least one 0.

// Deficits writes into dst (len(dst) = len(pairs)) the standings of a state with n pairs left in
// which seat s, in order from the mover, has taken pairs[s] pairs so far: each seat's deficit to
// the most, capped at n + 1.
func Deficits(dst, pairs []int, n int) {
	most := pairs[0]
	for _, v := range pairs[1:] {
		most = max(most, v)
	}
	for s, v := range pairs {
		dst[s] = min(most-v, n+1)
	}
}

// StandingsIndex returns the index of the standings d (deficits 0 .. n + 1, in order from the
// mover) among the (n + 2)^len(d) vectors of that many deficits: d[0] is the lowest digit.
func StandingsIndex(d []int, n int) int {
	i := 0
	for s := len(d) - 1; s >= 0; s-- {
		i = i*(n+2) + d[s]
	}
	return i
}

// StandingsCount returns the number of standings indices of p seats with n pairs left: (n + 2)^p.
func StandingsCount(p, n int) int {
	c := 1
	for range p {
		c *= n + 2
	}
	return c
}

// StandingsTable holds the choices of a policy that plays to win at Players() seats: a choice for
// every count state (n, j, s, f) with n <= MaxPairs and s = Singletons and every standings of the
// seats (Deficits); a table made by NewStandingsPassTable also holds a choice at every pass streak.
type StandingsTable struct {
	players, maxPairs, singletons int
	// base[n] is the first slot of the states with n pairs; a state (n, j, f) holds
	// StandingsCount(players, n) slots from base[n] + (j*(singletons+1)+f)*StandingsCount.
	base   []int
	choice []Choice
	// more holds, in a table made by NewStandingsPassTable, the choices after k = 1 .. players-1
	// seats passed in a row: streak k's from (k-1)*len(choice) (standingspass.go).
	more []Choice
}

// NewStandingsTable returns a table with no choice set for players seats (3 to MaxPlayers), states
// with at most maxPairs pairs and exactly singletons singletons.
func NewStandingsTable(players, maxPairs, singletons int) (*StandingsTable, error) {
	if players < 3 || players > MaxPlayers || maxPairs < 0 || singletons < 0 {
		return nil, fmt.Errorf("standings table for %d seats, %d pairs and %d singletons: needs 3 to %d seats and no negative count", players, maxPairs, singletons, MaxPlayers)
	}
	t := &StandingsTable{players: players, maxPairs: maxPairs, singletons: singletons, base: make([]int, maxPairs+2)}
	for n := 0; n <= maxPairs; n++ {
		t.base[n+1] = t.base[n] + (n+1)*(singletons+1)*StandingsCount(players, n)
	}
	t.choice = make([]Choice, t.base[maxPairs+1])
	for i := range t.choice {
		t.choice[i] = noChoice
	}
	return t, nil
}

// Players returns the number of seats of the table.
func (t *StandingsTable) Players() int { return t.players }

// MaxPairs returns the largest number of pairs the table covers.
func (t *StandingsTable) MaxPairs() int { return t.maxPairs }

// slot returns the index of a state with the standings d, or -1 when the table does not cover it.
func (t *StandingsTable) slot(st State, d []int) int {
	if st.N < 0 || st.N > t.maxPairs || st.J < 0 || st.J > st.N || st.S != t.singletons || st.F < 0 || st.F > st.S || len(d) != t.players {
		return -1
	}
	for _, v := range d {
		if v < 0 || v > st.N+1 {
			return -1
		}
	}
	k := StandingsCount(t.players, st.N)
	return t.base[st.N] + (st.J*(t.singletons+1)+st.F)*k + StandingsIndex(d, st.N)
}

// Set records the choice made in st with the standings d. It panics if the table does not cover
// them: tables are filled by solvers, over the states they are built for.
func (t *StandingsTable) Set(st State, d []int, c Choice) {
	i := t.slot(st, d)
	if i < 0 {
		panic(fmt.Sprintf("rules: standings table (%d seats, %d pairs, %d singletons) does not cover %v with standings %v", t.players, t.maxPairs, t.singletons, st, d))
	}
	t.choice[i] = c
}

// Lookup returns the choice made in st by the mover when seat s, in order from the mover, has
// taken pairs[s] pairs so far, and whether the table holds one.
func (t *StandingsTable) Lookup(st State, pairs []int) (Choice, bool) {
	if len(pairs) != t.players {
		return 0, false
	}
	var buf [MaxPlayers]int
	d := buf[:t.players]
	Deficits(d, pairs, st.N)
	i := t.slot(st, d)
	if i < 0 || t.choice[i] == noChoice {
		return 0, false
	}
	return t.choice[i], true
}

// NewStandingsChoiceTable returns a choice table whose choices are those of st, read by the count
// state and the seats' pairs so far (ChoiceTable.Standings).
func NewStandingsChoiceTable(st *StandingsTable) (*ChoiceTable, error) {
	if st == nil {
		return nil, fmt.Errorf("no standings table")
	}
	t, err := NewChoiceTable(st.maxPairs, st.singletons)
	if err != nil {
		return nil, err
	}
	t.standings = st
	return t, nil
}

// Standings returns the table's choices by the seats' standings at three or more seats, or nil
// for a table read by the count state (and the lead) alone.
func (t *ChoiceTable) Standings() *StandingsTable { return t.standings }
