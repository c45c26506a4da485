package exact

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Every seat's score distribution at three to eight seats for a lineup in which a seat plays to
// win (docs/models.md §4.7, "Win objective"): win-optimal at every seat, win-optimal beside
// optimal and fixed policies, or win-best-response at one seat. A seat that plays to win chooses
// by the standings (every seat's pairs so far), so each seat's distribution of the pairs it takes
// does not follow from the count states alone. Every seat's choices are those its table gives,
// as the engine reads them (PolicyTable of the lineup seen from the seat, RotateSeats), by count
// state, the standings and, under a pass rule, the pass streak. With perfect memory a turn never
// brings a count state back, so the game is a Markov chain without cycles on (count state, pass
// streak, mover, every seat's pairs); under lru and handover-uniform of a fixed capacity a count
// state comes back only to the next seat with the same pairs (winseatsdistlimited.go): the
// probability of each is carried forward from the start,
// count state by count state, and at the end of the game (no pair left, or a stalemate, which
// gives each seat n/p of the n pairs left) the standings are the seats' final pairs. Their joint
// distribution gives every seat's own distribution and, as a check, its P(most pairs), P(alone
// with the most) and P(tied for the most), which the win solve gives too.

// winSeatsKey is a position of the forward pass within a count state and pass streak: the seat
// to move (absolute) and every seat's pairs so far (absolute seats).
type winSeatsKey struct {
	mover int8
	pairs [rules.MaxPlayers]int16
}

// winSeatsJoint is the result of the forward pass: the probability of every seat's final pairs.
type winSeatsJoint[T any] struct {
	// unit: the final pairs count in 1/unit pairs (the number of seats under a pass rule, where a
	// stalemate shares the pairs left; 1 otherwise).
	unit int
	// final maps every seat's final pairs (in units, absolute seats) to its probability.
	final map[[rules.MaxPlayers]int16]T
}

// isWinSeatsDist reports whether every seat's distribution of lineup mu (three or more seats) is
// the forward pass's: a seat plays to win.
func isWinSeatsDist(mu Lineup) bool {
	return mu.Players >= 3 && isSelfWin(mu)
}

// checkWinSeatsDistribution reports whether the forward pass solves lineup mu, in which a seat
// plays to win, in model m.
func checkWinSeatsDistribution(m Model, mu Lineup) error {
	switch {
	case m.Memory.Forget == rules.ForgetDecay:
		return fmt.Errorf("memory %s: every seat's score distribution at %d players with a policy that plays to win is solved with perfect memory or lru and handover-uniform of a fixed capacity, not decay (a decayed card brings back a count state with more unknown pairs)", m.Memory, mu.Players)
	case m.Memory.Fluctuation > 0:
		return fmt.Errorf("memory %s: every seat's score distribution at %d players with a policy that plays to win is solved with perfect memory or a fixed capacity, not a fluctuating one", m.Memory, mu.Players)
	case m.Variant.TurnLimit > 0:
		return fmt.Errorf("turn limit %d: every seat's score distribution at %d players with a policy that plays to win is solved without a turn limit", m.Variant.TurnLimit, mu.Players)
	case m.Variant.CopiesOf() != rules.DefaultCopies:
		return fmt.Errorf("copies %d: every seat's score distribution at %d players with a policy that plays to win is solved with pairs", m.Variant.CopiesOf(), mu.Players)
	}
	if err := checkSelfWinModel(m, mu.Players); err != nil {
		return err
	}
	return mu.Validate(m)
}

// winSeatsDistribution is SeatsScoreDistribution for a lineup in which a seat plays to win, seat
// s having taken standings[s] pairs so far (nil: none): Prob[s] is the distribution of the pairs
// seat s takes from st on, its standings not counted.
func winSeatsDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, standings []int) (SeatsDistribution[T], error) {
	var out SeatsDistribution[T]
	j, err := winSeatsForward(ctx, f, m, mu, st, standings)
	if err != nil {
		return out, err
	}
	var before [rules.MaxPlayers]int16
	for s, v := range standings {
		before[s] = int16(v * j.unit)
	}
	out = SeatsDistribution[T]{State: st, Players: mu.Players, Unit: j.unit, Prob: make([][]T, mu.Players)}
	width := j.unit*st.N + 1
	for s := range out.Prob {
		out.Prob[s] = make([]T, width)
		for i := range out.Prob[s] {
			out.Prob[s][i] = f.FromInt(0)
		}
	}
	for _, k := range sortedFinals(j.final) {
		pr := j.final[k]
		for s := range mu.Players {
			i := k[s] - before[s]
			out.Prob[s][i] = f.Add(out.Prob[s][i], pr)
		}
	}
	return out, nil
}

// sortedFinals returns the keys of final in a fixed order, so that float64 sums do not depend on
// the order of a map.
func sortedFinals[T any](final map[[rules.MaxPlayers]int16]T) [][rules.MaxPlayers]int16 {
	keys := make([][rules.MaxPlayers]int16, 0, len(final))
	for k := range final {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [rules.MaxPlayers]int16) int {
		for i := range a {
			if c := cmp.Compare(a[i], b[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	return keys
}

// winSeatsTables returns the table every seat of lineup mu follows (seat k's: seat 0's of the
// lineup seen from seat k), in states of at most maxPairs pairs; seats of one rotated lineup
// share a table.
func winSeatsTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) ([]*rules.ChoiceTable, error) {
	out := make([]*rules.ChoiceTable, mu.Players)
	byLineup := map[string]*rules.ChoiceTable{}
	for k := range mu.Players {
		lu := RotateSeats(mu, k)
		name := fmt.Sprint(lu.SeatPolicies())
		if t, ok := byLineup[name]; ok {
			out[k] = t
			continue
		}
		t, err := PolicyTable(ctx, f, m, lu, maxPairs)
		if err != nil {
			return nil, fmt.Errorf("seat %d's table: %w", k, err)
		}
		byLineup[name], out[k] = t, t
	}
	return out, nil
}

// winSeatsChoice returns the choice of a seat that follows tab in count state st at pass streak
// streak, pairs giving every seat's pairs so far in order from the mover.
func winSeatsChoice(tab *rules.ChoiceTable, pass rules.PassRule, st rules.State, pairs []int, streak int) (rules.Choice, bool) {
	if s := tab.Standings(); s != nil {
		if pass == rules.PassNever {
			return s.Lookup(st, pairs)
		}
		return s.LookupPasses(st, pairs, streak)
	}
	if pass == rules.PassNever {
		return tab.Lookup(st, false)
	}
	return tab.LookupPasses(st, streak)
}

// winSeatsForward carries the probability of every position forward from count state st, seat 0
// to move, seat s (absolute) having taken standings[s] pairs (nil: none), to the end of the game.
func winSeatsForward[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, standings []int) (winSeatsJoint[T], error) {
	var out winSeatsJoint[T]
	p := mu.Players
	if err := checkWinSeatsDistribution(m, mu); err != nil {
		return out, err
	}
	standings, err := checkStart(m, p, st, standings)
	if err != nil {
		return out, err
	}
	tabs, err := winSeatsTables(ctx, f, m, mu, max(st.N, 1))
	if err != nil {
		return out, err
	}
	out.unit = 1
	if m.Pass != rules.PassNever {
		out.unit = p
	}
	out.final = map[[rules.MaxPlayers]int16]T{}
	streaks := 1
	if m.Pass != rules.PassNever {
		streaks = p
	}
	// live[count state][streak] holds the positions reached and not yet played.
	live := map[rules.State][]map[winSeatsKey]T{}
	done := map[rules.State]bool{}
	add := func(to map[winSeatsKey]T, k winSeatsKey, pr T) {
		if v, ok := to[k]; ok {
			to[k] = f.Add(v, pr)
			return
		}
		to[k] = pr
	}
	at := func(s rules.State) []map[winSeatsKey]T {
		v, ok := live[s]
		if !ok {
			v = make([]map[winSeatsKey]T, streaks)
			for l := range v {
				v[l] = map[winSeatsKey]T{}
			}
			live[s] = v
		}
		return v
	}
	finish := func(k winSeatsKey, share int, pr T) {
		var fin [rules.MaxPlayers]int16
		for s := range p {
			fin[s] = k.pairs[s]*int16(out.unit) + int16(share)
		}
		add2(f, out.final, fin, pr)
	}
	// move carries probability pr from position k of count state cs along outcome o.
	var moveErr error
	move := func(cs rules.State, k winSeatsKey, o Outcome, pr T) {
		if done[o.Next] {
			if moveErr == nil {
				moveErr = fmt.Errorf("%v: a turn from %v leads back to a state already played (the forward pass needs a game whose count states come back only to the next seat)", o.Next, cs)
			}
			return
		}
		mover := int(k.mover)
		nk := k
		nk.pairs[mover] += int16(o.MoverGain)
		if !o.Continue {
			next := (mover + 1) % p
			nk.pairs[next] += int16(o.NextGain)
			nk.mover = int8(next)
		}
		add(at(o.Next)[0], nk, pr)
	}
	var start winSeatsKey
	for s, x := range standings {
		start.pairs[s] = int16(x)
	}
	at(st)[0][start] = f.FromInt(1)
	var outs []Outcome
	pairs := make([]int, p)
	s := m.Singletons
	for n := st.N; n >= 0; n-- {
		select {
		case <-ctx.Done():
			return out, fmt.Errorf("solver stopped at %d pairs: %w", n, ctx.Err())
		default:
		}
		for j := n; j >= 0; j-- {
			for fu := s; fu >= 0; fu-- {
				cs := rules.State{N: n, J: j, S: s, F: fu}
				levels, ok := live[cs]
				if !ok {
					continue
				}
				delete(live, cs)
				done[cs] = true
				if !m.Memory.Perfect() && n > 0 {
					if err := winSeatsLimitedState(f, m, p, cs, levels, tabs, func(k winSeatsKey, o Outcome, pr T) { move(cs, k, o, pr) },
						func(k winSeatsKey, pr T) { finish(k, n, pr) }); err != nil {
						return out, err
					}
					if moveErr != nil {
						return out, moveErr
					}
					continue
				}
				for l, pos := range levels {
					for _, k := range sortedKeys(pos) {
						pr := pos[k]
						if n == 0 {
							finish(k, 0, pr)
							continue
						}
						mover := int(k.mover)
						for i := range p {
							pairs[i] = int(k.pairs[(mover+i)%p])
						}
						ch, ok := winSeatsChoice(tabs[mover], m.Pass, cs, pairs, l)
						if !ok || !m.Legal(cs, ch) {
							return out, fmt.Errorf("seat %d: no legal choice in its table in %v at standings %v, pass streak %d (%v)", mover, cs, pairs, l, ch)
						}
						next := (mover + 1) % p
						if ch == rules.Pass {
							if l == p-1 {
								finish(k, n, pr) // a stalemate: n/p pairs, n units, to every seat
								continue
							}
							nk := k
							nk.mover = int8(next)
							add(levels[l+1], nk, pr)
							continue
						}
						outs = m.Outcomes(cs, ch, outs[:0])
						for _, o := range outs {
							move(cs, k, o, f.Mul(pr, f.FromFrac(o.Prob.Num, o.Prob.Den)))
						}
						if moveErr != nil {
							return out, moveErr
						}
					}
				}
			}
		}
	}
	if len(live) != 0 {
		return out, fmt.Errorf("%d count states reached outside the order of the forward pass", len(live))
	}
	return out, nil
}

// add2 adds pr to final[k].
func add2[T any](f field.Field[T], final map[[rules.MaxPlayers]int16]T, k [rules.MaxPlayers]int16, pr T) {
	if v, ok := final[k]; ok {
		final[k] = f.Add(v, pr)
		return
	}
	final[k] = pr
}

// sortedKeys returns the positions of pos in a fixed order.
func sortedKeys[T any](pos map[winSeatsKey]T) []winSeatsKey {
	keys := make([]winSeatsKey, 0, len(pos))
	for k := range pos {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b winSeatsKey) int {
		if c := cmp.Compare(a.mover, b.mover); c != 0 {
			return c
		}
		for i := range a.pairs {
			if c := cmp.Compare(a.pairs[i], b.pairs[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	return keys
}
