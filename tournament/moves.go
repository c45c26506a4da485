package tournament

import (
	"memsim/sim"
	"memsim/sim/rules"
)

// The choices a turn shows that are not one choice of rules.Choice: the table cannot tell daring
// from safe, or the turn takes a pair both of whose cards are known (docs/models.md §3.1).
const (
	// DaringOrSafe is a new first card that is a singleton, or whose partner was seen, followed
	// by the card daring and safe both flip then.
	DaringOrSafe = "daring or safe"
	// KnownPair is a turn that flips both cards of a pair, each seen before.
	KnownPair = "known pair"
)

// A Move is one turn of a logged game with what the table shows of it: which cards had been seen
// before, and so which choice (docs/models.md §3.2) the turn made.
type Move struct {
	sim.LoggedTurn
	// Seen says, flip by flip, whether the card had been face up earlier in the game: whether a
	// perfect memory knew it.
	Seen []bool
	// Choice names the choice the flips show, read from the table as a perfect memory sees it:
	// "daring" (a new card whose partner was not seen, then another new card), "safe" (a new
	// card whose partner was not seen, then a seen card), DaringOrSafe, "known-first" (a seen
	// card, then a new one), "pass" (no flip, or two seen cards that are not a pair) or
	// KnownPair. A player of limited memory may have forgotten a card the table shows as seen:
	// its choice is named as a perfect memory would name the same flips.
	Choice string
}

// Moves reads the choice of every turn of the log from its flips alone (see Move): the engine
// logs what happened on the table, never what a player thought.
func Moves(log *sim.Log) []Move {
	seen := map[int]bool{} // the positions of the cards face up earlier, still on the table
	face := map[int]int{}  // their faces
	out := make([]Move, len(log.Turns))
	for i, t := range log.Turns {
		m := Move{LoggedTurn: t, Seen: make([]bool, len(t.Flips))}
		for k, c := range t.Flips {
			m.Seen[k] = seen[c.Pos]
		}
		m.Choice = shownChoice(log, t.Flips, m.Seen, seen, face)
		for _, c := range t.Flips {
			seen[c.Pos], face[c.Pos] = true, c.Face
		}
		if t.End == "pair" {
			for _, c := range t.Flips {
				delete(seen, c.Pos)
			}
		}
		out[i] = m
	}
	return out
}

// shownChoice names the choice of a turn that flipped flips, whose cards were seen before or not
// (flipSeen), given the cards seen before the turn (seen, with their faces).
func shownChoice(log *sim.Log, flips []sim.Card, flipSeen []bool, seen map[int]bool, face map[int]int) string {
	if len(flips) != 2 {
		return rules.Pass.String()
	}
	first, second := flips[0], flips[1]
	switch {
	case flipSeen[0] && flipSeen[1] && first.Face == second.Face:
		return KnownPair
	case flipSeen[0] && flipSeen[1]:
		return rules.Pass.String()
	case flipSeen[0]:
		return rules.KnownFirst.String()
	}
	partnerSeen := false
	for p := range seen {
		if p != first.Pos && face[p] == first.Face {
			partnerSeen = true
		}
	}
	switch {
	case first.Face >= log.Pairs, partnerSeen && second.Face == first.Face:
		return DaringOrSafe
	case flipSeen[1]:
		return rules.Safe.String()
	}
	return rules.Daring.String()
}
