package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The best reply under a fluctuating capacity (docs/models.md §4.4): one role plays best-response
// to the other's optimal, safe or daring. Its row is the system of both roles' unknowns in which
// the replying role chooses at every (k, c) after the draw and the other role's equations are
// fixed; one maximiser's policy iteration (choiceSys) solves it, as the optimum's row is solved.

// replyRow solves the row of n pairs with role s.br replying, given the row's unknowns (nodes,
// at pos) and capacities.
func (s *fluctSweep[T]) replyRow(n int, nodes []fluctNode, caps []fluctCap, pos map[fluctNode]int) error {
	N := len(nodes)
	index := func(k, role int) int { return role*N + pos[fluctNode{k: k}] }
	sys := &choiceSys[T]{sign: 1, fixed: make([]decayEq[T], 2*N)}
	for r := range 2 {
		at := func(k, c int) int { return r*N + pos[fluctNode{k: k, c: c}] }
		for i, nd := range nodes {
			switch {
			case nd.c == 0:
				sys.fixed[r*N+i] = s.drawEq(nd.k, caps, at)
			case r == s.br:
				sys.at = append(sys.at, r*N+i)
				sys.eqs = append(sys.eqs, s.choiceEqs(n, nd, r, index))
			default:
				ch, err := s.choice(r, n, nd.k, nd.c)
				if err != nil {
					return err
				}
				sys.fixed[r*N+i] = *s.choiceEq(n, nd.k, nd.c, ch, s.prev.w[r], s.prev.w[1-r], s.prev2.w[1-r], 1-r, index)
			}
		}
	}
	ch, x, _, err := sys.solve(s.f)
	if err != nil {
		return fmt.Errorf("%d pairs: %w", n, err)
	}
	byCap := make([][]rules.Choice, caps[len(caps)-1].c+1)
	for t, i := range sys.at {
		nd := nodes[i-s.br*N]
		if byCap[nd.c] == nil {
			byCap[nd.c] = make([]rules.Choice, min(n, s.maxK)+1)
		}
		byCap[nd.c][nd.k] = ch[t]
	}
	s.brChoice = append(s.brChoice, byCap)
	for r := range 2 {
		s.cur.w[r] = make([]T, min(n, s.maxK)+1)
		for k := range s.cur.w[r] {
			s.cur.w[r][k] = x[index(k, r)][0]
		}
	}
	return nil
}

// choiceEqs returns the equation of role r's every legal choice at node nd (after the draw) of
// the row of n pairs, nil where a choice is illegal.
func (s *fluctSweep[T]) choiceEqs(n int, nd fluctNode, r int, index func(k, role int) int) [rules.NumChoices]*decayEq[T] {
	var eqs [rules.NumChoices]*decayEq[T]
	for _, ch := range rules.Choices() {
		if s.m.Legal(rules.State{N: n, J: n - nd.k}, ch) {
			eqs[ch] = s.choiceEq(n, nd.k, nd.c, ch, s.prev.w[r], s.prev.w[1-r], s.prev2.w[1-r], 1-r, index)
		}
	}
	return eqs
}

// FluctReplyTable returns the choices of best-response to opponent (optimal, safe or daring)
// under the fluctuating capacity of model m (two players) in every state of at most maxPairs
// pairs and every capacity drawn, laid out as FluctTable's.
func FluctReplyTable[T any](ctx context.Context, f field.Field[T], m Model, opponent rules.Policy, maxPairs int) (*rules.ChoiceTable, error) {
	if IsFluctSingles(m) {
		return fluctSinglesTable(ctx, f, m, Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: opponent}, maxPairs) // fluctsingles.go
	}
	s, err := newFluctSweep(f, m, Lineup{Players: 2, Policy: rules.PolicyBestResponse, Opponent: opponent})
	if err != nil {
		return nil, err
	}
	if err := s.run(ctx, maxPairs, nil); err != nil {
		return nil, err
	}
	return capacityLayers(s.m, maxPairs, s.lru(), s.brChoice, s.afterPass(s.brAfter))
}
