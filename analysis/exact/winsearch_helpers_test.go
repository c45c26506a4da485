package exact

import (
	"math/big"

	"memsim/sim/rules"
)

// newWinSearch returns a card-level search (copiesWinSearch) over the deals all, equally likely,
// a seat to each policy of pol, under sequential or blind flips, the turn limit (0: none) and
// the pass rule given.
func newWinSearch(all [][]int, pol []rules.Policy, blind bool, limit int, rule rules.PassRule) *copiesWinSearch {
	return &copiesWinSearch{deals: all, players: len(pol), blind: blind, limit: limit, rule: rule, pol: pol, memo: map[string][]*big.Rat{}}
}

// startCards returns a search's table before a card is turned up: positions cards unseen, the
// players' pairs taken the standings (nil: none), limit turns left (0: no limit) and streak
// seats passed in a row just before seat 0's turn.
func startCards(positions, players int, standings []int, limit, streak int) cards {
	c := cards{obs: make([]int, positions), pairs: make([]int, players), left: limit, streak: streak}
	for i := range c.obs {
		c.obs[i] = -1
	}
	copy(c.pairs, standings)
	return c
}
