package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// A best reply at three to eight seats under a fluctuating capacity (docs/models.md §4.4, §4.7):
// one seat plays best-response, every other seat optimal (the optimum of every seat for itself),
// safe or daring. The others' choices are then fixed functions of the state after the draw (and
// the pass streak), so the replying seat faces a Markov decision problem of its own, whose row
// is the lineup's system of every seat's expected pairs with each seat to move (multiRow,
// multiPassRow) with the replying seat's choices free: it is solved by policy iteration, from
// the first legal choice other than a pass everywhere, switching each of the replying seat's
// positions where a choice gives it more than its current one to the choice that gives it the
// most (the first such in the order daring, safe, known-first, pass), the row solved again, until
// none does. Each step gives the replying seat at
// least as much everywhere, so the iteration ends, at a best stationary reply.

// fluctReplyIterations bounds the policy iteration of a row of a best reply; it ends long before
// (each step switches at least one position to a choice worth strictly more to the replying seat).
const fluctReplyIterations = 1000

// replyRow solves the row of n pairs for a lineup in which seat r replies, under pass rule never
// or, at every pass streak, under a pass rule: unknown (i*L + l)*p + t holds every seat's
// expected pairs (by seat) in state i after the draw at streak l (L streaks: p under a pass rule,
// 1 under never) with seat t to move.
func (s *fluctSeats[T]) replyRow(n, r int) error {
	f, p, L := s.f, s.p, s.streaks()
	nodes, _, before := s.rowLayout(n)
	index := func(i, l, t int) int { return (i*L+l)*p + t }
	eqOf := func(i, l, t int, ch rules.Choice) decayEq[T] {
		next := (t + 1) % p
		e := s.seatChoiceEq(n, nodes[i], t, l, ch, before, func(at, l2 int) int { return index(at, l2, next) })
		e.merge(f)
		return e
	}
	// The other seats' equations are fixed; the replying seat's are those of its choices prof.
	eqs := make([]decayEq[T], L*p*len(nodes))
	prof := make([]rules.Choice, L*len(nodes))
	for i, nd := range nodes {
		st := rules.State{N: n, J: n - nd.k}
		for l := range L {
			found := false
			for _, ch := range rules.Choices() {
				if ch != rules.Pass && s.m.Legal(st, ch) {
					prof[i*L+l], found = ch, true
					break
				}
			}
			if !found {
				return fmt.Errorf("%v: no legal choice but a pass for seat %d", st, r)
			}
			for t := range p {
				if t == r {
					eqs[index(i, l, t)] = eqOf(i, l, t, prof[i*L+l])
					continue
				}
				ch, err := s.seatChoiceAt(t, n, nd.k, nd.c, l)
				if err != nil {
					return err
				}
				eqs[index(i, l, t)] = eqOf(i, l, t, ch)
			}
		}
	}
	var x [][]T
	for step := 0; ; step++ {
		if step == fluctReplyIterations {
			return fmt.Errorf("%d pairs: the best reply of seat %d did not settle in %d steps", n, r, fluctReplyIterations)
		}
		var err error
		if x, err = solveRow(f, eqs); err != nil {
			return fmt.Errorf("%d pairs, seat %d best-response: %w", n, r, err)
		}
		changed := false
		for i, nd := range nodes {
			st := rules.State{N: n, J: n - nd.k}
			for l := range L {
				cur := x[index(i, l, r)][r]
				for _, ch := range rules.Choices() {
					if ch == prof[i*L+l] || !s.m.Legal(st, ch) {
						continue
					}
					e := eqOf(i, l, r, ch)
					v := e.a[r]
					for j, to := range e.to {
						v = f.Add(v, f.Mul(e.coef[j], x[to][r]))
					}
					if f.Cmp(v, cur) > 0 {
						prof[i*L+l], cur, eqs[index(i, l, r)] = ch, v, e
						changed = true
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	if s.keepLast {
		s.lastMulti, s.replyProf = x, prof
	}
	caps := fluctCapsTo(s.m.Memory, fluctTop(s.m, n))
	byStreak := make([][][]rules.Choice, L)
	for l := range L {
		byStreak[l] = make([][]rules.Choice, caps[len(caps)-1].c+1)
	}
	for i, nd := range nodes {
		for l := range L {
			if byStreak[l][nd.c] == nil {
				byStreak[l][nd.c] = make([]rules.Choice, len(before))
			}
			byStreak[l][nd.c][nd.k] = prof[i*L+l]
		}
	}
	s.replyChoice = append(s.replyChoice, byStreak)
	s.keepSeats(x, before, index)
	return nil
}

// FluctSeatsReplyTable returns the choices of best-response at one of players seats (3 to 8)
// against opponent (optimal, safe or daring) at every other seat, under the fluctuating capacity
// of model m, in every state of at most maxPairs pairs and every capacity drawn: a table with a
// layer per capacity, as FluctSelfishTable's, under a pass rule each layer holding the choices at
// every pass streak (read by LookupCapacityPasses). The reply's choices do not depend on its seat,
// every other seat playing the same policy.
func FluctSeatsReplyTable[T any](ctx context.Context, f field.Field[T], m Model, players int, opponent rules.Policy, maxPairs int) (*rules.ChoiceTable, error) {
	if players < 3 {
		return nil, fmt.Errorf("players %d: FluctSeatsReplyTable is for 3 to %d players (FluctReplyTable: 2)", players, rules.MaxPlayers)
	}
	if IsFluctSingles(m) {
		return fluctSinglesSeatsTable(ctx, f, m, Lineup{Players: players, Policy: rules.PolicyBestResponse, Opponent: opponent}, maxPairs) // fluctsingles_seats.go
	}
	s, err := newFluctSeats(f, m, Lineup{Players: players, Policy: rules.PolicyBestResponse, Opponent: opponent})
	if err != nil {
		return nil, err
	}
	if err := s.run(ctx, maxPairs, nil); err != nil {
		return nil, err
	}
	if s.passes() {
		return s.streakLayersOf(maxPairs, s.replyChoice)
	}
	plain := make([][][]rules.Choice, len(s.replyChoice))
	for n, byStreak := range s.replyChoice {
		if byStreak != nil {
			plain[n] = byStreak[0]
		}
	}
	return capacityLayers(m, maxPairs, s.lru(), plain, nil)
}

// keepSeats keeps the solution x of a row of a policy per seat (unknown index(i, l, t) for state
// i after the draw, streak l, seat t to move) as the row's values before the draw: seats, and
// under a pass rule streakSeats at every streak.
func (s *fluctSeats[T]) keepSeats(x [][]T, before [][]fluctRef[T], index func(i, l, t int) int) {
	f, p := s.f, s.p
	L := s.streaks()
	streak := make([][][][]T, L)
	for l := range L {
		streak[l] = make([][][]T, len(before))
		for k, refs := range before {
			streak[l][k] = make([][]T, p)
			for t := range p {
				vec := s.zeroVec()
				for i := range vec {
					for _, rf := range refs {
						vec[i] = f.Add(vec[i], f.Mul(rf.p, x[index(rf.at, l, t)][i]))
					}
				}
				streak[l][k][t] = vec
			}
		}
	}
	if s.passes() {
		s.streakSeats = streak
	}
	s.seats = streak[0]
}
