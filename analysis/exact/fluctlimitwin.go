package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The policies that play to win under a fluctuating capacity and a turn limit (docs/models.md
// §4.4, §4.13, §4.18), two seats, every pass rule: the state before the draw is (n, k, t, d), k
// known cards, t turns left and the mover's lead so far d, and after the draw (n, k, c, t, d). As
// under the pair objective (fluctlimit.go) every turn uses a turn left, so the model is a sweep by
// turns left with no system to solve: layer t reads layers t - 1 and t - 2 only, every lead
// -D .. D at once (D one more than the pairs of the deal; a lead with |d| > n is decided, and a
// policy that plays to win then takes the first legal choice in the order daring, safe,
// known-first, as without a limit). A value is kept as u = P(win) - P(loss), which handing the
// move over negates, v = P(draw), which it keeps, the expected lead (negated) and the pairs both
// seats are credited with (kept); the pairs left at the limit count for nobody.

// flwVal holds, for the mover, u = P(win) - P(loss), v = P(draw), the expected lead and the pairs
// credited to both seats.
type flwVal[T any] struct{ u, v, lead, total T }

// flwCell holds the values of (n, k) with t turns left before the draw: self, win-optimal's
// self-play's u by pass flag and lead index; role[r], role r's values by pass flag and lead index.
type flwCell[T any] struct {
	self [2][]T
	role [2][2][]flwVal[T]
}

// flwChoices are the choices kept for one layer of turns left: [n][c][k][flag][lead index].
type flwChoices [][][][2][]rules.Choice

// fluctLimitWin solves a lineup in which a role plays to win under a fluctuating capacity and a
// turn limit, layer by layer of turns left.
type fluctLimitWin[T any] struct {
	f   field.Field[T]
	pol [2]rules.Policy
	// base holds the capacities and the choices' outcomes (fluctLimitSweep.prepare) and, when a
	// role plays optimal, the pair optimum's choices at every layer (base.kept).
	base     *fluctLimitSweep[T]
	limit, D int
	needSelf bool
	zero     T
	one      T
	layers   [3][][]flwCell[T]
	// record, when set, keeps the choices of role keepRole (or of win-optimal's self-play,
	// keepRole -1) of every layer in kept[t-1].
	record   bool
	keepRole int
	kept     []flwChoices
	// recordAll, when set, keeps both roles' choices of every layer in all[t-1], for the score
	// distribution (fluctlimitwindist.go).
	recordAll bool
	all       []flwAllChoices
}

// flwAllChoices are both roles' choices of one layer of turns left: [n][c][k][role][flag][lead
// index].
type flwAllChoices [][][][2][2][]rules.Choice

// twoSeatWin reports whether a role of the two-seat lineup plays to win by name.
func (mu Lineup) twoSeatWin() bool {
	return mu.Players == 2 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin())
}

// validateFluctLimitWin reports whether the two-seat lineup, in which a role plays to win, is
// solved under a fluctuating capacity and a turn limit: the lineups validateFluctWin accepts
// without the limit.
func validateFluctLimitWin(m Model, mu Lineup) error {
	if err := refuseFluctBlind(m, mu); err != nil { // fluctblind.go
		return err
	}
	base := m
	base.Variant.TurnLimit = 0
	if err := refuseFluctSingles(base, mu); err != nil { // fluctsingles.go
		return err
	}
	if err := fluctWinLineup(base, mu); err != nil {
		return err
	}
	return m.Variant.Validate()
}

// newFluctLimitWin returns the sweep of lineup mu for deals of at most maxN pairs.
func newFluctLimitWin[T any](f field.Field[T], m Model, mu Lineup, maxN int) (*fluctLimitWin[T], error) {
	if err := validateFluctLimitWin(m, mu); err != nil {
		return nil, err
	}
	opt := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	base, err := newFluctLimitSweep(f, m, opt, maxN)
	if err != nil {
		return nil, err
	}
	pol := mu.roles()
	w := &fluctLimitWin[T]{f: f, pol: pol, base: base, limit: m.Variant.TurnLimit, D: maxN + 1,
		zero: f.FromInt(0), one: f.FromInt(1), keepRole: -1}
	w.needSelf = pol[0] == rules.PolicyWinOptimal || pol[1] == rules.PolicyWinOptimal
	return w, nil
}

// li returns the index of lead d, clamped to -D .. D.
func (w *fluctLimitWin[T]) li(d int) int { return min(max(d, -w.D), w.D) + w.D }

// final returns the values of a game over at lead d.
func (w *fluctLimitWin[T]) final(d int) flwVal[T] {
	v := flwVal[T]{w.zero, w.zero, w.zero, w.zero}
	switch {
	case d > 0:
		v.u = w.one
	case d < 0:
		v.u = w.f.Sub(w.zero, w.one)
	default:
		v.v = w.one
	}
	return v
}

// cell returns the values of (n, k) before the draw with t >= 1 turns left.
func (w *fluctLimitWin[T]) cell(n, k, t int) *flwCell[T] { return &w.layers[t%3][n][k] }

// read returns role r's values (win-optimal's self-play's u, r < 0) in cell c at flag and lead d.
func (w *fluctLimitWin[T]) read(c *flwCell[T], r, flag, d int) flwVal[T] {
	if r < 0 {
		return flwVal[T]{c.self[flag][w.li(d)], w.zero, w.zero, w.zero}
	}
	return c.role[r][flag][w.li(d)]
}

// before returns role r's values (r < 0: self-play's) to move in (n, k) before a draw with t turns
// left, at flag and lead d: a game over with no turn or no pair left. takes counts the turns that
// first take a pair known whole, each with its own draw (under lru it forgets down to the capacity
// drawn), so that the rest is read takes turns later.
func (w *fluctLimitWin[T]) before(n, k, t, r, flag, d, takes int) flwVal[T] {
	t -= takes
	if t <= 0 || n == 0 {
		return w.final(d)
	}
	s := w.base
	if takes == 0 || !s.lru() {
		return w.read(w.cell(n, k, t), r, flag, d)
	}
	f := w.f
	out := flwVal[T]{w.zero, w.zero, w.zero, w.zero}
	s.takeDraws(n, k, takes, w.one, func(k int, p T) {
		x := w.read(w.cell(n, k, t), r, flag, d)
		out = flwVal[T]{f.Add(out.u, f.Mul(p, x.u)), f.Add(out.v, f.Mul(p, x.v)),
			f.Add(out.lead, f.Mul(p, x.lead)), f.Add(out.total, f.Mul(p, x.total))}
	})
	return out
}

// value returns the values for role r (r < 0: win-optimal's self-play, its u only) of choice ch
// made in (n, k) with capacity c drawn, t turns left, pass flag flag and lead d.
func (w *fluctLimitWin[T]) value(n, k, c, t, flag, d, r int, ch rules.Choice) flwVal[T] {
	f, s := w.f, w.base
	if ch == rules.Pass {
		if flag == 1 {
			v := w.final(d) // a stalemate: the pairs left shared, the lead unchanged
			v.total = f.FromInt(int64(n))
			return v
		}
		x := w.before(n, passKept(k, c), t-1, other(r), 1, -d, 0)
		return flwVal[T]{f.Sub(w.zero, x.u), x.v, f.Sub(w.zero, x.lead), x.total}
	}
	out := flwVal[T]{w.zero, w.zero, w.zero, w.zero}
	for i, o := range s.outs[n][c][k][ch] {
		k2 := o.Next.N - o.Next.J
		mg := o.MoverGain
		var x flwVal[T]
		if o.Continue {
			x = w.before(o.Next.N, k2, t-1, r, 0, d+mg, 0)
			g := s.ints[mg]
			x.lead, x.total = f.Add(g, x.lead), f.Add(g, x.total)
		} else {
			gain := min(o.NextGain, t-1)
			if gain < o.NextGain {
				// No turn is left to take a pair known whole: the game is over after the pairs
				// taken.
				x = w.final(gain - (d + mg))
			} else {
				x = w.before(o.Next.N, k2, t-1, other(r), 0, gain-(d+mg), gain)
			}
			g, gm := s.ints[gain], s.ints[mg]
			x = flwVal[T]{f.Sub(w.zero, x.u), x.v, f.Sub(gm, f.Add(g, x.lead)), f.Add(gm, f.Add(g, x.total))}
		}
		p := s.probs[n][c][k][ch][i]
		out = flwVal[T]{f.Add(out.u, f.Mul(p, x.u)), f.Add(out.v, f.Mul(p, x.v)),
			f.Add(out.lead, f.Mul(p, x.lead)), f.Add(out.total, f.Mul(p, x.total))}
	}
	return out
}

// firstBest returns the first legal choice of largest u, or the first legal choice when the lead
// d decides the game in a row of n pairs.
func (w *fluctLimitWin[T]) firstBest(n, d int, legal [rules.NumChoices]bool, u [rules.NumChoices]T) rules.Choice {
	best, have := rules.Daring, false
	for _, ch := range rules.Choices() {
		if !legal[ch] {
			continue
		}
		if d > n || -d > n {
			return ch
		}
		if !have || w.f.Cmp(u[ch], u[best]) > 0 {
			best, have = ch, true
		}
	}
	return best
}

// after computes the values of (n, k) with capacity c drawn and t turns left at every flag and
// lead, the choices of role keep (-1: win-optimal's self-play) when choices is not nil, and both
// roles' when all is not nil.
func (w *fluctLimitWin[T]) after(n, k, c, t int, keep int, choices *[2][]rules.Choice, all *[2][2][]rules.Choice) (flwCell[T], error) {
	s := w.base
	legal := s.legal(n, k)
	size := 2*w.D + 1
	var cell flwCell[T]
	var selfCh [2][]rules.Choice
	if w.needSelf {
		for flag := range 2 {
			cell.self[flag], selfCh[flag] = make([]T, size), make([]rules.Choice, size)
			for i := range size {
				var u [rules.NumChoices]T
				for _, ch := range rules.Choices() {
					if legal[ch] {
						u[ch] = w.value(n, k, c, t, flag, i-w.D, -1, ch).u
					}
				}
				ch := w.firstBest(n, i-w.D, legal, u)
				cell.self[flag][i], selfCh[flag][i] = u[ch], ch
			}
		}
	}
	st := rules.State{N: n, J: n - k}
	for r := range 2 {
		for flag := range 2 {
			cell.role[r][flag] = make([]flwVal[T], size)
			var roleCh []rules.Choice
			if (keep == r && choices != nil) || all != nil {
				roleCh = make([]rules.Choice, size)
			}
			for i := range size {
				d := i - w.D
				var ch rules.Choice
				switch p := w.pol[r]; p {
				case rules.PolicyWinOptimal:
					ch = selfCh[flag][i]
				case rules.PolicyWinBestResponse:
					var vals [rules.NumChoices]flwVal[T]
					var u [rules.NumChoices]T
					for _, x := range rules.Choices() {
						if legal[x] {
							vals[x] = w.value(n, k, c, t, flag, d, r, x)
							u[x] = vals[x].u
						}
					}
					ch = w.firstBest(n, d, legal, u)
					cell.role[r][flag][i] = vals[ch]
					if roleCh != nil {
						roleCh[i] = ch
					}
					continue
				case rules.PolicyOptimal:
					ch = s.kept[t-1][n][c][k][flag]
				default:
					ch = p.Decide(st)
				}
				if !legal[ch] {
					return cell, fmt.Errorf("policy %s chooses %s in %v, which the model does not allow", w.pol[r], ch, st)
				}
				cell.role[r][flag][i] = w.value(n, k, c, t, flag, d, r, ch)
				if roleCh != nil {
					roleCh[i] = ch
				}
			}
			if keep == r && choices != nil {
				choices[flag] = roleCh
			}
			if all != nil {
				all[r][flag] = roleCh
			}
		}
	}
	if keep < 0 && choices != nil {
		*choices = selfCh
	}
	return cell, nil
}

// run computes every layer of turns left up to the limit.
func (w *fluctLimitWin[T]) run(ctx context.Context) error {
	f, s := w.f, w.base
	// The pair optimum's choices at every layer, for a role that plays optimal (and the
	// capacities and outcomes every layer reads).
	s.record = w.pol[0] == rules.PolicyOptimal || w.pol[1] == rules.PolicyOptimal
	if s.record {
		if err := s.run(ctx); err != nil {
			return err
		}
	} else if err := s.prepare(); err != nil {
		return err
	}
	makeTurnLayers(&w.layers, s.maxN, s.known)
	size := 2*w.D + 1
	for t := 1; t <= w.limit; t++ {
		if err := stoppedAtTurnsLeft(ctx, t); err != nil {
			return err
		}
		var kept flwChoices
		if w.record {
			kept = make(flwChoices, s.maxN+1)
		}
		var all flwAllChoices
		if w.recordAll {
			all = make(flwAllChoices, s.maxN+1)
		}
		for n := 1; n <= s.maxN; n++ {
			K := s.known(n)
			caps := s.caps[n]
			afterV := make([][]flwCell[T], len(caps))
			if w.record {
				kept[n] = make([][][2][]rules.Choice, caps[len(caps)-1].c+1)
			}
			if w.recordAll {
				all[n] = make([][][2][2][]rules.Choice, caps[len(caps)-1].c+1)
			}
			for i, cp := range caps {
				top := K
				if s.lru() {
					top = min(K, cp.c)
				}
				afterV[i] = make([]flwCell[T], top+1)
				if w.record {
					kept[n][cp.c] = make([][2][]rules.Choice, top+1)
				}
				if w.recordAll {
					all[n][cp.c] = make([][2][2][]rules.Choice, top+1)
				}
				for k := 0; k <= top; k++ {
					var ch *[2][]rules.Choice
					if w.record {
						ch = &kept[n][cp.c][k]
					}
					var both *[2][2][]rules.Choice
					if w.recordAll {
						both = &all[n][cp.c][k]
					}
					cell, err := w.after(n, k, cp.c, t, w.keepRole, ch, both)
					if err != nil {
						return err
					}
					afterV[i][k] = cell
				}
			}
			for k := 0; k <= K; k++ {
				var c flwCell[T]
				for flag := range 2 {
					if w.needSelf {
						c.self[flag] = make([]T, size)
						for li := range size {
							c.self[flag][li] = w.zero
						}
					}
					for r := range 2 {
						c.role[r][flag] = make([]flwVal[T], size)
						for li := range size {
							c.role[r][flag][li] = flwVal[T]{w.zero, w.zero, w.zero, w.zero}
						}
					}
				}
				for i, cp := range caps {
					a := &afterV[i][s.drawn(k, cp.c)]
					p := s.capP[n][i]
					for flag := range 2 {
						for li := range size {
							if w.needSelf {
								c.self[flag][li] = f.Add(c.self[flag][li], f.Mul(p, a.self[flag][li]))
							}
							for r := range 2 {
								x, y := &c.role[r][flag][li], a.role[r][flag][li]
								*x = flwVal[T]{f.Add(x.u, f.Mul(p, y.u)), f.Add(x.v, f.Mul(p, y.v)),
									f.Add(x.lead, f.Mul(p, y.lead)), f.Add(x.total, f.Mul(p, y.total))}
							}
						}
					}
				}
				*w.cell(n, k, t) = c
			}
		}
		if w.record {
			w.kept = append(w.kept, kept)
		}
		if w.recordAll {
			w.all = append(w.all, all)
		}
	}
	return nil
}

// fluctLimitWinFrom runs the sweep of lineup mu for state st (before the draw) and returns role
// r's values there at st's lead, for both roles.
func fluctLimitWinFrom[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) ([2]flwVal[T], error) {
	var out [2]flwVal[T]
	w, err := newFluctLimitWin(f, m, mu, max(st.N, 1))
	if err != nil {
		return out, err
	}
	k, err := fluctKnown(st, w.base.maxK)
	if err != nil {
		return out, err
	}
	if err := w.run(ctx); err != nil {
		return out, err
	}
	for r := range 2 {
		out[r] = w.before(st.N, k, w.limit, r, 0, st.Lead, 0)
	}
	return out, nil
}

// evaluateFluctLimitWin is Evaluate under a fluctuating capacity and a turn limit for a lineup in
// which a role plays to win: seat 0's expected lead and pairs within the limit from st before the
// draw, at its lead so far st.Lead.
func evaluateFluctLimitWin[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) (Result[T], error) {
	v, err := fluctLimitWinFrom(ctx, f, m, mu, st)
	if err != nil {
		return Result[T]{}, err
	}
	return fluctLimitResult(f, st, flLimitVal[T]{v[0].lead, v[0].total}), nil
}

// fluctLimitWinDrawLoss is WinDrawLoss under a fluctuating capacity and a turn limit for a lineup
// in which a role plays to win, from st before the draw: [0] with mu.Policy moving first, [1] with
// mu.Opponent.
func fluctLimitWinDrawLoss[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) ([2]WDL[T], error) {
	var out [2]WDL[T]
	v, err := fluctLimitWinFrom(ctx, f, m, mu, st)
	if err != nil {
		return out, err
	}
	for r := range 2 {
		out[r] = wdlOf(f, v[r].u, v[r].v)
	}
	return out, nil
}

// fluctLimitWinChoiceValues is FluctWinChoiceValues (flag 0) and FluctWinChoiceValuesAfterPass
// (flag 1) under a turn limit: every legal choice of seat 0 in st, the state after the draw of
// capacity c, with the model's turn limit as the turns left (this turn included), at its lead so
// far st.Lead, lineup mu afterwards.
func fluctLimitWinChoiceValues[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State, c, flag int) (Choices[T], WinChoices[T], error) {
	var out Choices[T]
	var win WinChoices[T]
	w, err := newFluctLimitWin(f, m, mu, st.N)
	if err != nil {
		return out, win, err
	}
	k, err := fluctDrawnKnown(m.Memory, w.base.maxK, st, c)
	if err != nil {
		return out, win, err
	}
	left := w.limit
	// The layers up to left - 1 turns left are the successors' values; the turn itself is
	// computed from them (the pair optimum's choices at every layer, for a role that plays
	// optimal).
	w.limit = left - 1
	if err := w.run(ctx); err != nil {
		return out, win, err
	}
	n, d := st.N, st.Lead
	cn := min(c, fluctTop(m, n)) // the capacities of a row are merged from n + 1 up (fluctTop)
	var choices [2][]rules.Choice
	w.keepRole = 0
	cell, err := w.after(n, k, cn, left, 0, &choices, nil)
	if err != nil {
		return out, win, err
	}
	out.State, win.State = st, st
	out.PolicyChoice = choices[flag][w.li(d)]
	win.PolicyChoice = out.PolicyChoice
	own := cell.role[0][flag][w.li(d)]
	out.Value = fluctLimitResult(f, st, flLimitVal[T]{own.lead, own.total})
	win.Value = wdlOf(f, own.u, own.v)
	for _, ch := range rules.Choices() {
		if !w.base.legal(n, k)[ch] {
			continue
		}
		v := w.value(n, k, cn, left, flag, d, 0, ch)
		r := fluctLimitResult(f, st, flLimitVal[T]{v.lead, v.total})
		out.Values = append(out.Values, ChoiceValue[T]{Choice: ch, Lead: r.ExpectedLead, Pairs: r.ExpectedPairs, PairsBySeat: r.PairsBySeat})
		p := wdlOf(f, v.u, v.v)
		win.Values = append(win.Values, WinChoiceValue[T]{Choice: ch, Win: p.Win, Draw: p.Draw, Loss: p.Loss, Score: p.Score(f)})
	}
	if len(out.Values) == 0 {
		return out, win, fmt.Errorf("%v: no legal choice", st)
	}
	markBest(f, &out, 2)
	win.markBest(f)
	return out, win, nil
}

// fluctLimitWinTables is FluctLimitTables for a policy that plays to win: layers[c-lo][t-1] holds
// the choices with capacity c drawn and t turns left, each a table with a lead dimension
// (rules.NewLeadChoiceTable) from -(maxPairs + 1) to maxPairs + 1, under a pass rule with the
// choices just after a pass by the other seat.
func fluctLimitWinTables[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int) (lo int, layers [][]*rules.ChoiceTable, err error) {
	w, err := newFluctLimitWin(f, m, mu, maxPairs)
	if err != nil {
		return 0, nil, err
	}
	w.record = true
	if mu.Policy == rules.PolicyWinBestResponse {
		w.keepRole = 0
	} else {
		w.needSelf = true // win-optimal's table is its self-play's, whoever it plays
	}
	if err := w.run(ctx); err != nil {
		return 0, nil, err
	}
	lo = fluctCaps(m.Memory, maxPairs)[0].c
	hi := max(lo, min(fluctMaxKnown(m.Memory), fluctTop(m, maxPairs)))
	passes := m.Pass != rules.PassNever
	layers = make([][]*rules.ChoiceTable, hi-lo+1)
	for i := range layers {
		c := lo + i
		layers[i] = make([]*rules.ChoiceTable, w.limit)
		for t := range w.limit {
			tab, err := rules.NewLeadChoiceTable(maxPairs, 0, w.D)
			if err != nil {
				return 0, nil, err
			}
			for n := 1; n <= maxPairs; n++ {
				cn := min(c, fluctTop(m, n)) // the capacities of a row are merged from n + 1 up (fluctTop)
				byCap := w.kept[t][n]
				if cn >= len(byCap) || byCap[cn] == nil {
					continue
				}
				for k, byFlag := range byCap[cn] {
					for li := range byFlag[0] {
						st := rules.State{N: n, J: n - k, Lead: li - w.D}
						tab.Set(st, false, byFlag[0][li])
						if passes {
							tab.Set(st, true, byFlag[1][li])
						}
					}
				}
			}
			layers[i][t] = tab
		}
	}
	return lo, layers, nil
}

// estimateFluctLimitWin is Estimate under a fluctuating capacity and a turn limit for a lineup in
// which a role plays to win: the pair model's sweep (estimateFluctLimit, for the capacities and
// the optimum's choices) and, at every lead -D .. D, both roles' and win-optimal's self-play's
// values of every choice at both flags; not fitted to measurements beyond the pair model's
// constants.
func estimateFluctLimitWin[T any](f field.Field[T], m Model, mu Lineup, pairs int, call Call) (Cost, error) {
	switch {
	case call == CallDistribution && m.Variant.Flips == rules.FlipsBlind:
		return Cost{}, fmt.Errorf("policy %s, turn limit %d: under a fluctuating capacity, blind flips and a turn limit the policies that play to win are solved for their values, win, draw and loss probabilities, each choice's values and their tables, not the score distribution", mu.Policy, m.Variant.TurnLimit)
	case call == CallEvaluate, call == CallWinDrawLoss, call == CallPolicyTable, call == CallTable, call == CallWinTable, call == CallDistribution:
	default:
		return Cost{}, fmt.Errorf("policy %s, turn limit %d: under a fluctuating capacity and a turn limit the policies that play to win are solved for their values, win, draw and loss probabilities, each choice's values, their tables and the score distribution, not this computation", mu.Policy, m.Variant.TurnLimit)
	}
	if err := validateFluctLimitWin(m, mu); err != nil {
		return Cost{}, err
	}
	opt := Lineup{Players: 2, Policy: rules.PolicyOptimal, Opponent: rules.PolicyOptimal}
	base, err := estimateFluctLimit(f, m, opt, pairs, CallEvaluate)
	if err != nil {
		return Cost{}, err
	}
	c := base
	leads := float64(2*pairs + 3)
	// Three sets of values (self-play, two roles) against the pair sweep's three; every lead.
	c.Ops *= 1 + leads*1.5
	c.Bytes += (c.Bytes - baseBytes) * leads * 2
	if call == CallDistribution {
		// Both roles' choices of every layer kept at every lead and flag, then the pair model's
		// forward pass (fluctlimitwindist.go).
		d, err := estimateFluctLimit(f, m, opt, pairs, CallDistribution)
		if err != nil {
			return Cost{}, err
		}
		k := float64(min(int64(pairs), int64(fluctMaxKnown(m.Memory))) + 1)
		caps := float64(min(2*int64(m.Memory.Fluctuation)+1, int64(pairs)+1))
		c.Ops += d.Ops - base.Ops
		c.Bytes += d.Bytes - base.Bytes + float64(pairs)*k*caps*float64(m.Variant.TurnLimit)*4*leads
	}
	return c, nil
}
