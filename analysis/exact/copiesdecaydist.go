package exact

import (
	"context"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The distributions of the copies model under a shared decay memory (copiesdecay.go;
// docs/models.md §4.16, "A decay memory"): at two seats under every pass rule, seat 0's share of
// the pairs, and in solitaire, the number of turns. Both are computed as under the
// handover-uniform memory (copiesmemdist.go), over the strongly connected components of the
// outcome graph in place of its groups: a turn that takes a pair, or leaves one known whole for
// the next seat, leads to a state of fewer pairs, so within a component the cells refer to each
// other only through hand-overs that take nothing (a pass's included), and each component's
// distributions are one system of linear equations; solitaire's turns are computed in order of t.

// copiesDecayDistribution is CopiesDistribution under a decay memory.
func copiesDecayDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st CopiesState) (ScoreDistribution[T], error) {
	if m.Variant.TurnLimit > 0 {
		return copiesMemLimitDistribution(ctx, f, m, mu, st) // copiesmemlimitdist.go
	}
	s, err := newCopiesDecaySolver(ctx, f, m, mu, st)
	if err != nil {
		return ScoreDistribution[T]{}, err
	}
	if err := s.solve(); err != nil {
		return ScoreDistribution[T]{}, err
	}
	return s.scoreDistribution(s.components(), st) // copiesmemdist.go
}

// copiesDecaySolitaireTurns is SolitaireTurns with copies of a face under a decay memory, from
// the start of a game of st.N pairs (solitaireTurnsCopies checks st).
func copiesDecaySolitaireTurns[T any](ctx context.Context, f field.Field[T], m Model, p rules.Policy, st rules.State, start CopiesState, maxTurns int) (TurnsDistribution[T], error) {
	s, err := newCopiesDecaySolver(ctx, f, m, Lineup{Players: 1, Policy: p, Opponent: p}, start)
	if err != nil {
		return TurnsDistribution[T]{}, err
	}
	if err := s.solve(); err != nil {
		return TurnsDistribution[T]{}, err
	}
	return s.solitaireTurns(st, maxTurns) // copiesmemdist.go
}
