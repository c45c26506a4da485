package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Solitaire's distribution of the number of turns under a turn limit (docs/models.md §4.8,
// §4.18). The limit's backward induction over the turns left (limit.go) gives the player's choice
// in every state with t turns left; the distribution then follows forwards, turn by turn from the
// state with the whole limit left, carrying the probability of every state and number of turns
// left. A turn leads to a state with fewer turns left (a pair left known whole uses the next turn
// too, when the limit leaves one), so each layer of turns left is final once the layers above it
// are done. A game ends when the table is cleared or the limit is reached: it takes at most the
// limit's turns, and Stopped is the probability that the limit ends it with pairs on the table.

// solitaireTurnsLimit is SolitaireTurns under the model's turn limit, every model the limit's
// solitaire sweep solves (perfect memory, singletons, lru, handover-uniform and decay forgetting,
// blind flips).
func solitaireTurnsLimit[T any](ctx context.Context, f field.Field[T], m Model, p rules.Policy, st rules.State, maxTurns int) (TurnsDistribution[T], error) {
	var d TurnsDistribution[T]
	mu := Lineup{Players: 1, Policy: p, Opponent: p}
	s, err := newLimitSweep(f, m, mu, st)
	if err != nil {
		return d, fmt.Errorf("solitaire's turns distribution: %w", err)
	}
	L := s.limit
	// choice[t-1][i] is the player's choice in the state of index i with t turns left.
	choice := make([][]rules.Choice, L)
	s.visit = func(x rules.State, t int, c *limitCell[T]) error {
		if choice[t-1] == nil {
			choice[t-1] = make([]rules.Choice, len(s.valid))
		}
		if x.N > 0 {
			choice[t-1][s.index(x)] = c.soloChoice
		}
		return nil
	}
	if err := s.run(ctx); err != nil {
		return d, err
	}
	d.State, d.MaxTurns = st, maxTurns
	d.Prob = make([]T, maxTurns+1)
	for i := range d.Prob {
		d.Prob[i] = s.zero
	}
	d.Tail, d.Stopped = s.zero, s.zero
	one := f.FromInt(1)
	end := func(turns int, p T, cleared bool) {
		if turns <= maxTurns {
			d.Prob[turns] = f.Add(d.Prob[turns], p)
		} else {
			d.Tail = f.Add(d.Tail, p)
		}
		if !cleared {
			d.Stopped = f.Add(d.Stopped, p)
		}
	}
	if st.N == 0 {
		end(0, one, true)
		return d, nil
	}
	// mass[t][i] is the probability of reaching the state of index i with t turns left.
	mass := make([][]T, L+1)
	seen := make([][]bool, L+1)
	for t := range mass {
		mass[t] = make([]T, len(s.valid))
		seen[t] = make([]bool, len(s.valid))
	}
	start := s.index(st)
	mass[L][start], seen[L][start] = one, true
	for t := L; t >= 1; t-- {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return d, err
		}
		for i, ok := range seen[t] {
			if !ok {
				continue
			}
			x := s.stateAt(i)
			ls := &s.states[i]
			ch := choice[t-1][i]
			for k, o := range ls.outs[ch] {
				// A pair left known whole is taken in the next turn, when the limit leaves one;
				// otherwise it stays on the table (truncated).
				rest := t - 1
				truncated := !o.Continue && o.NextGain > t-1
				if !o.Continue {
					rest -= min(o.NextGain, t-1)
				}
				q := f.Mul(mass[t][i], ls.probs[ch][k])
				switch {
				case o.Next.N == 0 && !truncated:
					end(L-rest, q, true)
				case rest == 0:
					end(L, q, false)
				default:
					j := s.index(o.Next)
					if !s.valid[j] {
						return d, fmt.Errorf("solitaire's turns distribution: state %v leads to %v, not a state of memory %s", x, o.Next, m.Memory)
					}
					if seen[rest][j] {
						mass[rest][j] = f.Add(mass[rest][j], q)
					} else {
						mass[rest][j], seen[rest][j] = q, true
					}
				}
			}
		}
		mass[t], seen[t] = nil, nil
	}
	return d, nil
}

// stateAt returns the state of index i (the inverse of index).
func (s *limitSweep[T]) stateAt(i int) rules.State {
	S := s.m.Singletons
	n, r := i/s.stride, i%s.stride
	return rules.State{N: n, J: r / (S + 1), S: S, F: r % (S + 1)}
}
