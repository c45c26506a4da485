package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Solitaire's distribution of the number of turns with singletons under a shared handover-uniform
// memory (husingles_solo.go; docs/models.md §4.4 and §4.8). The player's choice in every cell
// comes from the solved expected turns (without a limit) or the limit's backward induction over
// the turns left (husingles_limit.go). Without a limit every turn costs one, and a turn that
// leaves a pair known whole one more (the next turn takes it), so the probability of exactly t
// turns from a cell needs only those of fewer turns from the cells its outcomes lead to: the
// distributions follow in order of t, with no system to solve, though a forgotten card makes the
// number of turns unbounded (Tail). Under a limit the probability of every cell and number of
// turns left is carried forwards from the start, as solodistlimit.go does.

// husSolitaireTurns is SolitaireTurns for singletons under a handover-uniform memory.
func husSolitaireTurns[T any](ctx context.Context, f field.Field[T], m Model, p rules.Policy, st rules.State, maxTurns int) (TurnsDistribution[T], error) {
	mu := Lineup{Players: 1, Policy: p, Opponent: p}
	if m.Variant.TurnLimit > 0 {
		return husSolitaireTurnsLimit(ctx, f, m, mu, st, maxTurns)
	}
	var d TurnsDistribution[T]
	s, _, err := husStart(ctx, f, m, mu, st)
	if err != nil {
		return d, fmt.Errorf("solitaire's turns distribution: %w", err)
	}
	// prob[i][t] is the probability that the game from cell i takes exactly t turns.
	prob := make([][]T, len(s.cells))
	for i, c := range s.cells {
		prob[i] = make([]T, maxTurns+1)
		for t := range prob[i] {
			prob[i][t] = s.zero
		}
		if c.st.N == 0 {
			prob[i][0] = s.one
		}
	}
	for t := 1; t <= maxTurns; t++ {
		if err := ctx.Err(); err != nil {
			return d, err
		}
		for i, c := range s.cells {
			if c.st.N == 0 {
				continue
			}
			ch := c.soloChoice
			for k, o := range c.outs[ch] {
				if u := 1 + o.handed; t >= u {
					prob[i][t] = f.Add(prob[i][t], f.Mul(c.probs[ch][k], prob[o.to][t-u]))
				}
			}
		}
	}
	d.State, d.MaxTurns, d.Prob = st, maxTurns, prob[s.at[st.Counts()]]
	d.Tail, d.Stopped = s.one, s.zero
	for _, x := range d.Prob {
		d.Tail = f.Sub(d.Tail, x)
	}
	return d, nil
}

// husSolitaireTurnsLimit is husSolitaireTurns under the model's turn limit: the game ends when
// the table is cleared or the limit is reached; a pair left known whole is taken in the next
// turn when the limit leaves one, and stays on the table otherwise.
func husSolitaireTurnsLimit[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, maxTurns int) (TurnsDistribution[T], error) {
	var d TurnsDistribution[T]
	l, start, err := husLimitStart(ctx, f, m, mu, st)
	if err != nil {
		return d, fmt.Errorf("solitaire's turns distribution: %w", err)
	}
	s, L := l.s, l.limit
	d.State, d.MaxTurns = st, maxTurns
	d.Prob = make([]T, maxTurns+1)
	for i := range d.Prob {
		d.Prob[i] = s.zero
	}
	d.Tail, d.Stopped = s.zero, s.zero
	end := func(turns int, q T, cleared bool) {
		if turns <= maxTurns {
			d.Prob[turns] = f.Add(d.Prob[turns], q)
		} else {
			d.Tail = f.Add(d.Tail, q)
		}
		if !cleared {
			d.Stopped = f.Add(d.Stopped, q)
		}
	}
	if st.N == 0 {
		end(0, s.one, true)
		return d, nil
	}
	// mass[t][i] is the probability of reaching cell i with t turns left; seen says it is set.
	mass := make([][]T, L+1)
	seen := make([][]bool, L+1)
	for t := range mass {
		mass[t] = make([]T, len(s.cells))
		seen[t] = make([]bool, len(s.cells))
	}
	mass[L][start], seen[L][start] = s.one, true
	for t := L; t >= 1; t-- {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return d, err
		}
		for i, ok := range seen[t] {
			if !ok {
				continue
			}
			c := s.cells[i]
			ch := l.layers[t][i].ch[0]
			for k, o := range c.outs[ch] {
				rest := t - 1
				truncated := !o.keep && o.handed > t-1
				if !o.keep {
					rest -= min(o.handed, t-1)
				}
				q := f.Mul(mass[t][i], c.probs[ch][k])
				switch {
				case o.next.N == 0 && !truncated:
					end(L-rest, q, true)
				case rest == 0:
					end(L, q, false)
				case seen[rest][o.to]:
					mass[rest][o.to] = f.Add(mass[rest][o.to], q)
				default:
					mass[rest][o.to], seen[rest][o.to] = q, true
				}
			}
		}
		mass[t], seen[t] = nil, nil
	}
	return d, nil
}
