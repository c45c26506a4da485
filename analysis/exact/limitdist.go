package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The score distribution under a turn limit (docs/models.md §4.18). The backward induction over
// the turns left gives every seat's choice with t turns left; the distribution then follows
// forwards, turn by turn from the state, carrying the probability of every state, number of turns
// left, seat to move, pass just made and seat 0's pairs so far (seat 1's follow: the pairs taken
// are those that left the table). The pairs left at the limit count for nobody, so seat 0's share
// ranges over 0..n and the two seats' shares need not add up to n.

// limitChoices records the choices of both roles of a two-player lineup in every state and number
// of turns left: choice[t-1][state index][role][flag], and per lead where a role plays to win.
type limitChoices struct {
	byLead bool
	size   int // the leads' indices: 2D + 1, or 1
	choice [][]rules.Choice
}

// at returns role r's choice in the state of index i with t turns left, after a pass (flag 1) or
// not, at the mover's lead index l.
func (lc *limitChoices) at(t, i, r, flag, l int) rules.Choice {
	if !lc.byLead {
		l = 0
	}
	return lc.choice[t-1][((i*2+r)*2+flag)*lc.size+l]
}

// limitDistribution is Distribution under a turn limit: Prob[i] is the probability that seat 0
// collects i/2 pairs by the limit (half pairs come from a stalemate, which shares the pairs left),
// Prob1 seat 1's, and Win, Draw and Loss compare the two seats' pairs then, with the lead so far.
func limitDistribution[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (ScoreDistribution[T], error) {
	var d ScoreDistribution[T]
	if mu.Players != 2 || mu.PerSeat {
		return d, fmt.Errorf("players %d: the score distribution is computed for 2 players", mu.Players)
	}
	s, err := newLimitSweep(f, m, mu, st)
	if err != nil {
		return d, err
	}
	lc := &limitChoices{byLead: s.needLeads, size: 1}
	if s.needLeads {
		lc.size = 2*s.D + 1
	}
	s.visit = func(x rules.State, t int, c *limitCell[T]) error {
		if t > len(lc.choice) {
			lc.choice = append(lc.choice, make([]rules.Choice, len(s.valid)*4*lc.size))
		}
		if x.N == 0 {
			return nil
		}
		i := s.index(x)
		for r := range 2 {
			for flag := range 2 {
				at := lc.choice[t-1][((i*2+r)*2+flag)*lc.size:]
				switch {
				case s.needLeads:
					copy(at[:lc.size], c.leads.choice[r][flag])
				case s.needRoles:
					at[0] = c.choice[r][flag]
				default:
					at[0] = c.optChoice[flag]
				}
			}
		}
		return nil
	}
	if err := s.run(ctx); err != nil {
		return d, err
	}
	return s.forward(ctx, lc, st)
}

// forward carries the probability of every position of the game from st, with the sweep's limit
// as the turns left, to the end, and returns the distribution of seat 0's share.
func (s *limitSweep[T]) forward(ctx context.Context, lc *limitChoices, st rules.State) (ScoreDistribution[T], error) {
	f, N := s.f, st.N
	d := ScoreDistribution[T]{State: st, Prob: make([]T, 2*N+1), Prob1: make([]T, 2*N+1), Win: s.zero, Draw: s.zero, Loss: s.zero}
	for i := range d.Prob {
		d.Prob[i], d.Prob1[i] = s.zero, s.zero
	}
	// end adds probability p of a game over with seat 0's and seat 1's shares h0 and h1 in half
	// pairs.
	end := func(p T, h0, h1 int) {
		d.Prob[h0] = f.Add(d.Prob[h0], p)
		d.Prob1[h1] = f.Add(d.Prob1[h1], p)
		d.addResult(f, p, 2*st.Lead+h0-h1)
	}
	if N == 0 || s.limit == 0 {
		end(s.ints[1], 0, 0)
		return d, nil
	}
	// A position: the state's index, the seat to move, a pass just made, seat 0's pairs so far.
	key := func(i, seat, flag, a0 int) int { return ((i*2+seat)*2+flag)*(N+1) + a0 }
	// layers[t] holds the probability of every position with t turns left (has: reached), in the
	// order of key, so that the sums are made in the same order every time.
	size := len(s.valid) * 4 * (N + 1)
	layers := make([][]T, s.limit+1)
	has := make([][]bool, s.limit+1)
	add := func(t, k int, p T) {
		if layers[t] == nil {
			layers[t], has[t] = make([]T, size), make([]bool, size)
		}
		if has[t][k] {
			p = f.Add(layers[t][k], p)
		}
		layers[t][k], has[t][k] = p, true
	}
	states := make([]rules.State, len(s.valid))
	for i, ok := range s.valid {
		if ok {
			n, rest := i/s.stride, i%s.stride
			states[i] = rules.State{N: n, J: rest / (s.m.Singletons + 1), S: s.m.Singletons, F: rest % (s.m.Singletons + 1)}
		}
	}
	add(s.limit, key(s.index(st.Counts()), 0, 0, 0), s.ints[1])
	for t := s.limit; t >= 1; t-- {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return d, err
		}
		for k, p := range layers[t] {
			if !has[t][k] {
				continue
			}
			a0 := k % (N + 1)
			rest := k / (N + 1)
			flag, seat, i := rest%2, (rest/2)%2, rest/4
			x := states[i]
			a1 := N - x.N - a0
			mine, theirs := a0, a1 // the mover's pairs and the other seat's
			if seat == 1 {
				mine, theirs = a1, a0
			}
			// seat0 returns seat 0's and seat 1's pairs from the mover's and the other's.
			seat0 := func(m, o int) (int, int) {
				if seat == 1 {
					return o, m
				}
				return m, o
			}
			ch := lc.at(t, i, seat, flag, s.li(st.Lead*(1-2*seat)+mine-theirs))
			if ch == rules.Pass {
				switch {
				case flag == 1:
					end(p, 2*a0+x.N, 2*a1+x.N) // a stalemate shares the pairs left
				case t == 1:
					end(p, 2*a0, 2*a1)
				case s.hand != nil:
					// Under decay the pass's hand-over may forget cards.
					ls := &s.states[i]
					for j, o := range ls.outs[rules.Pass] {
						add(t-1, key(s.index(o.Next), 1-seat, 1, a0), f.Mul(p, ls.probs[rules.Pass][j]))
					}
				default:
					add(t-1, key(i, 1-seat, 1, a0), p)
				}
				continue
			}
			ls := &s.states[i]
			for j, o := range ls.outs[ch] {
				q := f.Mul(p, ls.probs[ch][j])
				m, oth, next, left := mine, theirs, seat, t-1
				if o.Continue {
					m += o.MoverGain
				} else {
					g := min(o.NextGain, t-1)
					oth += g
					next, left = 1-seat, t-1-g
				}
				b0, b1 := seat0(m, oth)
				if left == 0 || o.Next.N == 0 {
					end(q, 2*b0, 2*b1)
					continue
				}
				add(left, key(s.index(o.Next), next, 0, b0), q)
			}
		}
		layers[t], has[t] = nil, nil
	}
	return d, nil
}

// estimateLimitDistribution is the cost of limitDistribution: the sweep's, then the forward pass,
// which visits every count state with every seat to move, pass flag and pairs of seat 0 at each
// number of turns left, each position's outcomes (weights fitted to memsim solve --pairs 8 to 26
// --turn-limit 2N --distribution, within 1.3 times the time measured), and holds four layers of
// positions and every layer's choices.
func estimateLimitDistribution[T any](f field.Field[T], m Model, mu Lineup, pairs int) (Cost, error) {
	if mu.Players != 2 || mu.PerSeat {
		return Cost{}, fmt.Errorf("players %d: the score distribution is computed for 2 players", mu.Players)
	}
	c, err := estimateLimit(f, m, mu, pairs, CallEvaluate)
	if err != nil {
		return c, err
	}
	base := m
	base.Variant.TurnLimit = 0
	states := SweepStates(base, Lineup{Players: 2}, pairs)
	positions := states * 4 * float64(pairs+1)
	opWeight, bytes := 2.0, 9.0
	if _, exact := f.Exact(f.FromInt(0)); exact {
		opWeight, bytes = 50, 60
	}
	leads := SweepStates(base, mu, pairs) / states
	c.Ops += positions * float64(m.Variant.TurnLimit) * opWeight
	// The layers are laid out over (pairs + 1)² count states, about twice the sweep's.
	c.Bytes += 4*2*positions*bytes + float64(m.Variant.TurnLimit)*states*4*leads
	return c, nil
}
