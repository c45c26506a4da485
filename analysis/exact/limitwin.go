package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// Under a turn limit the policies that play to win (docs/models.md §4.13, §4.18) choose by the lead
// so far d as well: the state is (n, j, t, d). The values follow by backward induction over t, as
// the pairs do, with every lead -D .. D (D = n + 1; a state with |d| > n is decided) and, for each
// role and each lead, the centred score to win w = P(win) + P(draw)/2 - 1/2, the probability of a
// draw, and the lead and pairs of the pair objective under the lineup's lead-dependent choices.

// WinLimitRationalLimit is the largest deal size for which memsim solves a policy that plays to
// win under a turn limit in exact rationals when it needs its whole table or a tournament's exact
// values: the turns left multiply the work of the leads, so larger tables are computed in float64
// and tournaments report exact values of such matchups up to this size.
const WinLimitRationalLimit = 6

// limitLeads holds a state's values at every lead, for role r to move, without and with a pass
// just made: [r][flag][lead index]; and those of win-optimal's self-play (both seats playing it),
// which win-optimal's choices come from whoever it plays: [flag][lead index].
type limitLeads[T any] struct {
	win, draw, lead, total [2][2][]T
	choice                 [2][2][]rules.Choice
	selfWin                [2][]T
	selfChoice             [2][]rules.Choice
}

// leadValues are the values of one choice at one lead, for the mover.
type leadValues[T any] struct{ win, draw, lead, total T }

// li returns the index of lead d, clamped to -D .. D.
func (s *limitSweep[T]) li(d int) int { return min(max(d, -s.D), s.D) + s.D }

// final returns the values of a game over at lead d: the centred score 1/2, 0 or -1/2 and a draw
// when d = 0; no pair more.
func (s *limitSweep[T]) final(d int) leadValues[T] {
	v := leadValues[T]{win: s.zero, draw: s.zero, lead: s.zero, total: s.zero}
	switch {
	case d > 0:
		v.win = s.half
	case d < 0:
		v.win = s.f.Sub(s.zero, s.half)
	default:
		v.draw = s.ints[1]
	}
	return v
}

// leadAt reads role r's values at lead d in a successor cell, without a pass just made (flag 0)
// or with one (flag 1); role -1 reads win-optimal's self-play (its score only).
func (s *limitSweep[T]) leadAt(c *limitCell[T], r, flag, d int) leadValues[T] {
	i := s.li(d)
	l := c.leads
	if r < 0 {
		return leadValues[T]{l.selfWin[flag][i], s.zero, s.zero, s.zero}
	}
	return leadValues[T]{l.win[r][flag][i], l.draw[r][flag][i], l.lead[r][flag][i], l.total[r][flag][i]}
}

// other returns the role that moves after role r hands over the move (-1, self-play, stays -1).
func other(r int) int {
	if r < 0 {
		return r
	}
	return 1 - r
}

// leadSum returns the values for role r (-1: win-optimal's self-play) of choice ch (not a pass)
// in st with t turns left at lead d.
func (s *limitSweep[T]) leadSum(st rules.State, t, r, d int, ch rules.Choice) leadValues[T] {
	f := s.f
	out := leadValues[T]{win: s.zero, draw: s.zero, lead: s.zero, total: s.zero}
	s.next(st, t, ch, func(p T, o Outcome, gain int, succ *limitCell[T]) {
		g := s.ints[gain]
		var v leadValues[T]
		if o.Continue {
			v = s.final(d + gain)
			if succ != nil {
				v = s.leadAt(succ, r, 0, d+gain)
			}
			if r >= 0 {
				v.lead = f.Add(g, v.lead)
			}
		} else {
			// The next seat takes gain pairs first: its lead is gain - d.
			v = s.final(gain - d)
			if succ != nil {
				v = s.leadAt(succ, other(r), 0, gain-d)
			}
			v.win = f.Sub(s.zero, v.win)
			if r >= 0 {
				v.lead = f.Sub(s.zero, f.Add(g, v.lead))
			}
		}
		out.win = f.Add(out.win, f.Mul(p, v.win))
		if r < 0 {
			return // self-play needs the score only
		}
		v.total = f.Add(g, v.total)
		out.draw = f.Add(out.draw, f.Mul(p, v.draw))
		out.lead = f.Add(out.lead, f.Mul(p, v.lead))
		out.total = f.Add(out.total, f.Mul(p, v.total))
	})
	return out
}

// leadPass returns the values for role r of a pass in st with t turns left at lead d: with a pass
// just made, a stalemate (the n pairs shared, the lead unchanged); otherwise the other role moves
// with t - 1 turns left, a pass just made (under decay forgetting in each state the pass's
// hand-over leaves).
func (s *limitSweep[T]) leadPass(st rules.State, t, r, flag, d int) leadValues[T] {
	if flag == 1 {
		v := s.final(d)
		v.total = s.f.FromInt(int64(st.N))
		return v
	}
	if t == 1 {
		return s.final(d)
	}
	v := s.passLeads(st, t, func(c *limitCell[T]) leadValues[T] { return s.leadAt(c, other(r), 1, -d) })
	v.win = s.f.Sub(s.zero, v.win)
	v.lead = s.f.Sub(s.zero, v.lead)
	return v
}

// byLead computes the values of both roles in st with t turns left at every lead: win-optimal
// makes the choice of its self-play, win-best-response the first choice of largest score against
// the other role, best-response the first of largest lead, optimal the two-player optimum's, a
// fixed policy its own.
func (s *limitSweep[T]) byLead(st rules.State, t int, c *limitCell[T]) {
	ls := &s.states[s.index(st)]
	size := 2*s.D + 1
	l := &limitLeads[T]{}
	c.leads = l
	if s.pol[0] == rules.PolicyWinOptimal || s.pol[1] == rules.PolicyWinOptimal {
		for flag := range 2 {
			l.selfWin[flag], l.selfChoice[flag] = make([]T, size), make([]rules.Choice, size)
			for i := range size {
				var key [rules.NumChoices]T
				for _, ch := range rules.Choices() {
					switch {
					case !ls.legal[ch]:
					case ch == rules.Pass:
						key[ch] = s.leadPass(st, t, -1, flag, i-s.D).win
					default:
						key[ch] = s.leadSum(st, t, -1, i-s.D, ch).win
					}
				}
				ch := s.best(ls, key)
				l.selfWin[flag][i], l.selfChoice[flag][i] = key[ch], ch
			}
		}
	}
	for r := range 2 {
		for flag := range 2 {
			l.win[r][flag], l.draw[r][flag] = make([]T, size), make([]T, size)
			l.lead[r][flag], l.total[r][flag] = make([]T, size), make([]T, size)
			l.choice[r][flag] = make([]rules.Choice, size)
			for i := range size {
				d := i - s.D
				var vals [rules.NumChoices]leadValues[T]
				var key [rules.NumChoices]T
				for _, ch := range rules.Choices() {
					if !ls.legal[ch] {
						continue
					}
					if ch == rules.Pass {
						vals[ch] = s.leadPass(st, t, r, flag, d)
					} else {
						vals[ch] = s.leadSum(st, t, r, d, ch)
					}
					key[ch] = vals[ch].win
					if s.pol[r] == rules.PolicyBestResponse {
						key[ch] = vals[ch].lead
					}
				}
				var ch rules.Choice
				switch p := s.pol[r]; {
				case p == rules.PolicyWinOptimal:
					ch = l.selfChoice[flag][i]
				case p == rules.PolicyWinBestResponse || p == rules.PolicyBestResponse:
					ch = s.best(ls, key)
				case p == rules.PolicyOptimal:
					ch = c.optChoice[flag]
				default:
					at := st
					at.Lead = d
					ch = s.fixedChoice(r, p, at, flag)
				}
				v := vals[ch]
				l.win[r][flag][i], l.draw[r][flag][i], l.lead[r][flag][i], l.total[r][flag][i] = v.win, v.draw, v.lead, v.total
				l.choice[r][flag][i] = ch
			}
		}
	}
}

// limitWinDrawLoss is WinDrawLoss under a turn limit.
func limitWinDrawLoss[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) ([2]WDL[T], error) {
	var out [2]WDL[T]
	if mu.Players != 2 {
		return out, fmt.Errorf("players %d: win, draw and loss are computed for 2 players", mu.Players)
	}
	s, err := newLimitSweep(f, m, mu, st)
	if err != nil {
		return out, err
	}
	s.needLeads = true
	if err := s.run(ctx); err != nil {
		return out, err
	}
	two := f.FromInt(2)
	for r := range 2 {
		v := s.final(st.Lead)
		if st.N > 0 && s.limit > 0 {
			v = s.leadAt(s.cell(st, s.limit), r, 0, st.Lead)
		}
		// P(win) - P(loss) = 2w.
		rest := f.Sub(s.ints[1], v.draw)
		diff := f.Mul(two, v.win)
		out[r] = WDL[T]{f.Div(f.Add(rest, diff), two), v.draw, f.Div(f.Sub(rest, diff), two)}
	}
	return out, nil
}
