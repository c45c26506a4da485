package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A turn limit in the copies model under a shared decay memory (copiesdecay.go; docs/models.md
// §4.16, "A decay memory", and §4.18), two seats, every pass rule. The cells and their outcomes
// are the decay model's (the hand-over's forgetting drawn card by card, a pass's included); the
// turns left are counted as under the handover-uniform memory (copiesmemlimit.go): every turn uses
// one, a turn that takes a pair, one that hands the move over (the next seat takes the pair the
// turn left known whole, if both its cards survived, in a turn of its own, only when one is left)
// and a pass; a pass just after a pass is a stalemate at any t, the pairs left shared equally;
// with t = 0 the pairs left count for nobody. Every cell refers to cells with fewer turns left, so
// the cycles of the forgetting unroll into layers solved from t = 1 up, no system to solve
// (cmLimit, shared with the handover-uniform memory).

// CopiesDecayPolicyTurnTables returns, under the turn limit T of the copies model under a shared
// decay memory m (docs/models.md §4.16, "A decay memory"), two seats and every pass rule, the
// choices of seat 0's policy of mu (optimal, or best-response to the other seat's optimal, safe
// or daring) with each number of turns left: layers[t-1] holds those with t turns left, t = 1 ..
// T, in every state of faces a game of the given number of pairs reaches from its start (with
// seat 0's choice just after a pass), and so in every smaller game's. The engine plays optimal
// and best-response from them (rules.NewTurnChoiceTable of rules.NewCopiesChoiceTable layers).
// Each choice is the first of the largest lead in the order of rules.Choices.
func CopiesDecayPolicyTurnTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) ([]*rules.CopiesTable, error) {
	k := m.Variant.CopiesOf()
	if !isCopiesDecay(m) {
		return nil, fmt.Errorf("copies %d with %s: not the copies model under a decay memory (see CopiesPolicyTurnTables)", k, m.Memory)
	}
	return copiesLimitTurnTables(ctx, f, m, mu, pairs) // copiesmemlimit.go
}
