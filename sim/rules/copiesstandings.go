package rules

import "fmt"

// NewCopiesStandingsTable returns an empty table for deals of the given number of cards to a
// face, for a policy that plays to win at players seats (3 to MaxPlayers): a choice in every
// state of faces at every standings, the seats' deficits to the most pairs so far in order from
// the mover (Deficits, capped at the pairs on the table plus one).
func NewCopiesStandingsTable(copies, players int) (*CopiesTable, error) {
	if players < 3 || players > MaxPlayers {
		return nil, fmt.Errorf("copies table: standings of %d seats, need 3 to %d", players, MaxPlayers)
	}
	t := NewCopiesTable(copies)
	t.players = players
	return t, nil
}

// StandingsPlayers returns the seats of a table with a dimension of standings
// (NewCopiesStandingsTable), or 0 for a table without one.
func (t *CopiesTable) StandingsPlayers() int { return t.players }

// SetStandings records choice c in the state counts at the standings d (Deficits, in order from
// the mover), in a table with a dimension of standings.
func (t *CopiesTable) SetStandings(counts, d []int, c Choice) error {
	return t.SetStandingsPasses(counts, d, 0, c)
}

// SetStandingsPasses records choice c in the state counts at the standings d (Deficits, in order
// from the mover) after k seats passed in a row (0 to players-1; under pass rules two-known and
// always), in a table with a dimension of standings.
func (t *CopiesTable) SetStandingsPasses(counts, d []int, k int, c Choice) error {
	switch {
	case k < 0 || k >= max(t.players, 1):
		return fmt.Errorf("copies table: %d passes in a row at %d seats, not 0 to %d", k, t.players, t.players-1)
	case t.players == 0:
		return fmt.Errorf("copies table: no dimension of standings (a table of win-optimal at three or more seats has one)")
	case len(counts) != t.copies:
		return fmt.Errorf("copies table: a state of %d counts, not %d", len(counts), t.copies)
	case len(d) != t.players:
		return fmt.Errorf("copies table: standings of %d seats, not %d", len(d), t.players)
	}
	n := copiesPairs(counts)
	for _, x := range d {
		if x < 0 || x > n+1 {
			return fmt.Errorf("copies table: deficit %d in a state of %d pairs, which holds 0 to %d", x, n, n+1)
		}
	}
	key := string(appendStandings(AppendCopiesKey(nil, counts), d))
	if k == 0 {
		t.choices[key] = c
		return nil
	}
	for len(t.afterPasses) < k {
		t.afterPasses = append(t.afterPasses, map[string]Choice{})
	}
	t.afterPasses[k-1][key] = c
	return nil
}

// LookupStandingsKey returns the choice in the state whose key (AppendCopiesKey) is key, every
// seat having taken pairs[s] pairs so far in order from the mover, in a table with a dimension
// of standings.
func (t *CopiesTable) LookupStandingsKey(key []byte, pairs []int) (Choice, bool) {
	return t.LookupStandingsPassesKey(key, pairs, 0)
}

// LookupStandingsPassesKey is LookupStandingsKey after k seats passed in a row: a table without
// choices after a pass gives its one choice at every k, and one with choices after fewer passes
// than k has no choice there.
func (t *CopiesTable) LookupStandingsPassesKey(key []byte, pairs []int, k int) (Choice, bool) {
	choices := t.choices
	switch {
	case k == 0 || t.afterPasses == nil:
	case k > len(t.afterPasses):
		return 0, false
	default:
		choices = t.afterPasses[k-1]
	}
	if t.players == 0 || len(pairs) != t.players {
		return 0, false
	}
	n := 0
	for i := 0; 2*i+1 < len(key); i++ {
		n += (i/2 + 1) * (int(key[2*i]) | int(key[2*i+1])<<8)
	}
	var buf [MaxPlayers]int
	d := buf[:t.players]
	Deficits(d, pairs, n)
	var kb [2*2*MaxCopies + 2*MaxPlayers]byte
	c, ok := choices[string(appendStandings(append(kb[:0], key...), d))]
	return c, ok
}

// appendStandings appends the standings d to a state's key, two bytes a seat.
func appendStandings(b []byte, d []int) []byte {
	for _, x := range d {
		b = append(b, byte(x), byte(x>>8))
	}
	return b
}
