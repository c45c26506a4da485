package exact

import (
	"fmt"

	"memsim/sim/rules"
)

// The win objective at three to eight seats under limited shared memory (lru and
// handover-uniform of a fixed capacity) and a turn limit (docs/models.md §4.7, §4.18). Without a
// limit a forgotten card hands the same count state to the next seat, which links the positions
// of a count state in cycles solved for a selected stationary equilibrium (selfishwinlimited.go).
// Under a limit that turn uses one of the turns left: the next seat moves in the same count state
// with t-1 turns left, a cell of the layer before, so the sweep of selfishwinlimit.go solves it
// as it solves perfect memory, by backward induction over the turns left with no self-reference:
// the count state's outcomes (Model.Outcomes) carry the forgetting, and a pair the turn leaves
// known whole is taken by the next seat first, a turn each, while one is left. A pass forgets
// nothing (it shows no new card), so the pass streak of selfishwinlimitpass.go is the same. The
// values are then the subgame-perfect equilibrium of the game at count level, the first choice of
// largest own score in the order daring, safe, known-first, pass; a seat of win-best-response
// beside win-optimal plays win-optimal's choices (winReplyLimited), as with perfect memory.

// checkSelfWinLimitMemory reports whether memory mem has the win objective at p seats under a
// turn limit: perfect, or shared lru or handover-uniform of a fixed capacity, or shared decay
// forgetting with or without a capacity (selfishwinlimitdecay.go; Model.Validate checks the rest:
// sequential flips, no singletons).
func checkSelfWinLimitMemory(mem rules.Memory, p int) error {
	switch {
	case mem.Perfect():
		return nil
	case mem.Scope != rules.ScopeShared:
		return fmt.Errorf("memory %s: the win objective at %d seats under a turn limit is solved with a shared memory", mem, p)
	case mem.Fluctuation > 0:
		return fmt.Errorf("memory %s: the win objective at %d seats under a turn limit is solved with a fixed capacity, not a fluctuating one", mem, p)
	}
	return nil
}
