package exact

import (
	"context"
	"fmt"

	"memsim/analysis/field"
	"memsim/sim/rules"
)

// The win objective (docs/models.md §4.13). A policy that plays to win maximises the mover's
// P(win) + P(draw)/2. What is best then depends on the lead d so far (the mover's pairs minus the
// other seat's), so its states are (n, j, s, f, d): rules.State with Lead. The lead sweep below
// extends the sweep of the counts with every lead -D .. D. Win values are kept centred,
// w = P(win) + P(draw)/2 - 1/2, in which handing the move over is a negation, as it is for leads:
// the equations of a state and the closed-form solution of its self-references are those of the
// other objectives (twoSeat, solveLocal).
//
// A lead with |d| > n is decided: the winner is known whatever happens (w = ±1/2, and every
// choice is as good: a policy that plays to win takes the first legal choice in the order daring,
// safe, known-first, pass). D is one more than the largest number of pairs, so that every lead
// beyond it is decided and behaves as ±D: leads are clamped to -D .. D.

// leadCell holds the values of one count state at every lead, indexed by d + D, for the two
// roles r of a matchup (0: Lineup.Policy, 1: Lineup.Opponent) to move, after a pass by the
// other (flag 1) or not (flag 0).
type leadCell[T any] struct {
	// wo[g][i]: the centred win value of win-optimal self-play, and woC its choice.
	wo  [2][]T
	woC [2][]rules.Choice
	// win[r][g][i]: role r's centred win value in the matchup (when a role is a win best response).
	win [2][2][]T
	// ch[r][g][i]: role r's choice in the matchup.
	ch [2][2][]rules.Choice
	// lead[r][g][i]: role r's expected lead from here, in pairs still on the table.
	lead [2][2][]T
	// dist[r][g][i]: the distribution of that lead, indexed by lead + maxPairs.
	dist [2][2][][]T
	// wdl[r][g][i]: role r's P(win) - P(loss) and P(draw) of the final lead.
	wdl [2][2][][]T
}

// leadSweep computes the lead-dependent values of a matchup in which a role plays to win.
type leadSweep[T any] struct {
	w *sweep[T]
	// D: leads run from -D to D.
	D int
	// pol[r] is role r's policy.
	pol [2]rules.Policy

	needWinOpt, needWin, needEval, needDist, needWDL bool
	// needBR: a role is the best response (in expected pairs) to a table that depends on the lead,
	// so that its choice depends on the lead too.
	needBR bool

	rows [3][]leadCell[T]
	half T
}

// newLeadSweep adds a lead sweep to w, for states with at most maxPairs pairs.
func newLeadSweep[T any](w *sweep[T], maxPairs int) *leadSweep[T] {
	l := &leadSweep[T]{w: w, D: maxPairs + 1, pol: w.pol, half: w.f.FromFrac(1, 2)}
	for _, p := range l.pol {
		switch p {
		case rules.PolicyWinOptimal:
			l.needWinOpt = true
		case rules.PolicyWinBestResponse:
			l.needWin = true
		case rules.PolicyBestResponse:
			// The best response maximises the expected lead, which it reads at every state.
			l.needBR, l.needEval = true, true
		}
	}
	w.lead = l
	return l
}

// li returns the index of lead d, clamped to -D .. D.
func (l *leadSweep[T]) li(d int) int { return min(max(d, -l.D), l.D) + l.D }

func (l *leadSweep[T]) at(st rules.State) *leadCell[T] {
	return &l.rows[l.w.row(st.N)][st.J*l.w.stride+st.F]
}

// final returns the centred win value of a game that ends with lead d: 1/2, 0 or -1/2.
func (l *leadSweep[T]) final(d int) T {
	switch {
	case d > 0:
		return l.half
	case d < 0:
		return l.w.f.Sub(l.w.zero, l.half)
	}
	return l.w.zero
}

// finalWDL returns P(win) - P(loss) and P(draw) of a game that ends with lead d.
func (l *leadSweep[T]) finalWDL(d int) []T {
	w := l.w
	switch {
	case d > 0:
		return []T{w.one, w.zero}
	case d < 0:
		return []T{w.f.Sub(w.zero, w.one), w.zero}
	}
	return []T{w.zero, w.one}
}

// alloc makes the cell's slices, once.
func (l *leadSweep[T]) alloc(c *leadCell[T]) {
	n := 2*l.D + 1
	if c.woC[0] != nil {
		return
	}
	for g := range 2 {
		c.wo[g], c.woC[g] = make([]T, n), make([]rules.Choice, n)
		for r := range 2 {
			c.win[r][g], c.ch[r][g], c.lead[r][g] = make([]T, n), make([]rules.Choice, n), make([]T, n)
			c.dist[r][g], c.wdl[r][g] = make([][]T, n), make([][]T, n)
		}
	}
}

// firstLegal returns the first legal choice in the order daring, safe, known-first, pass.
func (l *leadSweep[T]) firstLegal() rules.Choice { return l.w.firstLegal() }

// state computes every lead of the count state st.
func (l *leadSweep[T]) state(st rules.State) {
	w := l.w
	c := l.at(st)
	l.alloc(c)
	if st.N == 0 {
		delta := w.zeros(2*w.maxPairs + 1)
		delta[w.maxPairs] = w.one
		for i := range 2*l.D + 1 {
			v := l.final(i - l.D)
			for g := range 2 {
				c.wo[g][i], c.woC[g][i] = v, rules.Daring
				for r := range 2 {
					c.win[r][g][i], c.ch[r][g][i], c.lead[r][g][i] = v, rules.Daring, w.zero
					c.dist[r][g][i] = delta
					c.wdl[r][g][i] = l.finalWDL(i - l.D)
				}
			}
		}
		return
	}
	for d := 0; d <= l.reach(st.N); d++ {
		if l.needWinOpt {
			l.selfPlay(st, c, d)
		}
		for _, e := range []int{d, -d} {
			l.matchup(st, c, e)
			if d == 0 {
				break
			}
		}
	}
}

// winSum returns the sum function of the win objective for the group in which role 0 moves at
// lead e and role 1 at -e, reading the roles' values at other states from val.
func (l *leadSweep[T]) winSum(st rules.State, e int, val func(c *leadCell[T], r int) []T) func(r int, ch rules.Choice) (T, T) {
	w, f := l.w, l.w.f
	return func(r int, ch rules.Choice) (T, T) {
		lead := e
		if r == 1 {
			lead = -e
		}
		a, b := w.zero, w.zero
		for i, o := range w.outs[ch] {
			p := w.probs[ch][i]
			if selfLoop(o, st) {
				b = f.Add(b, p)
				continue
			}
			var v T
			if o.Continue {
				v = val(l.at(o.Next), r)[l.li(lead+o.MoverGain)]
			} else {
				v = f.Sub(w.zero, val(l.at(o.Next), 1-r)[l.li(-lead+o.NextGain)])
			}
			a = f.Add(a, f.Mul(p, v))
		}
		return a, b
	}
}

// selfPlay computes the win-optimal self-play values and choices at leads d and -d.
func (l *leadSweep[T]) selfPlay(st rules.State, c *leadCell[T], d int) {
	i0, i1 := l.li(d), l.li(-d)
	if d > st.N {
		first := l.firstLegal()
		for g := range 2 {
			c.wo[g][i0], c.wo[g][i1] = l.final(d), l.final(-d)
			c.woC[g][i0], c.woC[g][i1] = first, first
		}
		return
	}
	sum := l.winSum(st, d, func(c *leadCell[T], _ int) []T { return c.wo[0] })
	x, ch := l.winGroup([2]bool{true, true}, [2][2]rules.Choice{}, sum, [2]T{l.final(d), l.final(-d)})
	for g := range 2 {
		c.wo[g][i0], c.wo[g][i1] = x[pairNode(0, g)], x[pairNode(1, g)]
		c.woC[g][i0], c.woC[g][i1] = ch[0][g], ch[1][g]
	}
}

// matchup computes the matchup's values in the group where role 0 moves at lead e and role 1 at
// -e: the roles' choices (a win best response maximising its win value against the other
// role's), then, as asked, their expected leads and lead distributions.
func (l *leadSweep[T]) matchup(st rules.State, c *leadCell[T], e int) {
	w := l.w
	idx := [2]int{l.li(e), l.li(-e)}
	lead := [2]int{e, -e}
	var ch [2][2]rules.Choice
	var free, brFree [2]bool
	for r, p := range l.pol {
		for g := range 2 {
			switch p {
			case rules.PolicyWinOptimal:
				ch[r][g] = c.woC[g][idx[r]]
			case rules.PolicyWinBestResponse:
				free[r] = true
			case rules.PolicyBestResponse:
				brFree[r] = true
			case policyTable:
				s := st
				s.Lead = lead[r]
				ch[r][g] = w.tableChoice(w.tab[r], s, g == 1)
			default:
				ch[r][g] = w.choice(r, st, g == 1)
			}
		}
	}
	if l.needWin {
		stale := [2]T{l.final(e), l.final(-e)}
		var x []T
		if e > st.N || -e > st.N {
			x = []T{stale[0], stale[0], stale[1], stale[1]}
			for r := range 2 {
				if free[r] {
					ch[r] = [2]rules.Choice{l.firstLegal(), l.firstLegal()}
				}
			}
		} else {
			sum := l.winSum(st, e, func(c *leadCell[T], r int) []T { return c.win[r][0] })
			x, ch = l.winGroup(free, ch, sum, stale)
		}
		for r := range 2 {
			for g := range 2 {
				c.win[r][g][idx[r]] = x[pairNode(r, g)]
			}
		}
	}
	if l.needBR {
		// The best reply in expected lead: the group's equations are those of the win values,
		// with the expected leads of the successors and a stalemate worth a lead of 0.
		_, ch = l.winGroup(brFree, ch, l.leadGroupSum(st, lead), [2]T{w.zero, w.zero})
	}
	for r := range 2 {
		for g := range 2 {
			c.ch[r][g][idx[r]] = ch[r][g]
		}
	}
	if l.needEval {
		x := twoSeat(w, w.scalarSpace(), w.zero, [2]T{w.zero, w.zero}, ch, l.leadGroupSum(st, lead))
		for r := range 2 {
			for g := range 2 {
				c.lead[r][g][idx[r]] = x[pairNode(r, g)]
			}
		}
	}
	if l.needWDL {
		var x [][]T
		if e > st.N || -e > st.N {
			// Decided: whatever is played, the outcome is known.
			a, b := l.finalWDL(e), l.finalWDL(-e)
			x = [][]T{a, a, b, b}
		} else {
			x = l.wdlGroup(st, lead, ch)
		}
		for r := range 2 {
			for g := range 2 {
				c.wdl[r][g][idx[r]] = x[pairNode(r, g)]
			}
		}
	}
	if l.needDist {
		x := l.distGroup(st, lead, ch)
		for r := range 2 {
			for g := range 2 {
				c.dist[r][g][idx[r]] = x[pairNode(r, g)]
			}
		}
	}
}

// leadGroupSum returns the sum function of twoSeat for the expected leads of the group in which
// role r moves at lead[r].
func (l *leadSweep[T]) leadGroupSum(st rules.State, lead [2]int) func(r int, choice rules.Choice) (T, T) {
	w := l.w
	return func(r int, choice rules.Choice) (T, T) {
		return w.leadSum(st, choice,
			func(o Outcome) T { return l.at(o.Next).lead[r][0][l.li(lead[r]+o.MoverGain)] },
			func(o Outcome) T { return l.at(o.Next).lead[1-r][0][l.li(-lead[r]+o.NextGain)] })
	}
}

// wdlGroup computes the roles' P(win) - P(loss) and P(draw) in the group in which role r moves at
// lead[r]: linear in the values of the successors, with the mirror (u, v) -> (-u, v) of handing
// the move over, so that the group's self-references are solved as the others are.
func (l *leadSweep[T]) wdlGroup(st rules.State, lead [2]int, ch [2][2]rules.Choice) [][]T {
	w, f := l.w, l.w.f
	mirror := func(v []T) []T { return []T{f.Sub(w.zero, v[0]), v[1]} }
	sum := func(r int, choice rules.Choice) ([]T, T) {
		vec, b := []T{w.zero, w.zero}, w.zero
		for k, o := range w.outs[choice] {
			pr := w.probs[choice][k]
			if selfLoop(o, st) {
				b = f.Add(b, pr)
				continue
			}
			src := l.at(o.Next).wdl[r][0][l.li(lead[r]+o.MoverGain)]
			if !o.Continue {
				src = mirror(l.at(o.Next).wdl[1-r][0][l.li(-lead[r]+o.NextGain)])
			}
			vec[0], vec[1] = f.Add(vec[0], f.Mul(pr, src[0])), f.Add(vec[1], f.Mul(pr, src[1]))
		}
		return vec, b
	}
	return twoSeat(w, w.vectorSpace(mirror), []T{w.zero, w.zero}, [2][]T{l.finalWDL(lead[0]), l.finalWDL(lead[1])}, ch, sum)
}

// WDL is the probability that a seat ends the game ahead (Win), level (Draw) or behind (Loss).
type WDL[T any] struct{ Win, Draw, Loss T }

// WinDrawLoss returns, for both seat orders of a two-player matchup from state st, the
// probabilities that the mover ends the game ahead, level or behind, its lead so far being
// st.Lead: [0] with mu.Policy moving first (against mu.Opponent), [1] with mu.Opponent moving
// first (against mu.Policy). It works in scalars where Distribution works in whole distributions,
// so it is the cheaper of the two; best-response matchups (whose choices the lead sweep does not
// make) are computed through Distribution.
func WinDrawLoss[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, st rules.State) ([2]WDL[T], error) {
	var out [2]WDL[T]
	if mu.Players != 2 {
		return out, fmt.Errorf("players %d: win, draw and loss are computed for 2 players", mu.Players)
	}
	if m.fluctLimited() && mu.twoSeatWin() {
		return fluctLimitWinDrawLoss(ctx, f, m, mu, st) // fluctlimitwin.go
	}
	if m.Variant.TurnLimit > 0 {
		return limitWinDrawLoss(ctx, f, m, mu, st)
	}
	if m.Memory.Fluctuation > 0 && (mu.Policy.PlaysToWin() || mu.Opponent.PlaysToWin()) {
		return fluctWinDrawLoss(ctx, f, m, mu, st) // fluctwin.go
	}
	if mu.hasBestResponse() || m.Memory.Fluctuation > 0 {
		for k, m2 := range []Lineup{mu, mu.swapped()} {
			d, err := Distribution(ctx, f, m, m2, st)
			if err != nil {
				return out, err
			}
			out[k] = WDL[T]{d.Win, d.Draw, d.Loss}
		}
		return out, nil
	}
	w, err := winDrawLossSweep(f, m, mu, st)
	if err != nil {
		return out, err
	}
	if err := w.run(ctx, st.N, nil); err != nil {
		return out, err
	}
	l := w.lead
	two := f.FromInt(2)
	for r := range 2 {
		x := l.at(st).wdl[r][0][l.li(st.Lead)]
		rest := f.Sub(w.one, x[1])
		out[r] = WDL[T]{f.Div(f.Add(rest, x[0]), two), x[1], f.Div(f.Sub(rest, x[0]), two)}
	}
	return out, nil
}

// winDrawLossSweep returns the sweep WinDrawLoss runs for a matchup without a best response: a
// lead sweep of the win, draw and loss probabilities.
func winDrawLossSweep[T any](f field.Field[T], m Model, mu Lineup, st rules.State) (*sweep[T], error) {
	w, err := newSweep(f, m, mu, st)
	if err != nil {
		return nil, err
	}
	newLeadSweep(w, st.N).needWDL = true
	return w, nil
}

// distGroup computes the lead distributions of the group in which role r moves at lead[r], with
// the same equations as sweep.distribution: continuing shifts the mover's own distribution by
// its gain, handing over mirrors the next seat's, and a stalemate is a lead of 0.
func (l *leadSweep[T]) distGroup(st rules.State, lead [2]int, ch [2][2]rules.Choice) [][]T {
	w := l.w
	size := 2*w.maxPairs + 1
	delta := w.zeros(size)
	delta[w.maxPairs] = w.one
	sum := func(r int, choice rules.Choice) ([]T, T) {
		return w.distSum(st, choice, func(o Outcome) []T { return l.at(o.Next).dist[r][0][l.li(lead[r]+o.MoverGain)] },
			func(o Outcome) []T { return l.at(o.Next).dist[1-r][0][l.li(-lead[r]+o.NextGain)] })
	}
	return twoSeat(w, w.vectorSpace(func(v []T) []T { return reversed(v, size) }), w.zeros(size), [2][]T{delta, delta}, ch, sum)
}

// winGroup solves a group for the centred win values when the roles marked free maximise them
// and the others play ch (or, given the sums of expected leads and a stalemate worth 0, for the
// expected leads of a best response to a table that depends on the lead: the equations are the
// same). It returns the values, numbered as twoSeat numbers them, and every
// role's choices (the first best in the order daring, safe, known-first, pass for a free role).
//
// A free role's value at each of its two unknowns is the largest of its choices' values, each an
// affine function of one other unknown of the group. The map is a contraction (every cycle of the
// group's unknowns passes through a choice that returns to the state with a probability below
// one, or ends in a stalemate), so it has one fixed point, and some assignment of choices reaches
// it: the assignment whose solution no choice improves on. The solver finds it by strategy
// improvement, and by trying every assignment should that cycle.
func (l *leadSweep[T]) winGroup(free [2]bool, ch [2][2]rules.Choice, sum func(r int, c rules.Choice) (T, T), stale [2]T) ([]T, [2][2]rules.Choice) {
	w, f := l.w, l.w.f
	type cand struct {
		c    rules.Choice
		a, b T
	}
	// value returns a candidate's value at node (r, g) given the group's values x.
	value := func(r, g int, k cand, x []T) T {
		switch {
		case k.c == rules.Pass && g == 1:
			return stale[r]
		case k.c == rules.Pass:
			return f.Sub(w.zero, x[pairNode(1-r, 1)])
		}
		return f.Sub(k.a, f.Mul(k.b, x[pairNode(1-r, 0)]))
	}
	var cands [4][]cand // the candidates of every free node
	var all [4][]cand   // every legal choice of every free node
	var sums [2][rules.NumChoices]cand
	for r := range 2 {
		if !free[r] {
			continue
		}
		for _, c := range rules.Choices() {
			if w.legal[c] && c != rules.Pass {
				a, b := sum(r, c)
				sums[r][c] = cand{c, a, b}
			}
		}
		for g := range 2 {
			i := pairNode(r, g)
			var best *cand
			for _, c := range rules.Choices() {
				if !w.legal[c] {
					continue
				}
				k := cand{c: c}
				if c != rules.Pass {
					k = sums[r][c]
				}
				all[i] = append(all[i], k)
				// Choices that never come back are constants: only the best of them can be
				// part of the fixed point.
				if c != rules.Pass && f.IsZero(k.b) {
					if best == nil || f.Cmp(k.a, best.a) > 0 {
						kk := k
						best = &kk
					}
					continue
				}
				cands[i] = append(cands[i], k)
			}
			if best != nil {
				cands[i] = append(cands[i], *best)
			}
		}
	}
	solve := func(pick [4]int) ([]T, bool, float64) {
		for r := range 2 {
			if free[r] {
				for g := range 2 {
					ch[r][g] = cands[pairNode(r, g)][pick[pairNode(r, g)]].c
				}
			}
		}
		x := twoSeat(w, w.scalarSpace(), w.zero, stale, ch, func(r int, c rules.Choice) (T, T) {
			if free[r] {
				return sums[r][c].a, sums[r][c].b
			}
			return sum(r, c)
		})
		consistent, violation := true, 0.0
		for i := range 4 {
			r, g := i/2, i%2
			for _, k := range all[i] {
				if v := value(r, g, k, x); f.Cmp(v, x[i]) > 0 {
					consistent = false
					violation = max(violation, f.Float64(f.Sub(v, x[i])))
				}
			}
		}
		return x, consistent, violation
	}
	// greedy returns, for each free node, its best candidate at the values x.
	greedy := func(x []T) [4]int {
		var pick [4]int
		for i := range 4 {
			r, g := i/2, i%2
			var best T
			for k, kc := range cands[i] {
				if v := value(r, g, kc, x); k == 0 || f.Cmp(v, best) > 0 {
					best, pick[i] = v, k
				}
			}
		}
		return pick
	}
	// Strategy improvement from the choices that are best when every unknown is 0 reaches the
	// fixed point in a step or two; should it cycle, every assignment is tried in turn.
	var x []T
	zeros := []T{w.zero, w.zero, w.zero, w.zero}
	pick := greedy(zeros)
	found := false
	for range 8 {
		var ok bool
		if x, ok, _ = solve(pick); ok {
			found = true
			break
		}
		next := greedy(x)
		if next == pick {
			break
		}
		pick = next
	}
	if !found {
		var fallback []T
		var worst float64
		pick = [4]int{}
		for {
			var ok bool
			var violation float64
			if x, ok, violation = solve(pick); ok {
				found = true
				break
			}
			if fallback == nil || violation < worst {
				fallback, worst = x, violation
			}
			// The next assignment, in mixed radix over the free nodes.
			i := 0
			for ; i < 4; i++ {
				if len(cands[i]) == 0 {
					continue
				}
				pick[i]++
				if pick[i] < len(cands[i]) {
					break
				}
				pick[i] = 0
			}
			if i == 4 {
				// No assignment is consistent (only possible through rounding in float64):
				// take the least inconsistent one.
				x = fallback
				break
			}
		}
	}
	// The free roles' choices: the first best legal choice at the fixed point.
	for r := range 2 {
		if !free[r] {
			continue
		}
		for g := range 2 {
			i := pairNode(r, g)
			for _, k := range all[i] {
				if f.Cmp(value(r, g, k, x), x[i]) == 0 {
					ch[r][g] = k.c
					break
				}
			}
		}
	}
	return x, ch
}

// WinCell is one state of a table of a policy that plays to win: a count state with a lead.
type WinCell[T any] struct {
	// State is the state, with its lead.
	State rules.State
	// Value is the mover's P(win) + P(draw)/2 when it plays the table's policy: for win-optimal
	// against win-optimal (the table is self-play's, whatever mu.Opponent is), for a win best
	// response its best reply against mu.Opponent.
	Value T
	// Choice is the policy's choice; Best lists every choice as good (in the order daring, safe,
	// known-first, pass).
	Choice rules.Choice
	Best   []rules.Choice
	// Legal says which choices are open; ChoiceValue gives each legal choice's P(win) +
	// P(draw)/2 for the mover, the choice made here and the policies played afterwards.
	Legal       [rules.NumChoices]bool
	ChoiceValue [rules.NumChoices]T
}

// WinTable computes the table of seat 0's policy in a two-player matchup in which it plays to win
// (win-optimal, or a win best response to mu.Opponent), for every state with at most maxPairs
// pairs and at least one pair and every lead |d| <= maxPairs - n (the leads a game of maxPairs
// pairs can reach), calling visit for each in order of n, then j, then f, then d. The cell passed
// to visit is reused.
func WinTable[T any](ctx context.Context, f field.Field[T], m Model, mu Lineup, maxPairs int, visit func(*WinCell[T]) error) error {
	w, err := winTableSweep(f, m, mu, maxPairs)
	if err != nil {
		return err
	}
	l := w.lead
	var wc WinCell[T]
	return w.run(ctx, maxPairs, func(st rules.State) error {
		if st.N == 0 {
			return nil
		}
		c := l.at(st)
		for d := -(maxPairs - st.N); d <= maxPairs-st.N; d++ {
			i := l.li(d)
			wc.State = st
			wc.State.Lead = d
			wc.Legal = w.legal
			wc.Value, wc.Choice = f.Add(l.seatVals(c, 0, 0)[i], l.half), c.ch[0][0][i]
			wc.Best = wc.Best[:0]
			l.choiceValues(st, d, &wc)
			for _, ch := range rules.Choices() {
				if wc.Legal[ch] && f.Cmp(wc.ChoiceValue[ch], wc.Value) == 0 {
					wc.Best = append(wc.Best, ch)
				}
			}
			if err := visit(&wc); err != nil {
				return err
			}
		}
		return nil
	})
}

// winTableSweep returns the sweep WinTable runs: a lead sweep of the choices.
func winTableSweep[T any](f field.Field[T], m Model, mu Lineup, maxPairs int) (*sweep[T], error) {
	if maxPairs < 1 {
		return nil, fmt.Errorf("pairs-max %d: must be at least 1", maxPairs)
	}
	if mu.Table != nil {
		return nil, fmt.Errorf("seat 0 plays a given table: its table is that table")
	}
	if !mu.Policy.PlaysToWin() {
		return nil, fmt.Errorf("policy %s does not play to win (allowed: win-optimal, win-best-response)", mu.Policy)
	}
	w, err := newSweep(f, m, mu, startOf(m, maxPairs))
	if err != nil {
		return nil, err
	}
	newLeadSweep(w, maxPairs)
	return w, nil
}

// choiceValues sets the P(win) + P(draw)/2 of each legal choice of seat 0 (role 0) at lead d in
// st, flag 0: the choice made here and the policies played afterwards.
func (l *leadSweep[T]) choiceValues(st rules.State, d int, wc *WinCell[T]) {
	w, f := l.w, l.w.f
	if d > st.N || -d > st.N {
		for _, c := range rules.Choices() {
			wc.ChoiceValue[c] = f.Add(l.final(d), l.half)
		}
		return
	}
	cell := l.at(st)
	sum := l.winSum(st, d, func(c *leadCell[T], r int) []T { return l.seatVals(c, r, 0) })
	for _, c := range rules.Choices() {
		if !w.legal[c] {
			continue
		}
		var v T
		if c == rules.Pass {
			v = f.Sub(w.zero, l.afterPass(st, func(c *leadCell[T]) T { return l.seatVals(c, 1, 1)[l.li(-d)] }))
		} else {
			a, b := sum(0, c)
			v = f.Sub(a, f.Mul(b, l.seatVals(cell, 1, 0)[l.li(-d)]))
		}
		wc.ChoiceValue[c] = f.Add(v, l.half)
	}
}

// seatVals returns role r's centred win values with flag g, by lead, in a table of seat 0's
// policy: self-play's for win-optimal, the matchup's for a win best response.
func (l *leadSweep[T]) seatVals(c *leadCell[T], r, g int) []T {
	if l.pol[0] == rules.PolicyWinOptimal {
		return c.wo[g]
	}
	return c.win[r][g]
}
