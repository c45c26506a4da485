package exact

import (
	"context"
	"fmt"
	"slices"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The copies model under a turn limit (docs/models.md §4.16, §4.18): the state of faces gains the
// turns left, t. Every turn uses one, and a pair a turn leaves remembered whole costs the next seat
// a turn of its own, taken only when one is left (copiesSolver.after); with t = 0 the game is over
// and the pairs left count for nobody. No state refers to itself, so the memoised recursion of the
// copies model solves it as it is, over the states and numbers of turns left a game reaches: the
// values (EvaluateCopies), the choices' values (CopiesChoiceValues), the engine's tables, a layer
// per number of turns left (CopiesPolicyTurnTables), and the distribution of the two seats' shares
// (CopiesDistribution), carried forwards from the state turn by turn.

// CopiesPolicyTurnTables returns, under the turn limit T of the copies model m, the choices of
// seat 0's policy of mu (as CopiesPolicyTable has them) with each number of turns left:
// layers[t-1] holds those with t turns left, t = 1 .. T, in every state a game of at most the
// given number of pairs reaches with t turns left from its start (every deal size, each starting
// with T turns left). The engine plays optimal and best-response from them
// (rules.NewTurnChoiceTable of rules.NewCopiesChoiceTable layers). With one player optimal takes
// the most pairs by the limit, and then the fewest turns; with two the largest lead.
func CopiesPolicyTurnTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, pairs int) ([]*rules.CopiesTable, error) {
	if m.Variant.TurnLimit <= 0 {
		return nil, fmt.Errorf("copies %d: no turn limit, so the choices have no layer per number of turns left (see CopiesPolicyTable)", m.Variant.CopiesOf())
	}
	return copiesPolicyLayers(ctx, f, m, mu, pairs)
}

// copiesPos is a position of a game, at the start of a turn: the state of faces by its key, the
// seat to move, each seat's pairs taken so far, and whether the other seat has just passed.
type copiesPos struct {
	key    string
	seat   int
	a0, a1 int
	// passed says that the other seat has just passed (under a pass rule, copieswinpass.go).
	passed bool
}

// limitDistribution is CopiesDistribution under the solver's turn limit: the choices of both
// roles come from the backward recursion from st, and the probability of every position then
// follows forwards, a layer per number of turns left (every turn uses at least one). Prob[i] is
// the probability that seat 0 takes i/2 pairs by the limit (half pairs from a stalemate under a
// pass rule, which shares the pairs left); Win, Draw and Loss compare the two seats' pairs then.
// Prob1 is seat 1's. A pass uses a turn and leads to the next layer, just after a pass.
func (s *copiesSolver[T]) limitDistribution(st CopiesState) (ScoreDistribution[T], error) {
	f, n := s.f, st.Pairs()
	start := st.vec().key()
	if _, err := s.get(start, s.limit); err != nil {
		return ScoreDistribution[T]{}, err
	}
	d := ScoreDistribution[T]{State: st.RulesState(), Prob: s.zeros(2*n + 1), Prob1: s.zeros(2*n + 1),
		Win: s.zero, Draw: s.zero, Loss: s.zero}
	// end records a game that ends with the seats' shares h0 and h1, in half pairs.
	end := func(p T, h0, h1 int) {
		d.Prob[h0] = f.Add(d.Prob[h0], p)
		d.Prob1[h1] = f.Add(d.Prob1[h1], p)
		d.addResult(f, p, (h0-h1)/2)
	}
	layers := make([]map[copiesPos]T, s.limit+1)
	add := func(t int, at copiesPos, p T) {
		if layers[t] == nil {
			layers[t] = map[copiesPos]T{}
		}
		if q, ok := layers[t][at]; ok {
			p = f.Add(q, p)
		}
		layers[t][at] = p
	}
	if unknownCards(st.vec()) == 0 {
		end(s.one, 0, 0)
		return d, nil
	}
	add(s.limit, copiesPos{key: start}, s.one)
	for t := s.limit; t >= 1; t-- {
		if err := stoppedAtTurnsLeft(s.ctx, t); err != nil {
			return d, err
		}
		for _, at := range sortedPositions(layers[t]) {
			s.step(at, t, layers[t][at], add, end)
		}
		layers[t] = nil
	}
	return d, nil
}

// step carries probability p of position at, with t turns left, over the turn its mover plays:
// to the positions it leads to (add) or to the end of the game (end, with the seats' shares in
// half pairs).
func (s *copiesSolver[T]) step(at copiesPos, t int, p T, add func(int, copiesPos, T), end func(T, int, int)) {
	f := s.f
	v := vecOfKey(at.key)
	c := s.memo[copiesAt{at.key, t}]
	ch := c.brChoice[at.seat] // seat 0 plays role 0's policy, seat 1 role 1's
	if at.passed {
		ch = c.brAfter[at.seat]
	}
	if c.win != nil {
		// A lineup in which a role plays to win reads the mover's lead, just after a pass or not.
		w := c.winAt(at.passed)
		lead := at.a0 - at.a1
		if at.seat == 1 {
			lead = -lead
		}
		ch = w.ch[at.seat][w.at(lead)]
	}
	switch {
	case ch == rules.Pass && at.passed:
		// The stalemate: the pairs left shared equally.
		n := v.state().Pairs()
		end(p, 2*at.a0+n, 2*at.a1+n)
		return
	case ch == rules.Pass && t == 1:
		end(p, 2*at.a0, 2*at.a1) // the pass uses the last turn
		return
	case ch == rules.Pass:
		next := at
		next.seat, next.passed = 1-at.seat, true
		add(t-1, next, p)
		return
	}
	for _, o := range s.outcomes(v, ch) {
		q := f.Mul(p, f.FromFrac(o.num, o.den))
		left, g := s.after(o, t)
		next := at
		next.key, next.passed = o.next, false
		got := [2]*int{&next.a0, &next.a1}
		switch {
		case o.keep:
			*got[at.seat]++
		default:
			next.seat = 1 - at.seat
			*got[next.seat] += g
		}
		if left == 0 || unknownCards(vecOfKey(o.next)) == 0 {
			end(q, 2*next.a0, 2*next.a1)
			continue
		}
		add(left, next, q)
	}
}

// sortedPositions returns the positions of a layer in one order, whatever the map's, so that
// the sums are made in the same order every time.
func sortedPositions[T any](layer map[copiesPos]T) []copiesPos {
	out := make([]copiesPos, 0, len(layer))
	for at := range layer {
		out = append(out, at)
	}
	slices.SortFunc(out, func(a, b copiesPos) int {
		switch {
		case a.key != b.key:
			if a.key < b.key {
				return -1
			}
			return 1
		case a.passed != b.passed:
			if b.passed {
				return -1
			}
			return 1
		case a.seat != b.seat:
			return a.seat - b.seat
		case a.a0 != b.a0:
			return a.a0 - b.a0
		}
		return a.a1 - b.a1
	})
	return out
}

// CopiesCells bounds the cells the copies model solves for a deal of the given pairs and copies
// of a face under a turn limit: the count states (CopiesStates) times the turns left a state may
// have, 1 to limit (without a limit, 0, the count states), or -1 beyond 2^62.
func CopiesCells(pairs, copies, limit int) int64 {
	s := CopiesStates(pairs, copies)
	if s < 0 || limit <= 0 {
		return s
	}
	if s > (1<<62)/int64(limit) {
		return -1
	}
	return s * int64(limit)
}
